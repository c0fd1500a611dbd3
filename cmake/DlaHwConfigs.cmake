# The configurations' one description, regs/hw_configs.json, read at configure time (rtl/ builds
# every model's -G parameters from it; tools/hw_configs.cmake generates golden's HwConfig values).
#   dla_hw_get(OUT CFG KEY...)  the value at configs[CFG].KEY... (booleans as ON/OFF); empty if absent
#   dla_hw_base(OUT CFG BLOCK)  the block's CSB base as a SystemVerilog literal, 32'h5000
#   dla_hw_bit(OUT CFG KEY)     a boolean as 1'b0 / 1'b1
#   DLA_HW_CONFIG_NAMES         every configuration, in the file's order
set(DLA_HW_CONFIGS_FILE ${CMAKE_CURRENT_LIST_DIR}/../regs/hw_configs.json)
file(READ ${DLA_HW_CONFIGS_FILE} DLA_HW_CONFIGS_JSON)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${DLA_HW_CONFIGS_FILE})
string(JSON _dla_hw_n LENGTH "${DLA_HW_CONFIGS_JSON}" configs)
set(DLA_HW_CONFIG_NAMES "")
math(EXPR _dla_hw_last "${_dla_hw_n} - 1")
foreach(_i RANGE ${_dla_hw_last})
  string(JSON _name GET "${DLA_HW_CONFIGS_JSON}" configs ${_i} name)
  list(APPEND DLA_HW_CONFIG_NAMES ${_name})
  set(DLA_HW_CONFIG_INDEX_${_name} ${_i})
endforeach()

function(dla_hw_get out cfg)
  if(NOT DEFINED DLA_HW_CONFIG_INDEX_${cfg})
    message(FATAL_ERROR "regs/hw_configs.json has no configuration ${cfg}")
  endif()
  string(JSON v ERROR_VARIABLE err GET "${DLA_HW_CONFIGS_JSON}" configs ${DLA_HW_CONFIG_INDEX_${cfg}} ${ARGN})
  if(err)
    set(v "")
  endif()
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

function(dla_hw_base out cfg block)
  dla_hw_get(v ${cfg} bases ${block})
  if(NOT v MATCHES "^0x([0-9a-f]+)$")
    message(FATAL_ERROR "regs/hw_configs.json: ${cfg} has no base for ${block} (want \"0x...\", got \"${v}\")")
  endif()
  set(${out} "32'h${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

function(dla_hw_bit out cfg key)
  dla_hw_get(v ${cfg} ${key})
  if(v)
    set(${out} "1'b1" PARENT_SCOPE)
  else()
    set(${out} "1'b0" PARENT_SCOPE)
  endif()
endfunction()
