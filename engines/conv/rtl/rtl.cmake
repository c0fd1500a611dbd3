# engines/conv/rtl: the CONV build fragment, included by rtl/CMakeLists.txt (its sources, its
# per-configuration parameters from regs/hw_configs.json, its verilated models and its lint and
# synthesis checks). Shared RTL is ${CMAKE_CURRENT_SOURCE_DIR} (rtl/), other engines' ${DLA_ENGINES_DIR}/<engine>/rtl.
# ---- Direct-convolution pipeline (CDMA, CBUF, CSC, CMAC_A/B, CACC), which nvdla_core (rtl/top) flies
# into SDP. docs/CONV_RTL.md. CBUF (banks x entries, split by D_BANK): nv_small 32 x 512
# entries of 8 B (128 KiB); nv_large 16 x 512 of 64 B; nv_full 16 x 256 of 128 B (int16-capable
# channel block; 512 KiB).
set(CONV_SOURCES
    ${FP_SOURCES}
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_fp16_count.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_sat.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_sshift_sat.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_perf_cnt.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_fifo.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_pipe_ctrl.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/dma/dla_dma_rd.sv
    ${DLA_ENGINES_DIR}/conv/rtl/cdma_regs_pkg.sv
    ${DLA_ENGINES_DIR}/conv/rtl/csc_regs_pkg.sv
    ${DLA_ENGINES_DIR}/conv/rtl/cmac_a_regs_pkg.sv
    ${DLA_ENGINES_DIR}/conv/rtl/cmac_b_regs_pkg.sv
    ${DLA_ENGINES_DIR}/conv/rtl/cacc_regs_pkg.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_group_regs.sv
    ${DLA_ENGINES_DIR}/conv/rtl/cdma_reg_top.sv
    ${DLA_ENGINES_DIR}/conv/rtl/csc_reg_top.sv
    ${DLA_ENGINES_DIR}/conv/rtl/cmac_a_reg_top.sv
    ${DLA_ENGINES_DIR}/conv/rtl/cmac_b_reg_top.sv
    ${DLA_ENGINES_DIR}/conv/rtl/cacc_reg_top.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_pkg.sv
    ${DLA_ENGINES_DIR}/wino/rtl/wino_pra_tile.sv
    ${DLA_ENGINES_DIR}/wino/rtl/wino_poa_tile.sv
    ${DLA_ENGINES_DIR}/cmac/rtl/cmac_fp16_pkg.sv
    ${DLA_ENGINES_DIR}/cmac/rtl/cmac_fp16_mul.sv
    ${DLA_ENGINES_DIR}/cmac/rtl/cmac_fp16_dot.sv
    ${DLA_ENGINES_DIR}/cmac/rtl/cmac_cell.sv
    ${DLA_ENGINES_DIR}/cmac/rtl/cmac_array.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_cvt_elem.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_cvt.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_img_walk.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_img_pack.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_walk.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_fold_walk.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_fold_row.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_cbuf.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_csc_img.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_csc_img_wt.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_csc_wdec.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_csc.sv
    ${DLA_ENGINES_DIR}/conv/rtl/cacc_fp_add.sv
    ${DLA_ENGINES_DIR}/conv/rtl/cacc_fp_to_fp32.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_cacc.sv
    ${DLA_ENGINES_DIR}/conv/rtl/conv_core.sv)
