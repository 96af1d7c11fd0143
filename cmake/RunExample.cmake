# SPDX-License-Identifier: BSL-1.0
# Runs by `cmake -P`: runs EXECUTABLE with a fresh database file in WORKDIR and compares its
# standard output with the EXPECTED file, line by line. With ENDPOINT_FILE, the example runs on
# the DynamoDB endpoint that file names (PKSK_DYNAMODB_ENDPOINT).
if(DEFINED ENDPOINT_FILE)
  file(STRINGS ${ENDPOINT_FILE} endpoint LIMIT_COUNT 1)
  if(NOT endpoint)
    message(FATAL_ERROR "no DynamoDB endpoint in ${ENDPOINT_FILE}")
  endif()
  set(ENV{PKSK_DYNAMODB_ENDPOINT} ${endpoint})
endif()
file(REMOVE_RECURSE ${WORKDIR})
file(MAKE_DIRECTORY ${WORKDIR})
execute_process(
  COMMAND ${EXECUTABLE} ${WORKDIR}/example.db
  WORKING_DIRECTORY ${WORKDIR}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${EXECUTABLE} exited with ${result}:\n${output}\n${errors}")
endif()
# A .regex file: line i of the output must match line i of the file whole, and the counts agree.
if(EXPECTED MATCHES "\\.regex$")
  file(STRINGS ${EXPECTED} patterns)
  string(REPLACE ";" "\\;" escaped "${output}")
  string(REGEX REPLACE "\n$" "" escaped "${escaped}")
  string(REPLACE "\n" ";" lines "${escaped}")
  list(LENGTH patterns expected_count)
  list(LENGTH lines count)
  set(mismatch "")
  if(NOT count EQUAL expected_count)
    set(mismatch "${count} lines, ${expected_count} expected")
  else()
    foreach(i RANGE 1 ${count})
      math(EXPR at "${i} - 1")
      list(GET patterns ${at} pattern)
      list(GET lines ${at} line)
      if(NOT line MATCHES "^${pattern}$")
        set(mismatch "line ${i}, '${line}', does not match '${pattern}'")
        break()
      endif()
    endforeach()
  endif()
  if(mismatch)
    file(WRITE ${WORKDIR}/actual_output.txt "${output}")
    message(FATAL_ERROR "output differs from ${EXPECTED}: ${mismatch}; it is in "
                        "${WORKDIR}/actual_output.txt:\n${output}")
  endif()
  message(STATUS "output as expected")
  return()
endif()
file(READ ${EXPECTED} expected)
if(NOT output STREQUAL expected)
  file(WRITE ${WORKDIR}/actual_output.txt "${output}")
  message(FATAL_ERROR "output differs from ${EXPECTED}; it is in ${WORKDIR}/actual_output.txt:\n${output}")
endif()
message(STATUS "output as expected")
