# engines/cmac/rtl: the CMAC build fragment, included by rtl/CMakeLists.txt (its sources, its
# per-configuration parameters from regs/hw_configs.json, its verilated models and its lint and
# synthesis checks). Shared RTL is ${CMAKE_CURRENT_SOURCE_DIR} (rtl/), other engines' ${DLA_ENGINES_DIR}/<engine>/rtl.
set(CMAC_SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_fp_pkg.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_pipe_ctrl.sv
    ${DLA_ENGINES_DIR}/wino/rtl/wino_poa_tile.sv
    ${DLA_ENGINES_DIR}/cmac/rtl/cmac_fp16_pkg.sv
    ${DLA_ENGINES_DIR}/cmac/rtl/cmac_fp16_mul.sv
    ${DLA_ENGINES_DIR}/cmac/rtl/cmac_fp16_dot.sv
    ${DLA_ENGINES_DIR}/cmac/rtl/cmac_cell.sv
    ${DLA_ENGINES_DIR}/cmac/rtl/cmac_array.sv)
foreach(cfg IN LISTS DLA_HW_CONFIG_NAMES)
  dla_hw_get(atomic_c ${cfg} atomic_c)
  dla_hw_get(cells ${cfg} mac_cells)
  dla_hw_bit(int16 ${cfg} int16)
  dla_hw_bit(wino ${cfg} winograd)
  # fp16 where int16 is (NVDLA v1: nv_full); the RTL tests compare the Winograd port too.
  set(CMAC_PARAMS_${cfg} AtomicC=${atomic_c} NumCells=${cells} "SupportInt16=${int16}" "SupportWino=${wino}"
      "SupportFp16=${int16}")
endforeach()
foreach(cfg IN LISTS DLA_HW_CONFIG_NAMES)
  dla_model(FAMILY cmac CONFIG ${cfg} TOP cmac_array SOURCES ${CMAC_SOURCES} PARAMS ${CMAC_PARAMS_${cfg}})
endforeach()

# Lint every configuration. Synthesis (Yosys in WebAssembly, 4 GB ceiling) runs on nv_small
# and on a reduced int16-capable array: nv_full's 1024 int16 MACs are the same RTL with larger
# parameters but need more memory than the WebAssembly build can address (docs/SYNTHESIS.md).
dla_rtl_checks(NAME cmac_nv_small TOP cmac_array SOURCES ${CMAC_SOURCES} PARAMS ${CMAC_PARAMS_nv_small})
dla_rtl_checks(NAME cmac_nv_full TOP cmac_array SOURCES ${CMAC_SOURCES} PARAMS ${CMAC_PARAMS_nv_full} NO_SYNTH)
dla_rtl_checks(NAME cmac_int16_c8k4 TOP cmac_array SOURCES ${CMAC_SOURCES}
               PARAMS AtomicC=8 NumCells=4 "SupportInt16=1'b1" NO_LINT SYNTH_FULL_ONLY)

# fp16 (docs/FP16.md "CMAC"): one lane's Booth product in CI; the whole 64-lane fp16 cell (about
# 369k cells, 263 s) in the full synthesis run.
dla_rtl_checks(NAME cmac_fp16_mul TOP cmac_fp16_mul
               SOURCES ${DLA_ENGINES_DIR}/cmac/rtl/cmac_fp16_pkg.sv ${DLA_ENGINES_DIR}/cmac/rtl/cmac_fp16_mul.sv)
dla_rtl_checks(NAME cmac_cell_fp16 TOP cmac_cell NO_LINT SYNTH_FULL_ONLY
               SOURCES ${CMAC_SOURCES} PARAMS AtomicC=64 "SupportInt16=1'b1" "SupportWino=1'b1" "SupportFp16=1'b1")
