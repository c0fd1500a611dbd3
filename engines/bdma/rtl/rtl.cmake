# engines/bdma/rtl: the BDMA build fragment, included by rtl/CMakeLists.txt (its sources, its
# per-configuration parameters from regs/hw_configs.json, its verilated models and its lint and
# synthesis checks). Shared RTL is ${CMAKE_CURRENT_SOURCE_DIR} (rtl/), other engines' ${DLA_ENGINES_DIR}/<engine>/rtl.
foreach(cfg IN LISTS DLA_HW_CONFIG_NAMES)
  dla_hw_get(bdma_base ${cfg} bases BDMA)
  if(bdma_base)
    dla_hw_base(base_BDMA ${cfg} BDMA)
    dla_hw_get(depth ${cfg} rtl bdma_fifo_depth)
    dla_hw_get(slots ${cfg} rtl bdma_rd_slots)
    set(BDMA_PARAMS_${cfg} "Engine=\"bdma\"" "Base=${base_BDMA}" FifoDepth=${depth} RdSlots=${slots})
  endif()
endforeach()
# ---- BDMA (nv_full only, as in NVDLA): register level, command FIFO, launch groups, copy engine,
# CSB and DMA ports, GLB (rtl/top/nvdla_engine_top.sv, Engine "bdma"). docs/BDMA.md. nvdlav1 base 0x4000; 32-byte
# atoms (nv_full's DMA width convention, as CDP and PDP); RdSlots as CDP's nv_full int8 rate
# (docs/DMA.md "Sizing"). Yosys sees a parameter-free wrapper (engines/bdma/rtl/bdma_core_synth.sv): in CI
# at nv_full's size, 20 command slots and 136 reads in flight as Vbdma_nv_full (bdma_nv_full, 85.7k
# cells, ~13 s of CPU, 2026-11-24). Its BDMA_SYNTH_SMALL configuration (4 slots, 4 reads in
# flight, 9.4k cells, ~6 s) is for runs by hand (docs/SYNTHESIS.md), not registered.
set(BDMA_SOURCES
    ${DLA_ENGINES_DIR}/bdma/rtl/bdma_regs_pkg.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_single_regs.sv
    ${DLA_ENGINES_DIR}/bdma/rtl/bdma_reg_top.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_perf_cnt.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_fifo.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/dma/dla_dma_rd.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_pipe_ctrl.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/dma/dla_dma_wr.sv
    ${DLA_ENGINES_DIR}/bdma/rtl/bdma_core.sv)
set(BDMA_TOP_SOURCES ${BDMA_SOURCES}
    ${CMAKE_CURRENT_SOURCE_DIR}/glb/glb_regs_pkg.sv ${CMAKE_CURRENT_SOURCE_DIR}/glb/nvdla_glb.sv ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_csb_merge.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/top/nvdla_engine_top.sv)
dla_verilate(TARGET dla_rtl PREFIX Vbdma_nv_full TOP nvdla_engine_top SOURCES ${BDMA_TOP_SOURCES}
             PARAMS ${BDMA_PARAMS_nv_full} ${GLB_PARAMS_nv_full})
dla_rtl_checks(NAME bdma_top_nv_full TOP nvdla_engine_top SOURCES ${BDMA_TOP_SOURCES}
               PARAMS ${BDMA_PARAMS_nv_full} ${GLB_PARAMS_nv_full} NO_SYNTH)
dla_rtl_checks(NAME bdma_nv_full TOP bdma_core_synth
               SOURCES ${BDMA_SOURCES} ${DLA_ENGINES_DIR}/bdma/rtl/bdma_core_synth.sv NO_LINT)
# ---- end BDMA
