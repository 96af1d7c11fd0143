// SPDX-License-Identifier: BSL-1.0
// The one file that compiles pksk's own code (the SQLite backend here) in a program built with
// PKSK_SEPARATE_COMPILATION.
#include <pksk/sqlite.hpp>
#include <pksk/src.hpp>
