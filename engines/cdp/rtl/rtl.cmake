# engines/cdp/rtl: the CDP build fragment, included by rtl/CMakeLists.txt (its sources, its
# per-configuration parameters from regs/hw_configs.json, its verilated models and its lint and
# synthesis checks). Shared RTL is ${CMAKE_CURRENT_SOURCE_DIR} (rtl/), other engines' ${DLA_ENGINES_DIR}/<engine>/rtl.
foreach(cfg IN LISTS DLA_HW_CONFIG_NAMES)
  dla_hw_atom_log2(atom_log2 ${cfg})
  dla_hw_base(base_CDP ${cfg} CDP)
  dla_hw_base(base_CDP_RDMA ${cfg} CDP_RDMA)
  dla_hw_get(cdp_t ${cfg} cdp_throughput)
  dla_hw_get(cdp_slots ${cfg} rtl cdp_rd_slots)
  dla_hw_bit(int16 ${cfg} int16)  # NVDLA v1 (nv_full) has int16 and fp16 together
  set(CDP_PARAMS_${cfg} "Engine=\"cdp\"" AtomLog2=${atom_log2} "Base=${base_CDP}" "RdmaBase=${base_CDP_RDMA}"
      Throughput=${cdp_t} RdSlots=${cdp_slots} "SupportFp16=${int16}")
endforeach()
# ---- CDP (with CDP_RDMA and the CDP variant of the LUT engine): register level, CSB and DMA
# ports, GLB (rtl/top/nvdla_engine_top.sv, Engine "cdp"). docs/CDP_RTL.md. Bases: master map (nv_small, nv_large),
# nvdlav1 map (nv_full); CDP_THROUGHPUT 1 element per cycle on nv_small, 8 on nv_large and nv_full.
# RdSlots: reads in flight for NVDLA's rate at 256 cycles of latency (docs/DMA.md "Sizing": 1/8,
# 1/4 and 1/2 atom per cycle); cdp_core's default (8) is what Yosys sees. nv_large and nv_full
# differ in their block and GLB bases (and RdSlots for nv_full's int16); nv_small_256 shares nv_small's.
set(CDP_SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_fp_pkg.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_fp16_count.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_sat.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_sshift_sat.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_hls_sat_flag.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_perf_cnt.sv
    ${DLA_ENGINES_DIR}/cdp/rtl/cdp_regs_pkg.sv
    ${DLA_ENGINES_DIR}/cdp/rtl/cdp_rdma_regs_pkg.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_group_regs.sv
    ${DLA_ENGINES_DIR}/cdp/rtl/cdp_reg_top.sv
    ${DLA_ENGINES_DIR}/cdp/rtl/cdp_rdma_reg_top.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_fifo.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_pipe_ctrl.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/dma/dla_dma_rd.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/dma/dla_dma_wr.sv
    ${LUT_ENGINE_SOURCES}
    ${DLA_ENGINES_DIR}/lut/rtl/lut_s_regs.sv
    ${DLA_ENGINES_DIR}/cdp/rtl/cdp_walk.sv
    ${DLA_ENGINES_DIR}/cdp/rtl/cdp_icvt.sv
    ${DLA_ENGINES_DIR}/cdp/rtl/cdp_ocvt.sv
    ${DLA_ENGINES_DIR}/cdp/rtl/cdp_core.sv)
list(REMOVE_DUPLICATES CDP_SOURCES)  # the float package first, once
# CDP_PARAMS_<config>: regs/hw_configs.json, at the top of this fragment.
set(CDP_TOP_SOURCES ${CDP_SOURCES} ${CMAKE_CURRENT_SOURCE_DIR}/glb/glb_regs_pkg.sv ${CMAKE_CURRENT_SOURCE_DIR}/glb/nvdla_glb.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_csb_merge.sv ${CMAKE_CURRENT_SOURCE_DIR}/top/nvdla_engine_top.sv)
foreach(cfg IN LISTS DLA_HW_CONFIG_NAMES)
  dla_model(FAMILY cdp CONFIG ${cfg} CHECK cdp_top TOP nvdla_engine_top SOURCES ${CDP_TOP_SOURCES}
            PARAMS ${CDP_PARAMS_${cfg}} ${GLB_PARAMS_${cfg}})
endforeach()
# Synthesis of cdp_core, both in CI: at the module defaults, which are nv_small's (8-byte atom, 1
# element per cycle, 8 reads in flight; -chparam re-derivation asserts in Yosys 0.55,
# docs/SYNTHESIS.md), and CDP_THROUGHPUT 8 on 32-byte atoms (cdp_core_synth with CDP_SYNTH_T8,
# nv_large / nv_full, 8 reads in flight; the converters are modules, cdp_icvt and cdp_ocvt, and the
# LUT lanes lut_lane, each synthesized once).
# As for PDP (session 12): CI synthesizes CDP_THROUGHPUT 8 (cdp_t8, every module of the default one
# in its hierarchy) and elaborates the default; scripts/synth-all.sh synthesizes both.
dla_rtl_checks(NAME cdp_default TOP cdp_core SOURCES ${CDP_SOURCES} NO_LINT SYNTH_FULL_ONLY)
dla_rtl_checks(NAME cdp_t8 TOP cdp_core_synth NO_LINT DEFINES CDP_SYNTH_T8
               SOURCES ${CDP_SOURCES} ${DLA_ENGINES_DIR}/cdp/rtl/cdp_core_synth.sv)
# ---- end CDP
