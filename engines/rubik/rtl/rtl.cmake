# engines/rubik/rtl: the RUBIK build fragment, included by rtl/CMakeLists.txt (its sources, its
# per-configuration parameters from regs/hw_configs.json, its verilated models and its lint and
# synthesis checks). Shared RTL is ${CMAKE_CURRENT_SOURCE_DIR} (rtl/), other engines' ${DLA_ENGINES_DIR}/<engine>/rtl.
foreach(cfg IN LISTS DLA_HW_CONFIG_NAMES)
  dla_hw_get(rbk_base ${cfg} bases RBK)
  if(rbk_base)
    dla_hw_base(base_RBK ${cfg} RBK)
    dla_hw_get(slots ${cfg} rtl rubik_rd_slots)
    set(RUBIK_PARAMS_${cfg} "Engine=\"rubik\"" "Base=${base_RBK}" RdSlots=${slots})
  endif()
endforeach()
# ---- RUBIK (nv_full only, as in NVDLA): register groups, CONTRACT / SPLIT / MERGE through two
# transpose banks, CSB and DMA ports, GLB (rtl/top/nvdla_engine_top.sv, Engine "rubik"). docs/RUBIK.md "RTL".
# nvdlav1 base 0x10000; 32-byte atoms; RdSlots as BDMA's. Yosys sees a parameter-free wrapper
# (engines/rubik/rtl/rubik_core_synth.sv): in CI at nv_full's size, 32-byte atoms and 136 reads in flight as
# Vrubik_nv_full (rubik_nv_full, 137.9k cells, no latches, ~57 s of CPU, 2026-11-24). Its
# RUBIK_SYNTH_SMALL configuration (8-byte atoms, 4 reads in flight, 25.7k cells, ~17 s) is for runs
# by hand (docs/SYNTHESIS.md), not registered.
set(RUBIK_SOURCES
    ${DLA_ENGINES_DIR}/rubik/rtl/rbk_regs_pkg.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_perf_cnt.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_group_regs.sv
    ${DLA_ENGINES_DIR}/rubik/rtl/rbk_reg_top.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_fifo.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/dma/dla_dma_rd.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_pipe_ctrl.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/dma/dla_dma_wr.sv
    ${DLA_ENGINES_DIR}/rubik/rtl/rubik_walk.sv
    ${DLA_ENGINES_DIR}/rubik/rtl/rubik_core.sv)
set(RUBIK_TOP_SOURCES ${RUBIK_SOURCES} ${CMAKE_CURRENT_SOURCE_DIR}/glb/glb_regs_pkg.sv ${CMAKE_CURRENT_SOURCE_DIR}/glb/nvdla_glb.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_csb_merge.sv ${CMAKE_CURRENT_SOURCE_DIR}/top/nvdla_engine_top.sv)
dla_verilate(TARGET dla_rtl PREFIX Vrubik_nv_full TOP nvdla_engine_top SOURCES ${RUBIK_TOP_SOURCES}
             PARAMS ${RUBIK_PARAMS_nv_full} ${GLB_PARAMS_nv_full})
dla_rtl_checks(NAME rubik_top_nv_full TOP nvdla_engine_top SOURCES ${RUBIK_TOP_SOURCES}
               PARAMS ${RUBIK_PARAMS_nv_full} ${GLB_PARAMS_nv_full} NO_SYNTH)
dla_rtl_checks(NAME rubik_nv_full TOP rubik_core_synth
               SOURCES ${RUBIK_SOURCES} ${DLA_ENGINES_DIR}/rubik/rtl/rubik_core_synth.sv NO_LINT)
# ---- end RUBIK
