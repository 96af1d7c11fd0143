# Runs by `cmake -P`: compiles SOURCE with COMPILER (syntax only, so nothing is linked) and
# passes only if compilation fails with exactly one `error:` line, and that line contains RULE
# and every text given on a `// expect: <text>` line of SOURCE: the entity or entities and the
# offending text, which pksk spells as template arguments of the rule (key/diagnose.hpp). One
# error per misuse, named where the compiler says "error", is what users must see; notes and
# "required from" lines are not counted.
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
  message(FATAL_ERROR "${SOURCE} compiled, but it must be rejected with: ${RULE}")
endif()
# A ';' in the output would split CMake's list of lines.
string(REPLACE ";" "," output "${output}")
string(REGEX MATCHALL "[^\n]*error:[^\n]*" error_lines "${output}")
list(LENGTH error_lines errors)
if(NOT errors EQUAL 1)
  message(FATAL_ERROR
          "${SOURCE}: ${COMPILER} printed ${errors} `error:` lines, not exactly one:\n${output}")
endif()
list(GET error_lines 0 first)
file(STRINGS ${SOURCE} context_lines REGEX "^// expect: ")
set(all_expected "${RULE}")
foreach(line IN LISTS context_lines)
  string(REGEX REPLACE "^// expect: " "" text "${line}")
  list(APPEND all_expected "${text}")
endforeach()
foreach(expected IN LISTS all_expected)
  string(FIND "${first}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${SOURCE}: the error line lacks \"${expected}\":\n${first}\n\n${output}")
  endif()
endforeach()
message(STATUS "one error, naming ${all_expected}:\n${first}")