# CONV_PARAMS_<config>, from regs/hw_configs.json (nvdla_core's add SDP's and PDP's: rtl/CMakeLists.txt).
foreach(cfg IN LISTS DLA_HW_CONFIG_NAMES)
  dla_hw_atom_log2(atom_log2 ${cfg})
  dla_hw_get(atomic_c ${cfg} atomic_c)
  dla_hw_get(cells ${cfg} mac_cells)
  dla_hw_bit(int16 ${cfg} int16)
  foreach(b CDMA CSC CMAC_A CMAC_B CACC)
    dla_hw_base(base_${b} ${cfg} ${b})
  endforeach()
  dla_hw_get(banks ${cfg} cbuf_banks)
  dla_hw_get(entries ${cfg} cbuf_entries)
  dla_hw_get(lower ${cfg} stripe_lower)
  dla_hw_get(upper ${cfg} stripe_upper)
  dla_hw_get(fly ${cfg} rtl fly_lanes)
  dla_hw_get(wino ${cfg} winograd)
  dla_hw_get(wfold ${cfg} wfold)
  set(CONV_PARAMS_${cfg} AtomLog2=${atom_log2} AtomicC=${atomic_c} NumCells=${cells} "SupportInt16=${int16}"
      CbufBanks=${banks} CbufEntries=${entries} StripeLower=${lower} StripeUpper=${upper} "CdmaBase=${base_CDMA}"
      "CscBase=${base_CSC}" "CmacABase=${base_CMAC_A}" "CmacBBase=${base_CMAC_B}" "CaccBase=${base_CACC}")
  if(NOT fly EQUAL 1)
    list(APPEND CONV_PARAMS_${cfg} FlyLanes=${fly})
  endif()
  if(wino)
    list(APPEND CONV_PARAMS_${cfg} "SupportWino=1'b1")
  endif()
  if(wfold)
    list(APPEND CONV_PARAMS_${cfg} "SupportWfold=1'b1")
  endif()
  # atoms per DMA read beat: the memory interface (dma_bits) over the atom (docs/DMA.md "The port")
  dla_hw_get(dma_bits ${cfg} dma_bits)
  dla_hw_get(atom_bytes ${cfg} atom_bytes)
  math(EXPR dma_atoms "${dma_bits} / (8 * ${atom_bytes})")
  if(dma_atoms LESS 1 OR NOT dma_atoms MATCHES "^(1|2|4|8)$")
    message(FATAL_ERROR "regs/hw_configs.json: ${cfg}: dma_bits ${dma_bits} is not 1, 2, 4 or 8 atoms of ${atom_bytes} bytes")
  endif()
  if(NOT dma_atoms EQUAL 1)
    list(APPEND CONV_PARAMS_${cfg} DmaAtoms=${dma_atoms})
  endif()
endforeach()
foreach(cfg IN LISTS DLA_HW_CONFIG_NAMES)
  # fp16 where int16 is (NVDLA v1); nvdla_core sets it so itself
  dla_hw_bit(int16 ${cfg} int16)
  dla_rtl_checks(NAME conv_core_${cfg} TOP conv_core SOURCES ${CONV_SOURCES}
                 PARAMS ${CONV_PARAMS_${cfg}} "SupportFp16=${int16}" NO_SYNTH)
endforeach()
# Synthesis: nv_small's conv pipeline with a reduced CBUF (2 banks x 64 entries; the full 128 KiB of
# flip-flop memories is beyond the WebAssembly Yosys' 4 GB), through the parameter-free wrapper
# conv_core_synth_small (Yosys 0.55 asserts when it re-derives a -chparam'd conv_core). About
# 223k cells, 6.5 min. SDP (and so nvdla_core) is not synthesized, as above.
dla_rtl_checks(NAME conv_core_nv_small_cbuf64 TOP conv_core_synth_small
               SOURCES ${CONV_SOURCES} ${DLA_ENGINES_DIR}/conv/rtl/conv_core_synth_small.sv)
# Winograd datapath (nv_full parameters, SupportWino), module by module: the whole nv_full
# conv_core is beyond the WebAssembly Yosys. CSC (tile gather, padding, PRA) about 106k cells /
# 85 s, CDMA (walk into the extended cube) 225k / 110 s, one MAC cell (group sums + POA) 209k /
# 195 s, CACC with 4-tile stripes and FIFO (4 accumulators per tile) 198k / 205 s.
set(CONV_NV_FULL_WINO AtomicC=64 "SupportInt16=1'b1" "SupportWino=1'b1")
dla_rtl_checks(NAME conv_csc_wino TOP conv_csc NO_LINT SYNTH_FULL_ONLY
               SOURCES ${FP_SOURCES} common/dla_sat.sv common/dla_sshift_sat.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_pkg.sv
                       ${DLA_ENGINES_DIR}/wino/rtl/wino_pra_tile.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_csc_img.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_csc_img_wt.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_csc_wdec.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_csc.sv
               PARAMS ${CONV_NV_FULL_WINO} NumCells=16 CbufRows=4096 StripeLower=16 StripeUpper=32)
dla_rtl_checks(NAME conv_cdma_wino TOP conv_cdma NO_LINT SYNTH_FULL_ONLY
               SOURCES ${FP_SOURCES} prim/dla_fp16_count.sv common/dla_sat.sv common/dla_sshift_sat.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_pkg.sv
                       prim/dla_fifo.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_cvt_elem.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_cvt.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_walk.sv
                       ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_fold_walk.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_fold_row.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_img_walk.sv
                       ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_img_pack.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma.sv
               PARAMS ${CONV_NV_FULL_WINO} AtomLog2=5 CbufRows=4096 GroupKernels=32
                      StripeLower=16 StripeUpper=32 DmaAtoms=2 "SupportFp16=1'b1")
