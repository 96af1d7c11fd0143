// SPDX-License-Identifier: BSL-1.0
#pragma once
// What the SQLite stores of the conformance suite share: a backend that opens tables without
// creating them (a read-only file with no table), for the missing-table case.

#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/sqlite.hpp>
#include <string>

#include "../support/temp_dir.hpp"

namespace conformance {

struct SqliteWithoutCreate {
  support::TempDir dir;
  pksk::sqlite::Backend backend = make(dir.file("empty.db"));
  static pksk::sqlite::Backend make(const std::string& path) {
    { pksk::sqlite::Backend create_the_file{path}; }
    return pksk::sqlite::Backend{path, {.read_only = true}};
  }
};

}  // namespace conformance
