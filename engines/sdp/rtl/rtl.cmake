# engines/sdp/rtl: the SDP build fragment, included by rtl/CMakeLists.txt (its sources, its
# per-configuration parameters from regs/hw_configs.json, its verilated models and its lint and
# synthesis checks). Shared RTL is ${CMAKE_CURRENT_SOURCE_DIR} (rtl/), other engines' ${DLA_ENGINES_DIR}/<engine>/rtl.
foreach(cfg IN LISTS DLA_HW_CONFIG_NAMES)
  dla_hw_atom_log2(atom_log2 ${cfg})
  dla_hw_base(base_SDP ${cfg} SDP)
  dla_hw_base(base_SDP_RDMA ${cfg} SDP_RDMA)
  dla_hw_get(lanes ${cfg} sdp_lanes)
  dla_hw_get(sdp_slots ${cfg} rtl sdp_rd_slots)
  set(SDP_PARAMS_${cfg} AtomLog2=${atom_log2} "SdpBase=${base_SDP}" "RdmaBase=${base_SDP_RDMA}")
  if(NOT lanes EQUAL 1)
    list(APPEND SDP_PARAMS_${cfg} Lanes=${lanes})
  endif()
  dla_hw_bit(int16 ${cfg} int16)  # NVDLA v1 (nv_full) has int16 and fp16 together
  list(APPEND SDP_PARAMS_${cfg} RdSlots=${sdp_slots} "SupportFp16=${int16}")
endforeach()
# ---- SDP (with SDP_RDMA and its LUT engine): register level, CSB and DMA ports.
set(SDP_SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_fp_pkg.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_sat.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_sshift_sat.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_hls_sat_flag.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_perf_cnt.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_pipe_ctrl.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_fifo.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_rr_arb.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_dma_rd_mux.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/dma/dla_dma_rd.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/dma/dla_dma_wr.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_regs_pkg.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_rdma_regs_pkg.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_cube_addr.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_group_regs.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_reg_top.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_rdma_reg_top.sv
    ${LUT_ENGINE_SOURCES}
    ${DLA_ENGINES_DIR}/lut/rtl/lut_s_regs.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_pkg.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_fp_operand.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_x_fp.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_y_fp.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_c_fp.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_rshift_sat.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_cvt.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_x.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_y.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_c.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_regs.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_seq.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_rdma.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_dp.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_wdma.sv
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_core.sv)
list(REMOVE_DUPLICATES SDP_SOURCES)  # the float package first, once
# Block bases: NVDLA master map (nv_small) and nvdlav1 map (nv_full); regs/ and nvdla-block-bases.md.
# RdSlots: reads in flight per SDP_RDMA stream, 264 = the rate at 256 cycles of latency for a
# stream that takes the whole port (docs/DMA.md "Sizing"); sdp_core's default (8) is what Yosys sees.
# SDP_PARAMS_<config> (regs/hw_configs.json; built at the top of this fragment).
foreach(cfg IN LISTS DLA_HW_CONFIG_NAMES)
  dla_first_of(first sdp_lint "${SDP_PARAMS_${cfg}}")
  if(first)
    dla_rtl_checks(NAME sdp_${cfg} TOP sdp_core SOURCES ${SDP_SOURCES} PARAMS ${SDP_PARAMS_${cfg}} NO_SYNTH)
  endif()
endforeach()
# Synthesis at the module defaults, which are nv_small's: Yosys 0.55 asserts when -chparam
# re-elaborates sdp_core (docs/SYNTHESIS.md). It includes the SDP variant of the LUT engine.
dla_rtl_checks(NAME sdp_default TOP sdp_core SOURCES ${SDP_SOURCES} NO_LINT)
# fp16 processing (nv_full's SDP: 32-byte atom, 16 lanes, SupportFp16) through a parameter-free
# wrapper: the float stages, the LUT's float lanes and the output conversion (docs/SYNTHESIS.md).
dla_rtl_checks(NAME sdp_fp16 TOP sdp_core_synth NO_LINT
               SOURCES ${SDP_SOURCES} ${DLA_ENGINES_DIR}/sdp/rtl/sdp_core_synth.sv)


# ---- one generated register block on its own (tests/rtl/test_reg_top_rtl.cpp): SDP's, whose
# hardware-written words include a partly written one (D_STATUS), against a C++ model of the groups.
dla_verilate(TARGET dla_rtl PREFIX Vregs_sdp TOP sdp_reg_top
             SOURCES ${DLA_ENGINES_DIR}/sdp/rtl/sdp_regs_pkg.sv ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_group_regs.sv
                     ${DLA_ENGINES_DIR}/sdp/rtl/sdp_reg_top.sv)
