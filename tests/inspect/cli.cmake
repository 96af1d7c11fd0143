# SPDX-License-Identifier: BSL-1.0
# Runs by `cmake -P`: the pksk-inspect program (INSPECT) as a shell runs it, exit statuses,
# standard output and standard error, in WORK_DIR (fresh).
cmake_minimum_required(VERSION 3.20)

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# expect(status out_regex err_regex args...): runs pksk-inspect with args.
function(expect status out_regex err_regex)
  execute_process(COMMAND ${INSPECT} ${ARGN} WORKING_DIRECTORY ${WORK_DIR}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  list(JOIN ARGN " " command)
  if(NOT rc EQUAL status)
    message(FATAL_ERROR "pksk-inspect ${command}: exit status ${rc}, expected ${status}\n"
                        "stdout:\n${out}\nstderr:\n${err}")
  endif()
  if(NOT out MATCHES "${out_regex}")
    message(FATAL_ERROR "pksk-inspect ${command}: stdout does not match ${out_regex}:\n${out}")
  endif()
  if(NOT err MATCHES "${err_regex}")
    message(FATAL_ERROR "pksk-inspect ${command}: stderr does not match ${err_regex}:\n${err}")
  endif()
  message(STATUS "pksk-inspect ${command}: ${rc} as expected")
  set(last_out "${out}" PARENT_SCOPE)
endfunction()

expect(0 "^usage: pksk-inspect \\[OPTIONS\\] LOCATION\n" "^$" --help)
expect(2 "^$" "^pksk-inspect: unknown option --bogus\n" --bogus shop.db)
expect(2 "^$" "^pksk-inspect: no location" )
expect(1 "^$" "^pksk-inspect: no such file: missing.db\n$" missing.db)

set(items [[{"Item":{"pk":{"S":"P#1"},"sk":{"S":"A"},"type":{"S":"T"},"n":{"N":"1.50"},"b":{"B":"AP8="}}}
{"Item":{"pk":{"S":"P#1"},"sk":{"S":"B"},"l":{"L":[{"NULL":true},{"BOOL":true},{"M":{}}]}}}
]])
file(WRITE ${WORK_DIR}/in.json "${items}")
expect(0 "^$" "^imported 2 items \\([0-9]+ bytes\\) into shop.db\n$"
       shop.db --import in.json --table shop)
# -: standard output, the lines as they were read.
expect(0 "" "^exported 2 items" shop.db --export -)
if(NOT last_out STREQUAL items)
  message(FATAL_ERROR "the export differs from what was imported:\n${last_out}")
endif()
expect(0 "^collection P#1 in table shop: 2 items" "^$" shop.db --pk "P#1")
expect(0 "table shop \\(keys pk, sk; type attribute type\\): 2 items" "^$" shop.db)
expect(3 "^$" "^pksk-inspect: table shop in shop.db has no stored design \\(a program stores one with pksk::sqlite::store_design\\)\n$"
       shop.db --patterns)

file(APPEND ${WORK_DIR}/in.json "{\"Item\":{\"pk\":{\"S\":\"P#2\"}}}\n")
expect(1 "^$" "^pksk-inspect: in.json:3: not an item of a DynamoDB JSON export: the item has no key attribute 'sk'"
       shop.db --import in.json)
