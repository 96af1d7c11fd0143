# SPDX-License-Identifier: BSL-1.0
# Warning flags for pksk's own targets (tests, examples, benchmarks), never for the
# exported pksk target.
add_library(pksk_warnings INTERFACE)
target_compile_options(pksk_warnings INTERFACE -Wall -Wextra -Wpedantic -Werror)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # The documented usage leaves members out of designated initializers on purpose
  # (Customer{.id = "123"}); g++ flags that under -Wextra, clang does not.
  target_compile_options(pksk_warnings INTERFACE -Wno-missing-field-initializers)
  # g++ 12 at -O3 reports the memcmp of std::vector<std::byte>'s operator<=> in any
  # std::set<std::vector<std::byte>> (a binary set member) as reading past any object: a false
  # positive, reported for that set without pksk too.
  target_compile_options(pksk_warnings INTERFACE -Wno-stringop-overread)
endif()
