# Warnings for isect's own targets.
function(isect_warnings target)
  target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-Wall -Wextra -Wshadow>)
endfunction()

# isect_add_test(NAME LABELS label... COMMAND cmd args... [ENVIRONMENT var=value...])
# Registers a test with ctest under one of the labels unit, property, corpus,
# fuzz, so `ctest -L property` runs one kind.
function(isect_add_test name)
  cmake_parse_arguments(T "" "" "LABELS;COMMAND;ENVIRONMENT" ${ARGN})
  add_test(NAME ${name} COMMAND ${T_COMMAND})
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
  if(T_ENVIRONMENT)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${T_ENVIRONMENT}")
  endif()
endfunction()

# isect_add_plugin(NAME SOURCES...)
# Builds a plugin for `isect check --plugin`: a shared module NAME.so with
# isect/plugin.h on its include path, exporting only what the header marks.
function(isect_add_plugin name)
  add_library(${name} MODULE ${ARGN})
  target_link_libraries(${name} PRIVATE isect::core)
  set_target_properties(${name} PROPERTIES PREFIX "" C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden)
endfunction()
