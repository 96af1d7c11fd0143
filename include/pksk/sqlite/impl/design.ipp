// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of design.hpp: inline through backend.ipp in header-only mode, compiled once
// by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <sqlite3.h>

#include <optional>
#include <string>
#include <string_view>

#include "../../detail/quoted.hpp"
#include "../../error.hpp"
#include "../design.hpp"
#include "../detail/messages.hpp"
#include "../detail/schema.hpp"
#include "../detail/sql.hpp"

namespace pksk::sqlite {

namespace detail {

// The table's name as the file spells it (SQLite's names are case-insensitive), so that one
// table has one design row however its name is written; BackendError when it does not exist.
inline std::string stored_table_name(sqlite3* db, std::string_view table,
                                     std::string_view operation, std::string_view path) {
  std::string name;
  for_each_row(db,
               "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND "
               "name = ?1 COLLATE NOCASE",
               {table}, table, operation,
               [&](sqlite3_stmt* s) { name = std::string(column_view(s, 0)); });
  if (name.empty()) {
    throw BackendError(errc::missing_table, context(table, operation) + "does not exist in " +
                                                pksk::detail::quoted(path));
  }
  return name;
}

inline std::string design_row_name(std::string_view table) {
  return "design:" + std::string(table);
}

}  // namespace detail

PKSK_DECL void store_design(const Backend& backend, std::string_view table,
                            const AccessPatterns& design) {
  constexpr std::string_view operation = "store_design";
  sqlite3* db = backend.native_handle();
  const std::string name = detail::stored_table_name(db, table, operation, backend.path());
  detail::for_each_row(db, detail::create_metadata_sql(), {}, table, operation,
                       [](sqlite3_stmt*) {});
  detail::for_each_row(db, "INSERT OR REPLACE INTO pksk_meta (name, value) VALUES (?1, ?2)",
                       {detail::design_row_name(name), design.to_json()}, table, operation,
                       [](sqlite3_stmt*) {});
}

PKSK_DECL std::optional<AccessPatterns> stored_design(const Backend& backend,
                                                      std::string_view table) {
  constexpr std::string_view operation = "stored_design";
  sqlite3* db = backend.native_handle();
  const std::string name = detail::stored_table_name(db, table, operation, backend.path());
  bool has_metadata = false;
  detail::for_each_row(
      db, "SELECT 1 FROM pragma_table_list WHERE schema = 'main' AND name = 'pksk_meta'", {}, table,
      operation, [&](sqlite3_stmt*) { has_metadata = true; });
  if (!has_metadata) return std::nullopt;
  std::optional<std::string> json;
  detail::for_each_row(db, "SELECT value FROM pksk_meta WHERE name = ?1",
                       {detail::design_row_name(name)}, table, operation,
                       [&](sqlite3_stmt* s) { json = std::string(detail::column_view(s, 0)); });
  if (!json) return std::nullopt;
  return AccessPatterns::from_json(*json);
}

}  // namespace pksk::sqlite
