# SPDX-License-Identifier: BSL-1.0
# Runs by `cmake -P`: configures SOURCE as a newcomer's plain `cmake -S . -B build` does, on a
# machine without the tests' and benchmarks' packages (find_package of Catch2 and Google
# Benchmark disabled), in WORK. The configure must succeed and say in its one message how to get
# them; with PKSK_REQUIRE_ALL_TESTS=ON, as CI configures, it must fail instead.
set(common -S ${SOURCE} -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${COMPILER}
    -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON)
file(REMOVE_RECURSE ${WORK})
# CI=true in the environment is what PKSK_REQUIRE_ALL_TESTS=ON is; a newcomer's shell has neither.
set(ENV{CI} "")

execute_process(COMMAND ${CMAKE_COMMAND} ${common} -B ${WORK}/plain
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "a configure without the test packages failed:\n${output}")
endif()
foreach(expected IN ITEMS "the tests (PKSK_BUILD_TESTS) need Catch2"
                          "the benchmarks (PKSK_BUILD_BENCHMARKS) need Google Benchmark"
                          "scripts/install-deps.sh test installs them")
  string(FIND "${output}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the configure's message lacks \"${expected}\":\n${output}")
  endif()
endforeach()
string(REGEX MATCHALL "CMake (Warning|Error)" messages "${output}")
list(LENGTH messages count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "${count} CMake warnings or errors, not one:\n${output}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} ${common} -B ${WORK}/required -DPKSK_REQUIRE_ALL_TESTS=ON
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(result EQUAL 0)
  message(FATAL_ERROR "with PKSK_REQUIRE_ALL_TESTS=ON a configure without Catch2 succeeded:\n"
                      "${output}")
endif()
string(FIND "${output}" "the tests (PKSK_BUILD_TESTS) need Catch2" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the configure error does not name Catch2:\n${output}")
endif()
file(REMOVE_RECURSE ${WORK})
