# engines/lut/rtl: the LUT build fragment, included by rtl/CMakeLists.txt (its sources, its
# per-configuration parameters from regs/hw_configs.json, its verilated models and its lint and
# synthesis checks). Shared RTL is ${CMAKE_CURRENT_SOURCE_DIR} (rtl/), other engines' ${DLA_ENGINES_DIR}/<engine>/rtl.
# LUT engine: SDP variant (32-bit X) and CDP variant (38-bit X), four lanes per beat; the CDP
# variant also with its float lanes (SupportFp, nv_full's fp16).
# LUT_ENGINE_SOURCES: the engine's own files (with the float primitives its float lanes use), for
# SDP's and CDP's lists too.
set(LUT_ENGINE_SOURCES
    ${FP_SOURCES}
    ${DLA_ENGINES_DIR}/sdp/rtl/sdp_regs_pkg.sv
    ${DLA_ENGINES_DIR}/cdp/rtl/cdp_regs_pkg.sv
    ${DLA_ENGINES_DIR}/lut/rtl/lut_cfg_decode.sv
    ${DLA_ENGINES_DIR}/lut/rtl/lut_ram.sv
    ${DLA_ENGINES_DIR}/lut/rtl/lut_index.sv
    ${DLA_ENGINES_DIR}/lut/rtl/lut_index_fp.sv
    ${DLA_ENGINES_DIR}/lut/rtl/lut_select.sv
    ${DLA_ENGINES_DIR}/lut/rtl/lut_flags_pipe.sv
    ${DLA_ENGINES_DIR}/lut/rtl/lut_lane.sv
    ${DLA_ENGINES_DIR}/lut/rtl/lut_lane_fp.sv
    ${DLA_ENGINES_DIR}/lut/rtl/lut_stats.sv
    ${DLA_ENGINES_DIR}/lut/rtl/lut_engine.sv)
set(LUT_SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_sat.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_sshift_sat.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/common/dla_perf_cnt.sv
    ${CMAKE_CURRENT_SOURCE_DIR}/prim/dla_pipe_ctrl.sv
    ${LUT_ENGINE_SOURCES})
set(LUT_PARAMS_sdp Variant=0 Lanes=4 "SupportFp=1'b1")
set(LUT_PARAMS_cdp Variant=1 Lanes=4 "SupportFp=1'b1")
foreach(v sdp cdp)
  dla_verilate(TARGET dla_rtl PREFIX Vlut_${v} TOP lut_engine SOURCES ${LUT_SOURCES} PARAMS ${LUT_PARAMS_${v}})
  dla_rtl_checks(NAME lut_${v} TOP lut_engine SOURCES ${LUT_SOURCES} PARAMS ${LUT_PARAMS_${v}} NO_SYNTH)
endforeach()
# Synthesis of one CDP lane (lanes are identical copies around shared tables); the SDP variant is
# synthesized inside sdp_core (synth:sdp_default).
dla_rtl_checks(NAME lut_cdp_1lane TOP lut_engine SOURCES ${LUT_SOURCES} PARAMS Variant=1 Lanes=1 NO_LINT
               SYNTH_FULL_ONLY)

