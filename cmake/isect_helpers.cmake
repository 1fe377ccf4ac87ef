# Warnings for isect's own targets.
function(isect_warnings target)
  target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-Wall -Wextra -Wshadow>)
endfunction()

# isect_add_test(NAME LABELS label... COMMAND cmd args... [ENVIRONMENT var=value...])
# Registers a test with ctest under one of the labels unit, property, corpus,
# fuzz, so `ctest -L property` runs one kind.
# SECONDS: about how long the test takes on two cores; ctest -j starts the
# longest first (a fresh clone has no timing history, and a long test
# started last leaves the other core idle).
function(isect_add_test name)
  cmake_parse_arguments(T "" "SECONDS" "LABELS;COMMAND;ENVIRONMENT" ${ARGN})
  add_test(NAME ${name} COMMAND ${T_COMMAND})
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
  if(T_SECONDS)
    set_tests_properties(${name} PROPERTIES COST ${T_SECONDS})
  endif()
  if(T_ENVIRONMENT)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${T_ENVIRONMENT}")
  endif()
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/isect_plugin.cmake)
