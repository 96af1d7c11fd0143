# Runs by `cmake -P`: compiles SOURCE, which must fail, and checks that the compiler's output
# contains every text given on a `// expect: <text>` line of SOURCE. pksk_add_compile_fail
# checks the static_assert message; this checks what a C++20 static_assert message cannot
# carry: the entity and the offending text, printed as template arguments of the failed check.
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
  message(FATAL_ERROR "${SOURCE} compiled, but it must be rejected")
endif()
file(STRINGS ${SOURCE} lines REGEX "^// expect: ")
if(NOT lines)
  message(FATAL_ERROR "${SOURCE} has no `// expect:` line")
endif()
foreach(line IN LISTS lines)
  string(REGEX REPLACE "^// expect: " "" expected "${line}")
  string(FIND "${output}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${SOURCE}: the diagnostic lacks \"${expected}\":\n${output}")
  endif()
  message(STATUS "found: ${expected}")
endforeach()
