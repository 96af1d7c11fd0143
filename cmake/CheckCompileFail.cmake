# Runs by `cmake -P`: compiles SOURCE and passes only if compilation fails with EXPECTED (the
# static_assert's message) in the compiler's output, and with every text given on a
# `// expect: <text>` line of SOURCE: what a C++20 static_assert message cannot carry, the
# entity and the offending text, printed as template arguments of the failed check.
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
file(STRINGS ${SOURCE} context_lines REGEX "^// expect: ")
set(all_expected "${EXPECTED}")
foreach(line IN LISTS context_lines)
  string(REGEX REPLACE "^// expect: " "" text "${line}")
  list(APPEND all_expected "${text}")
endforeach()
foreach(expected IN LISTS all_expected)
  string(FIND "${output}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${SOURCE} failed to compile, but not with \"${expected}\":\n${output}")
  endif()
  message(STATUS "rejected with: ${expected}")
endforeach()
