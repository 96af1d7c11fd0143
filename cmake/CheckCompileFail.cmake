# Runs by `cmake -P`: compiles SOURCE and passes only if compilation fails with EXPECTED in
# the compiler's output. A source that compiles, or fails for another reason, is a failure.
set(include_flags)
foreach(dir IN LISTS INCLUDES)
  if(dir)
    list(APPEND include_flags "-I${dir}")
  endif()
endforeach()
execute_process(
  COMMAND ${COMPILER} -std=c++20 -fsyntax-only ${include_flags} ${SOURCE}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)
if(result EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must be rejected with: ${EXPECTED}")
endif()
string(FIND "${output}" "${EXPECTED}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${SOURCE} failed to compile, but not with \"${EXPECTED}\":\n${output}")
endif()
message(STATUS "rejected as expected: ${EXPECTED}")
