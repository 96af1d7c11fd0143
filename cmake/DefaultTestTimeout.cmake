# SPDX-License-Identifier: BSL-1.0
# pksk_default_test_timeout(seconds): gives every test of the current directory that has no
# TIMEOUT this one, so that a hung test fails instead of holding a run for ctest's default.
# Called at the end of a directory's CMakeLists.txt (set_tests_properties reaches only the
# tests of its own directory).
function(pksk_default_test_timeout seconds)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test IN LISTS tests)
    get_test_property(${test} TIMEOUT timeout)
    if(NOT timeout)
      set_tests_properties(${test} PROPERTIES TIMEOUT ${seconds})
    endif()
  endforeach()
endfunction()
