# SPDX-License-Identifier: BSL-1.0
# Warning flags for pksk's own targets (tests, examples, benchmarks), never for the
# exported pksk target.
add_library(pksk_warnings INTERFACE)
target_compile_options(pksk_warnings INTERFACE -Wall -Wextra -Wpedantic -Werror)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # API.md's usage leaves members out of designated initializers on purpose
  # (Customer{.id = "123"}); g++ flags that under -Wextra, clang does not.
  target_compile_options(pksk_warnings INTERFACE -Wno-missing-field-initializers)
endif()
