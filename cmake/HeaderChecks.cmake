# SPDX-License-Identifier: BSL-1.0
# Every public header compiles on its own: one ctest per header under include/pksk/ outside
# detail/ and impl/ folders, each a syntax-only run of this build's compiler on a source that
# includes that header alone, with -Wall -Wextra -Wpedantic -Werror (no exception for missing
# field initializers: a user's -Wextra has none). The headers are globbed when CMake runs, so a
# new header is covered by the next configure. Included from tests/CMakeLists.txt (label
# header_check).

# A header's dependencies, as the targets that carry them give them, as system directories
# (as a user's build sees them).
set(_pksk_hc_flags -std=c++20 -fsyntax-only -Wall -Wextra -Wpedantic -Werror
                   -I${PROJECT_SOURCE_DIR}/include)
set(_pksk_hc_targets Boost::headers simdjson::simdjson SQLite::SQLite3)
if(TARGET pksk::dynamodb)
  list(APPEND _pksk_hc_targets CURL::libcurl)
endif()
foreach(target IN LISTS _pksk_hc_targets)
  get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(definitions ${target} INTERFACE_COMPILE_DEFINITIONS)
  foreach(dir IN LISTS dirs)
    # The compiler's own directories stay where it searches them: made -isystem again they
    # would come before libstdc++'s, whose #include_next <stdlib.h> would then find nothing.
    if(dir AND NOT dir IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
      list(APPEND _pksk_hc_flags -isystem ${dir})
    endif()
  endforeach()
  foreach(definition IN LISTS definitions)
    if(definition)
      list(APPEND _pksk_hc_flags -D${definition})
    endif()
  endforeach()
endforeach()

# In a tree built with PKSK_SEPARATE_COMPILATION the headers are checked in that mode, where
# they include less. <pksk/src.hpp> is for that mode only, and is checked in it in any tree.
if(PKSK_SEPARATE_COMPILATION)
  list(APPEND _pksk_hc_flags -DPKSK_SEPARATE_COMPILATION)
endif()

file(GLOB_RECURSE _pksk_hc_headers CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/include
     ${PROJECT_SOURCE_DIR}/include/pksk/*.hpp)
set(_pksk_hc_dir ${CMAKE_CURRENT_BINARY_DIR}/header_checks)
foreach(header IN LISTS _pksk_hc_headers)
  # The headers a user includes: a detail/ or impl/ header is reached only through one of them,
  # which the check compiles, and skipping them keeps the check to a minute of CI.
  if(header MATCHES "/(detail|impl)/")
    continue()
  endif()
  if(header MATCHES "^pksk/dynamodb(/|\\.hpp$)" AND NOT TARGET pksk::dynamodb)
    continue()  # libcurl was not found: the DynamoDB backend's headers cannot compile
  endif()
  string(REGEX REPLACE "^pksk/" "" name "${header}")
  # A source, not the header itself: a header given as the main file makes g++ warn about
  # its #pragma once. Written only when its text changes, so a reconfigure rebuilds nothing.
  file(CONFIGURE OUTPUT ${_pksk_hc_dir}/${name}.cpp CONTENT "#include <${header}>\n")
  set(mode)
  if(header STREQUAL "pksk/src.hpp")
    # Alone, it compiles pksk's own code without a backend, as for a program whose backends are
    # all its own (without the definition, src.hpp alone is an error: tests/compile_fail/).
    set(mode -DPKSK_SRC_WITHOUT_LIBRARY_BACKENDS)
    if(NOT PKSK_SEPARATE_COMPILATION)
      list(APPEND mode -DPKSK_SEPARATE_COMPILATION)
    endif()
  endif()
  add_test(NAME header_check.${name}
           COMMAND ${CMAKE_CXX_COMPILER} ${_pksk_hc_flags} ${mode} ${_pksk_hc_dir}/${name}.cpp)
  set_tests_properties(header_check.${name} PROPERTIES LABELS header_check)
endforeach()
