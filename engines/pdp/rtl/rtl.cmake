# engines/pdp/rtl: the PDP build fragment, included by rtl/CMakeLists.txt (its sources, its
# per-configuration parameters from regs/hw_configs.json, its verilated models and its lint and
# synthesis checks). Shared RTL is ${CMAKE_CURRENT_SOURCE_DIR} (rtl/), other engines' ${DLA_ENGINES_DIR}/<engine>/rtl.
# ---- PDP (with PDP_RDMA): register level, CSB and DMA ports (engines/pdp/rtl/pdp_core.sv, docs/PDP_RTL.md).
# It runs in nvdla_core (PDP alone, SDP -> PDP, conv -> SDP -> PDP), whose models and lint cover
# it. Bases: master map (nv_small, nv_large), nvdlav1 map (nv_full);
# PDP_THROUGHPUT 1 element per cycle on nv_small, 8 on nv_large and nv_full; fp16 on nv_full.
set(PDP_SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_sat.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_sshift_sat.sv
    ${DLA_ENGINES_DIR}/pdp/rtl/pdp_regs_pkg.sv
    ${DLA_ENGINES_DIR}/pdp/rtl/pdp_rdma_regs_pkg.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_fp_pkg.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_fp16_count.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_group_regs.sv
    ${DLA_ENGINES_DIR}/pdp/rtl/pdp_reg_top.sv
    ${DLA_ENGINES_DIR}/pdp/rtl/pdp_rdma_reg_top.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_fifo.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_pipe_ctrl.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/dma/dla_dma_rd.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/dma/dla_dma_wr.sv
    ${FP_SOURCES}
    ${DLA_ENGINES_DIR}/pdp/rtl/pdp_lane.sv
    ${DLA_ENGINES_DIR}/pdp/rtl/pdp_lane_fp.sv
    ${DLA_ENGINES_DIR}/pdp/rtl/pdp_rdma.sv
    ${DLA_ENGINES_DIR}/pdp/rtl/pdp_pool.sv
    ${DLA_ENGINES_DIR}/pdp/rtl/pdp_wdma.sv
    ${DLA_ENGINES_DIR}/pdp/rtl/pdp_core.sv)
list(REMOVE_DUPLICATES PDP_SOURCES)  # the float package first, once
# Synthesis of pdp_core with a 4-column line buffer (engines/pdp/rtl/pdp_core_synth.sv: the full one is
# 8 x 512 x 8 32-bit flip-flops on nv_small), both in CI: nv_small (PDP_THROUGHPUT 1), and
# PDP_THROUGHPUT 8 on 32-byte atoms with fp16 (nv_full; the 8 lanes are one module each, pdp_lane
# and pdp_lane_fp, which Yosys synthesizes once; docs/SYNTHESIS.md).
# Since 2026-11-24 (session 12, CI budget) CI synthesizes PDP_THROUGHPUT 8 only, whose hierarchy
# holds every module of the nv_small one; nv_small is elaborated in CI and synthesized by
# scripts/synth-all.sh.
dla_rtl_checks(NAME pdp_small_lb4 TOP pdp_core_synth NO_LINT SYNTH_FULL_ONLY
               SOURCES ${PDP_SOURCES} ${DLA_ENGINES_DIR}/pdp/rtl/pdp_core_synth.sv)
dla_rtl_checks(NAME pdp_t8 TOP pdp_core_synth NO_LINT DEFINES PDP_SYNTH_T8
               SOURCES ${PDP_SOURCES} ${DLA_ENGINES_DIR}/pdp/rtl/pdp_core_synth.sv)

# SDP and PDP, alone or together, run on nvdla_core (the convolution pipeline idle): one model per
# configuration for conv, SDP and PDP (2026-11-24; a separate SDP + PDP top compiled SDP and PDP a
# second time per configuration).
# ---- end PDP
