// SPDX-License-Identifier: BSL-1.0
#pragma once
// The SQLite reference backend: pksk::sqlite::Backend. Link the CMake target pksk::sqlite.

#include "pksk.hpp"
#include "sqlite/backend.hpp"
