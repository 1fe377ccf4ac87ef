# isect_add_plugin(NAME SOURCES...)
# Builds a plugin for `isect check --plugin`: a shared module NAME.so with
# isect/plugin.h on its include path, exporting only what the header marks.
function(isect_add_plugin name)
  add_library(${name} MODULE ${ARGN})
  target_link_libraries(${name} PRIVATE isect::core)
  set_target_properties(${name} PROPERTIES PREFIX "" C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden)
endfunction()

# isect_add_plugin_check(TEST_NAME PLUGIN target
#                        [CONTRACT exact|conservative|conservative=K|tolerant=K] [ERROR E]
#                        [DOMAIN lo:hi] [REQUIRE name,name] [CONVENTION name,name] [RELATION name,name]
#                        [PRECISION float|double]
#                        [FP_ENV default|ftz|daz|ftz,daz]
#                        [SECONDS n | CASES n] [SEED n] [TIMEOUT_MS n] [JOBS n]
#                        [FAMILY f] [GEN kind] [MESH file] [CASES_DIR dir] [OUT dir])
# A ctest test that runs `isect check --plugin` on a plugin target: it
# passes while the contract holds, fails when it is broken (or on a usage
# error, such as a DOMAIN that holds no float), and leaves the
# counterexamples in OUT (RELATION adds claims about several calls the
# plugin is held to besides its contract: symmetric, monotone, watertight): by default isect-findings/TEST_NAME beside the
# calling CMakeLists.txt, in the source tree, so that a fresh CI build
# replays them first (commit the folder, or keep it in the CI cache). A gate
# is deterministic: SEED defaults to 1. It runs JOBS workers (default 2) and
# tells ctest so (the test's PROCESSORS), so `ctest -j N` does not
# oversubscribe the machine.
# MESH is a mesh of your own (OBJ, PLY, STL; relative to the calling
# CMakeLists.txt) that cases are drawn from too: with RELATION watertight,
# its shared edges and closed fans are where a leak is looked for.
# CASES_DIR is a folder of your own case files, judged first: one that
# breaks the contract fails the test. Every keyword is one `isect check`
# takes (`isect check --help`); a keyword this function does not know is an
# error at configure time, never a silently different gate. It enables
# testing in the calling folder itself, so the test is found by ctest even
# where the project forgot enable_testing() (a macro: enable_testing() only
# counts in the folder's own scope).
macro(isect_add_plugin_check)
  enable_testing()
  _isect_add_plugin_check(${ARGN})
endmacro()

function(_isect_add_plugin_check name)
  set(one PLUGIN CONTRACT ERROR DOMAIN REQUIRE CONVENTION RELATION PRECISION FP_ENV SECONDS CASES SEED TIMEOUT_MS JOBS FAMILY GEN MESH CASES_DIR OUT)
  cmake_parse_arguments(P "" "${one}" "" ${ARGN})
  if(P_UNPARSED_ARGUMENTS)
    list(JOIN P_UNPARSED_ARGUMENTS " " bad)
    list(JOIN one ", " known)
    message(FATAL_ERROR "isect_add_plugin_check(${name}): unknown argument(s) '${bad}'; it takes ${known}")
  endif()
  if(P_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "isect_add_plugin_check(${name}): ${P_KEYWORDS_MISSING_VALUES} without a value")
  endif()
  if(NOT P_PLUGIN)
    message(FATAL_ERROR "isect_add_plugin_check(${name}): PLUGIN names the plugin target to check")
  endif()
  if(NOT TARGET ${P_PLUGIN})
    message(FATAL_ERROR "isect_add_plugin_check(${name}): PLUGIN ${P_PLUGIN} is not a target (isect_add_plugin makes one)")
  endif()
  if(P_SECONDS AND P_CASES)
    message(FATAL_ERROR "isect_add_plugin_check(${name}): SECONDS or CASES, not both")
  endif()
  if(NOT P_CONTRACT)
    set(P_CONTRACT tolerant=1)
  endif()
  if(NOT P_SECONDS AND NOT P_CASES)
    set(P_SECONDS 10)
  endif()
  if(P_CASES_DIR)
    get_filename_component(P_CASES_DIR "${P_CASES_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  if(P_MESH)
    get_filename_component(P_MESH "${P_MESH}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  if(NOT P_OUT)
    set(P_OUT ${CMAKE_CURRENT_SOURCE_DIR}/isect-findings/${name})
  endif()
  if(NOT DEFINED P_SEED)
    set(P_SEED 1)
  endif()
  if(NOT DEFINED P_JOBS)
    set(P_JOBS 2)
  endif()
  set(args check --plugin $<TARGET_FILE:${P_PLUGIN}> --contract ${P_CONTRACT} --out ${P_OUT} --quiet)
  foreach(pair SECONDS:--seconds CASES:--cases FAMILY:--family SEED:--seed DOMAIN:--domain REQUIRE:--require
               CONVENTION:--convention RELATION:--relation ERROR:--error
               PRECISION:--precision FP_ENV:--fp-env TIMEOUT_MS:--timeout-ms JOBS:--jobs GEN:--gen MESH:--mesh CASES_DIR:--replay)
    string(REPLACE ":" ";" kv ${pair})
    list(GET kv 0 key)
    list(GET kv 1 flag)
    if(DEFINED P_${key})
      list(APPEND args ${flag} ${P_${key}})
    endif()
  endforeach()
  add_test(NAME ${name} COMMAND ${ISECT_EXECUTABLE} ${args})
  set_tests_properties(${name} PROPERTIES PROCESSORS ${P_JOBS})
endfunction()
