// SPDX-License-Identifier: BSL-1.0
// The one translation unit that defines pksk's code when pksk's own tests, examples and
// benchmarks are built with PKSK_SEPARATE_COMPILATION (the CMake option of that name): what a
// program that uses pksk that way writes once.
#include <pksk/sqlite.hpp>
#ifdef PKSK_WITH_DYNAMODB
#include <pksk/dynamodb.hpp>
#endif
#include <pksk/src.hpp>