# Compressed weights (docs/CDMA_MODES.md §2 "RTL"): CSC's decompressor in CI at 16-byte cells,
# int8 and int16 (3.3k cells, about 5 CPU-s); at nv_full's 128 bytes inside synth:conv_csc_wino.
dla_rtl_checks(NAME conv_csc_wdec TOP conv_csc_wdec SOURCES ${DLA_ENGINES_DIR}/conv/rtl/conv_csc_wdec.sv
               PARAMS RowBytes=16 "SupportInt16=1'b1")
# W-fold (docs/WFOLD.md): the fold walk and the row assembly at nv_full's sizes, in CI (conv_core's
# CI synthesis is nv_small's, which has no fold); conv_cdma with the fold, in the full run.
dla_rtl_checks(NAME conv_cdma_fold_walk TOP conv_cdma_fold_walk
               SOURCES ${DLA_ENGINES_DIR}/conv/rtl/conv_pkg.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_fold_walk.sv
               PARAMS AtomLog2=5 AtomicC=64 "SupportInt16=1'b1" CbufRows=4096)
dla_rtl_checks(NAME conv_cdma_fold_row TOP conv_cdma_fold_row SOURCES ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_fold_row.sv
               PARAMS AtomLog2=5 AtomicC=64 "SupportInt16=1'b1")
dla_rtl_checks(NAME conv_cdma_wfold TOP conv_cdma NO_LINT SYNTH_FULL_ONLY
               SOURCES ${FP_SOURCES} prim/dla_fp16_count.sv common/dla_sat.sv common/dla_sshift_sat.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_pkg.sv
                       prim/dla_fifo.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_cvt_elem.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_cvt.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_walk.sv
                       ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_fold_walk.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_fold_row.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_img_walk.sv
                       ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma_img_pack.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_cdma.sv
               PARAMS AtomicC=64 "SupportInt16=1'b1" "SupportWfold=1'b1" AtomLog2=5 CbufRows=4096
                      GroupKernels=32 StripeLower=16 StripeUpper=32 DmaAtoms=2)
dla_rtl_checks(NAME cmac_cell_wino TOP cmac_cell NO_LINT SYNTH_FULL_ONLY
               SOURCES prim/dla_fp_pkg.sv ${DLA_ENGINES_DIR}/wino/rtl/wino_poa_tile.sv ${DLA_ENGINES_DIR}/cmac/rtl/cmac_fp16_pkg.sv
                       ${DLA_ENGINES_DIR}/cmac/rtl/cmac_fp16_mul.sv ${DLA_ENGINES_DIR}/cmac/rtl/cmac_fp16_dot.sv
                       ${DLA_ENGINES_DIR}/cmac/rtl/cmac_cell.sv
               PARAMS ${CONV_NV_FULL_WINO})
dla_rtl_checks(NAME conv_cacc_wino_s4 TOP conv_cacc NO_LINT SYNTH_FULL_ONLY
               SOURCES common/dla_sat.sv common/dla_sshift_sat.sv common/dla_perf_cnt.sv
                       prim/dla_fifo.sv prim/dla_lzc.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_pkg.sv
                       ${DLA_ENGINES_DIR}/conv/rtl/cacc_fp_add.sv ${DLA_ENGINES_DIR}/conv/rtl/cacc_fp_to_fp32.sv ${DLA_ENGINES_DIR}/conv/rtl/conv_cacc.sv
               PARAMS ${CONV_NV_FULL_WINO} NumCells=16 MaxStripe=4 FifoDepth=4 FlyLanes=16)
# ---- end direct convolution
# CACC's fp16 accumulator (docs/FP16.md "CACC"): its add and its fp32 output side by side, as one
# test model (engines/conv/tests/rtl/test_cacc_fp_rtl.cpp) with its lint and synthesis (about 3.9k cells).
set(CACC_FP_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_lzc.sv ${DLA_ENGINES_DIR}/conv/rtl/cacc_fp_add.sv
    ${DLA_ENGINES_DIR}/conv/rtl/cacc_fp_to_fp32.sv ${DLA_ENGINES_DIR}/conv/rtl/cacc_fp_top.sv)
dla_verilate(TARGET dla_rtl PREFIX Vcacc_fp_top TOP cacc_fp_top SOURCES ${CACC_FP_SOURCES})
dla_rtl_checks(NAME cacc_fp_top TOP cacc_fp_top SOURCES ${CACC_FP_SOURCES})
