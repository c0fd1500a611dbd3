# engines/wino/rtl: the WINO build fragment, included by rtl/CMakeLists.txt (its sources, its
# per-configuration parameters from regs/hw_configs.json, its verilated models and its lint and
# synthesis checks). Shared RTL is ${CMAKE_CURRENT_SOURCE_DIR} (rtl/), other engines' ${DLA_ENGINES_DIR}/<engine>/rtl.
# ---- Winograd F(2x2,3x3): PRA (CSC input transform) and POA (CMAC output transform), nv_full
# only (every nv_small-family spec has WINOGRAD_DISABLE). docs/WINOGRAD.md.
set(WINO_PRA_SOURCES
    ${FP_SOURCES}
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_sat.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_sshift_sat.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_perf_cnt.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_pipe_ctrl.sv
    ${DLA_ENGINES_DIR}/wino/rtl/wino_pra_tile.sv
    ${DLA_ENGINES_DIR}/wino/rtl/wino_pra.sv)
set(WINO_POA_SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_pipe_ctrl.sv
    ${DLA_ENGINES_DIR}/wino/rtl/wino_poa_tile.sv
    ${DLA_ENGINES_DIR}/wino/rtl/wino_poa.sv)
set(WINO_PRA_PARAMS AtomicC=64 "SupportInt16=1'b1" "SupportFp16=1'b1")
set(WINO_POA_PARAMS NumCells=16 "SupportInt16=1'b1")
dla_verilate(TARGET dla_rtl PREFIX Vwino_pra TOP wino_pra SOURCES ${WINO_PRA_SOURCES} PARAMS ${WINO_PRA_PARAMS})
dla_verilate(TARGET dla_rtl PREFIX Vwino_poa TOP wino_poa SOURCES ${WINO_POA_SOURCES} PARAMS ${WINO_POA_PARAMS})
dla_rtl_checks(NAME wino_pra_nv_full TOP wino_pra SOURCES ${WINO_PRA_SOURCES} PARAMS ${WINO_PRA_PARAMS})
dla_rtl_checks(NAME wino_poa_nv_full TOP wino_poa SOURCES ${WINO_POA_SOURCES} PARAMS ${WINO_POA_PARAMS})
# int8-only variants (the SupportInt16=0 generate branches) are linted too.
dla_rtl_checks(NAME wino_pra_int8_only TOP wino_pra SOURCES ${WINO_PRA_SOURCES}
               PARAMS AtomicC=64 "SupportInt16=1'b0" NO_SYNTH)
dla_rtl_checks(NAME wino_poa_int8_only TOP wino_poa SOURCES ${WINO_POA_SOURCES}
               PARAMS NumCells=16 "SupportInt16=1'b0" NO_SYNTH)
# ---- end Winograd
