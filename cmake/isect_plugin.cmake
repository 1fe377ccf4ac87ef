# isect_add_plugin(NAME SOURCES...)
# Builds a plugin for `isect check --plugin`: a shared module NAME.so with
# isect/plugin.h on its include path, exporting only what the header marks.
function(isect_add_plugin name)
  add_library(${name} MODULE ${ARGN})
  target_link_libraries(${name} PRIVATE isect::core)
  set_target_properties(${name} PROPERTIES PREFIX "" C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden)
endfunction()

# isect_add_plugin_check(TEST_NAME PLUGIN target [CONTRACT c] [FAMILY f]
#                        [SECONDS n] [SEED n] [OUT dir] [DOMAIN lo:hi])
# A ctest test that runs `isect check --plugin` on a plugin target: it
# passes while the contract holds, fails when it is broken, and leaves the
# counterexamples in OUT (default: TEST_NAME-findings in the build tree).
# DOMAIN declares the magnitudes the kernel is meant for (2^-20:2^20, say).
function(isect_add_plugin_check name)
  cmake_parse_arguments(P "" "PLUGIN;CONTRACT;FAMILY;SECONDS;SEED;OUT;DOMAIN" "" ${ARGN})
  if(NOT P_CONTRACT)
    set(P_CONTRACT tolerant=1)
  endif()
  if(NOT P_SECONDS)
    set(P_SECONDS 10)
  endif()
  if(NOT P_OUT)
    set(P_OUT ${CMAKE_CURRENT_BINARY_DIR}/${name}-findings)
  endif()
  set(args check --plugin $<TARGET_FILE:${P_PLUGIN}> --contract ${P_CONTRACT} --seconds ${P_SECONDS} --out ${P_OUT}
      --quiet)
  if(P_FAMILY)
    list(APPEND args --family ${P_FAMILY})
  endif()
  if(P_SEED)
    list(APPEND args --seed ${P_SEED})
  endif()
  if(P_DOMAIN)
    list(APPEND args --domain ${P_DOMAIN})
  endif()
  add_test(NAME ${name} COMMAND ${ISECT_EXECUTABLE} ${args})
endfunction()
