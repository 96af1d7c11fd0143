// SPDX-License-Identifier: BSL-1.0
// The conformance cases on the SQLite backend, in memory.

#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/sqlite.hpp>

#include "conformance.hpp"
#include "sqlite_store.hpp"

struct OnSqlite {
  pksk::sqlite::Backend backend{":memory:"};
  using NoCreate = conformance::SqliteWithoutCreate;
  static constexpr bool keeps_expired_items = true;  // until a sweep deletes them
};
using Store = OnSqlite;

#include "cases.hpp"
