# engines/linebuf/rtl: the LINEBUF build fragment, included by rtl/CMakeLists.txt (its sources, its
# per-configuration parameters from regs/hw_configs.json, its verilated models and its lint and
# synthesis checks). Shared RTL is ${CMAKE_CURRENT_SOURCE_DIR} (rtl/), other engines' ${DLA_ENGINES_DIR}/<engine>/rtl.
# ---- Line-buffer 3x3 engine of seed 003 (docs/LINEBUF.md): not NVDLA, its own descriptor and
# streams. One verilated model (NumPe 4, LineDepth 64, MaxC 64, MaxK 64, int8 and int16, 16 line slots,
# a 2 x 4096-value on-chip map store); lint at its parameters; lint and synthesis of a small int8 one
# (linebuf_core_synth.sv: NumPe 2, LineDepth 8, MaxC 2, MaxK 2, MapWords 32).
set(LINEBUF_SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_sat.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_sshift_sat.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_fifo.sv
    ${DLA_ENGINES_DIR}/linebuf/rtl/linebuf_pkg.sv
    ${DLA_ENGINES_DIR}/linebuf/rtl/linebuf_lines.sv
    ${DLA_ENGINES_DIR}/linebuf/rtl/linebuf_pe.sv
    ${DLA_ENGINES_DIR}/linebuf/rtl/linebuf_wbank.sv
    ${DLA_ENGINES_DIR}/linebuf/rtl/linebuf_out.sv
    ${DLA_ENGINES_DIR}/linebuf/rtl/linebuf_pool.sv
    ${DLA_ENGINES_DIR}/linebuf/rtl/linebuf_map.sv
    ${DLA_ENGINES_DIR}/linebuf/rtl/linebuf_core.sv)
set(LINEBUF_PARAMS NumPe=4 LineDepth=64 MaxC=64 MaxK=64 DataW=16 MapRows=16 MapWords=4096)
dla_verilate(TARGET dla_rtl PREFIX Vlinebuf TOP linebuf_core SOURCES ${LINEBUF_SOURCES} PARAMS ${LINEBUF_PARAMS})
dla_rtl_checks(NAME linebuf TOP linebuf_core SOURCES ${LINEBUF_SOURCES} PARAMS ${LINEBUF_PARAMS} NO_SYNTH)
dla_rtl_checks(NAME linebuf_small TOP linebuf_core_synth
               SOURCES ${LINEBUF_SOURCES} ${DLA_ENGINES_DIR}/linebuf/rtl/linebuf_core_synth.sv)
# ---- end line buffer
