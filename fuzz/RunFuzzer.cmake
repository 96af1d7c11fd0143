# SPDX-License-Identifier: BSL-1.0
# Runs one libFuzzer target for a bounded time (ctest calls this; see CMakeLists.txt):
#   cmake -DFUZZER=<binary> -DSEEDS=<checked-in corpus> -DCORPUS=<build-tree corpus>
#         -DDEFAULT_SECONDS=<n> -P RunFuzzer.cmake
# PKSK_FUZZ_SECONDS in the environment overrides the time. New inputs go to the build-tree
# corpus (kept between runs), never into the source tree. Any crash, leak, UB report or
# violated property makes libFuzzer exit non-zero, and so the test fail; the input that did it
# is written to the build-tree corpus folder's parent as crash-*/leak-*/timeout-*.

set(seconds ${DEFAULT_SECONDS})
if(DEFINED ENV{PKSK_FUZZ_SECONDS})
  set(seconds $ENV{PKSK_FUZZ_SECONDS})
endif()
file(MAKE_DIRECTORY ${CORPUS})
get_filename_component(artifacts ${CORPUS} DIRECTORY)

execute_process(
  COMMAND ${FUZZER} -max_total_time=${seconds} -detect_leaks=1 -print_final_stats=1
          -timeout=30 -rss_limit_mb=2048 -artifact_prefix=${artifacts}/ ${CORPUS} ${SEEDS}
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (exit ${result}): see the report above")
endif()
