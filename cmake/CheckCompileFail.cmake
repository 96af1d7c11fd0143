# SPDX-License-Identifier: BSL-1.0
# Runs by `cmake -P`: compiles SOURCE with COMPILER (syntax only, so nothing is linked) and
# passes only if compilation fails with exactly one `error:` line, and that line contains RULE
# and every text given on a `// expect: <text>` line of SOURCE: the entity or entities and the
# offending text, which pksk spells as template arguments of the rule
# (pksk/detail/diagnose.hpp). One error per misuse, named where the compiler says "error", is
# what users must see; notes and "required from" lines are not counted.
#
# Where the compilers say it differently (a check of a function argument at compile time: g++
# names the rule in the error line, clang the argument's conversion, with the rule in the note
# under it), a source states it per compiler: `// expect-<TAG>: <text>` in the error line,
# `// expect-<TAG>-source: <text>` in the source line quoted under it, `// expect-<TAG>-note:
# <text>` in the first note after it, TAG being gcc or clang; RULE may then be empty.
set(include_flags)
foreach(dir IN LISTS INCLUDES)
  if(dir)
    list(APPEND include_flags "-I${dir}")
  endif()
endforeach()
# PRECOMPILED: the flags that put pksk's precompiled headers first, or nothing; DEFINES: the
# -D flags of a program linking pksk::zstd, or nothing (the precompiled headers have them).
execute_process(
  COMMAND ${COMPILER} -std=c++20 -fsyntax-only ${DEFINES} ${PRECOMPILED} ${include_flags} ${SOURCE}
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
# The line after the error line (the source it quotes) and the first note after it.
string(FIND "${output}" "${first}" at)
string(LENGTH "${first}" length)
math(EXPR after "${at} + ${length} + 1")
string(SUBSTRING "${output}" ${after} -1 rest)
string(REGEX MATCH "^[^\n]*" quoted "${rest}")
string(REGEX MATCH "[^\n]*note:[^\n]*" note "${rest}")

# check_expected(prefix where text): every `// <prefix>: <text>` line's text is in `text`.
set(all_expected)
function(check_expected prefix where text)
  file(STRINGS ${SOURCE} lines REGEX "^// ${prefix}: ")
  set(found ${all_expected})
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^// ${prefix}: " "" expected "${line}")
    string(FIND "${text}" "${expected}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${SOURCE}: ${where} lacks \"${expected}\":\n${text}\n\n${output}")
    endif()
    list(APPEND found "${expected}")
  endforeach()
  set(all_expected ${found} PARENT_SCOPE)
endfunction()

if(RULE)
  string(FIND "${first}" "${RULE}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${SOURCE}: the error line lacks \"${RULE}\":\n${first}\n\n${output}")
  endif()
  list(APPEND all_expected "${RULE}")
endif()
check_expected("expect" "the error line" "${first}")
check_expected("expect-${TAG}" "the error line" "${first}")
check_expected("expect-${TAG}-source" "the source line under the error" "${quoted}")
check_expected("expect-${TAG}-note" "the first note" "${note}")
if(NOT all_expected)
  message(FATAL_ERROR "${SOURCE}: nothing is expected of ${COMPILER}'s error: give a RULE or "
                      "// expect lines")
endif()
message(STATUS "one error, naming ${all_expected}:\n${first}\n${quoted}\n${note}")
