// SPDX-License-Identifier: BSL-1.0
// Precompiled once per compiler and put before every compile-fail case (CompileFail.cmake):
// each case otherwise spends 2.5 of its 2.9 s parsing these headers before it reaches its one
// misuse. Only pksk's own headers and the standard library's are here, never an entity, so
// that a case defines what it tests itself.
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <pksk/sqlite.hpp>
