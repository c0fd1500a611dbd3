# dla_embed_text(OUT file.cpp SYMBOL name NAMESPACE ns INPUT file): a C++ source defining
# `const char* const name` holding the input file's text, regenerated when the input changes.
function(dla_embed_text)
  cmake_parse_arguments(A "" "OUT;SYMBOL;NAMESPACE;INPUT" "" ${ARGN})
  add_custom_command(
    OUTPUT ${A_OUT}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${A_INPUT} -DOUTPUT=${A_OUT} -DSYMBOL=${A_SYMBOL}
            -DNAMESPACE=${A_NAMESPACE} -P ${PROJECT_SOURCE_DIR}/cmake/DlaEmbedScript.cmake
    DEPENDS ${A_INPUT} ${PROJECT_SOURCE_DIR}/cmake/DlaEmbedScript.cmake
    VERBATIM)
endfunction()
