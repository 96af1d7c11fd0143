// SPDX-License-Identifier: BSL-1.0
// The conformance cases on the SQLite backend held by a pksk::AnyBackend: Table<AnyBackend>
// must behave as Table<sqlite::Backend> does, case for case.

#include <pksk/backend.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/sqlite.hpp>

#include "conformance.hpp"
#include "sqlite_store.hpp"

struct OnAnySqlite {
  pksk::AnyBackend backend = pksk::sqlite::Backend{":memory:"};
  struct NoCreate {
    conformance::SqliteWithoutCreate held;
    pksk::AnyBackend backend = pksk::AnyBackend::ref(held.backend);
  };
  static constexpr bool keeps_expired_items = true;  // until a sweep deletes them
};
using Store = OnAnySqlite;

#include "cases.hpp"
