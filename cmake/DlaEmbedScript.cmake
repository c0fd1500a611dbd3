file(READ ${INPUT} content)
file(WRITE ${OUTPUT} "// Generated from ${INPUT}; do not edit.\nnamespace ${NAMESPACE} {\nextern const char* const ${SYMBOL};\nconst char* const ${SYMBOL} = R\"dlaembed(${content})dlaembed\";\n}\n")
