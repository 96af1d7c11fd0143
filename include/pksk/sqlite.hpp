// SPDX-License-Identifier: BSL-1.0
#pragma once
// The SQLite reference backend: pksk::sqlite::Backend. Link the CMake target pksk::sqlite.

#include "pksk.hpp"
#include "sqlite/backend.hpp"
#include "sqlite/design.hpp"

#ifdef PKSK_SEPARATE_COMPILATION
#ifdef PKSK_DETAIL_SRC_INCLUDED
#error \
    "<pksk/sqlite.hpp> after <pksk/src.hpp>: src.hpp compiles only the backends whose headers come before it; include <pksk/sqlite.hpp> first"
#endif
// Table<sqlite::Backend>'s and Maintenance<sqlite::Backend>'s own members are compiled once, by
// <pksk/src.hpp>.
extern template class pksk::Table<pksk::sqlite::Backend>;
extern template class pksk::Maintenance<pksk::sqlite::Backend>;
#endif
