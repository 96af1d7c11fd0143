// SPDX-License-Identifier: BSL-1.0
#pragma once
// Creating a pksk table, or checking that an existing one is exactly what pksk would have
// created: a table written by an older or foreign program must fail loudly, never be rewritten
// and never be read with the wrong order (a NOCASE key, a rowid table, a reordered key).

#include <sqlite3.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "../../detail/quoted.hpp"
#include "../../error.hpp"
#include "handle.hpp"
#include "sql.hpp"

namespace pksk::sqlite::detail {

// Runs a one-off statement with text parameters and hands each row to `row`.
template <class Row>
void for_each_row(sqlite3* db, std::string_view sql, std::initializer_list<std::string_view> params,
                  std::string_view table, std::string_view operation, Row&& row) {
  Statement stmt = prepare(db, sql, table, operation, /*persistent=*/false);
  int index = 1;
  for (std::string_view p : params) check(db, bind_text(stmt.get(), index++, p), table, operation);
  for (;;) {
    const int rc = sqlite3_step(stmt.get());
    if (rc == SQLITE_DONE) return;
    if (rc != SQLITE_ROW) throw_failure(db, rc, table, operation);
    row(stmt.get());
  }
}

struct TableInfo {
  bool exists = false;
  std::string kind;  // "table", "view", ...
  bool without_rowid = false;
};

inline TableInfo table_info(sqlite3* db, std::string_view table) {
  TableInfo info;
  // SQLite's names are case-insensitive: "Shop" and "shop" are the same table.
  for_each_row(db,
               "SELECT type, wr FROM pragma_table_list WHERE schema = 'main' AND name = ?1 "
               "COLLATE NOCASE",
               {table}, table, "open_table (reading the schema)", [&](sqlite3_stmt* s) {
                 info.exists = true;
                 info.kind = std::string(column_view(s, 0));
                 info.without_rowid = sqlite3_column_int(s, 1) != 0;
               });
  return info;
}

// Every difference from the schema pksk creates, one per line; empty when the table matches.
inline std::vector<std::string> schema_differences(sqlite3* db, const backend::TableSpec& spec,
                                                   const TableInfo& info) {
  const std::string_view table = spec.name;
  std::vector<std::string> diffs;
  constexpr std::string_view operation = "open_table (reading the schema)";
  if (info.kind != "table") {
    diffs.push_back("it is a " + info.kind + ", not a table");
    return diffs;
  }
  if (!info.without_rowid) diffs.push_back("it is not a WITHOUT ROWID table");

  struct Expected {
    std::string_view name;
    int pk_position;
    std::string_view type = "TEXT";
    bool index_key = false;  // a generated, nullable column (sql.hpp, index_column_sql)
    bool seen = false;
  };
  std::vector<Expected> expected{{spec.pk_attribute, 1},
                                 {sk_column(spec), 2, sk_column_type(spec)},
                                 {type_column(spec), 0},
                                 {"body", 0},
                                 {"size", 0, "INTEGER"}};
  for (std::size_t i = 0; i < spec.indexes.size(); ++i) {
    if (spec.repeats_index_keys(i)) continue;
    expected.push_back({spec.indexes[i].pk_attribute, 0, "TEXT", true});
    expected.push_back({spec.indexes[i].sk_attribute, 0, "TEXT", true});
  }
  for_each_row(db, "SELECT name, type, \"notnull\", pk, hidden FROM pragma_table_xinfo(?1)",
               {table}, table, operation, [&](sqlite3_stmt* s) {
                 const std::string name(column_view(s, 0));
                 const bool generated = sqlite3_column_int(s, 4) != 0;
                 Expected* match = nullptr;
                 for (Expected& e : expected) {
                   if (iequals_ascii(e.name, name)) match = &e;
                 }
                 if (match == nullptr) {
                   // The key column of an index this program does not use: left as it is.
                   if (!generated)
                     diffs.push_back("unexpected column " + pksk::detail::quoted(name));
                   return;
                 }
                 match->seen = true;
                 if (!iequals_ascii(column_view(s, 1), match->type)) {
                   diffs.push_back("column " + pksk::detail::quoted(name) + " has type " +
                                   pksk::detail::quoted(column_view(s, 1)) + ", expected " +
                                   std::string(match->type));
                 }
                 if (match->index_key) {
                   if (!generated) {
                     diffs.push_back("column " + pksk::detail::quoted(name) +
                                     " is an index key column but not generated from the body");
                   }
                   return;
                 }
                 if (sqlite3_column_int(s, 2) == 0) {
                   diffs.push_back("column " + pksk::detail::quoted(name) + " is not NOT NULL");
                 }
                 if (generated) {
                   diffs.push_back("column " + pksk::detail::quoted(name) +
                                   " is a generated or hidden column");
                 }
                 const int position = sqlite3_column_int(s, 3);
                 if (position != match->pk_position) {
                   diffs.push_back(
                       match->pk_position == 0
                           ? "column " + pksk::detail::quoted(name) + " is part of the primary key"
                           : "column " + pksk::detail::quoted(name) +
                                 " is not primary key column " +
                                 std::to_string(match->pk_position) + " (it is " +
                                 (position == 0 ? std::string("not in the key")
                                                : "column " + std::to_string(position)) +
                                 ")");
                 }
               });
  for (const Expected& e : expected) {
    // A missing index is added by open_table (missing_index_columns), not a difference.
    if (!e.seen && !e.index_key) diffs.push_back("missing column " + pksk::detail::quoted(e.name));
  }

  // The key's collation and direction decide the sort-key order, so they are checked on the
  // primary key's index itself.
  std::string pk_index;
  for_each_row(db, "SELECT name FROM pragma_index_list(?1) WHERE origin = 'pk'", {table}, table,
               operation, [&](sqlite3_stmt* s) { pk_index = std::string(column_view(s, 0)); });
  if (pk_index.empty()) {
    diffs.push_back("it has no PRIMARY KEY (" + spec.pk_attribute + ", " +
                    std::string(sk_column(spec)) + ")");
    return diffs;
  }
  for_each_row(
      db,
      "SELECT name, \"desc\", coll FROM pragma_index_xinfo(?1) WHERE key = 1 "
      "ORDER BY seqno",
      {pk_index}, table, operation, [&](sqlite3_stmt* s) {
        const std::string name(column_view(s, 0));
        if (!iequals_ascii(column_view(s, 2), "BINARY")) {
          diffs.push_back("key column " + pksk::detail::quoted(name) + " has collation " +
                          std::string(column_view(s, 2)) + ", expected BINARY (byte order)");
        }
        if (sqlite3_column_int(s, 1) != 0) {
          diffs.push_back("key column " + pksk::detail::quoted(name) + " is declared DESC");
        }
      });
  return diffs;
}

// The index key columns the table does not have yet: those of indexes added since it was made.
inline std::vector<std::string> missing_index_columns(sqlite3* db, const backend::TableSpec& spec) {
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < spec.indexes.size(); ++i) {
    if (spec.repeats_index_keys(i)) continue;
    missing.push_back(spec.indexes[i].pk_attribute);
    missing.push_back(spec.indexes[i].sk_attribute);
  }
  for_each_row(db, "SELECT name FROM pragma_table_xinfo(?1)", {spec.name}, spec.name,
               "open_table (reading the schema)", [&](sqlite3_stmt* s) {
                 std::erase_if(missing, [&](const std::string& name) {
                   return iequals_ascii(name, column_view(s, 0));
                 });
               });
  return missing;
}

// The spec's indexes the file lacks (their SQLite index, named "<table>:<index>"), and a
// difference for each one that exists with other columns than pksk gives it, in order.
inline std::vector<const TableIndex*> missing_indexes(sqlite3* db, const backend::TableSpec& spec,
                                                      std::vector<std::string>& diffs) {
  std::vector<const TableIndex*> missing;
  for (const TableIndex& index : spec.indexes) {
    const std::string name = index_name_of(spec, index);
    std::vector<std::string> columns;
    for_each_row(db, "SELECT name FROM pragma_index_info(?1) ORDER BY seqno", {name}, spec.name,
                 "open_table (reading the schema)",
                 [&](sqlite3_stmt* s) { columns.emplace_back(column_view(s, 0)); });
    if (columns.empty()) {
      missing.push_back(&index);
      continue;
    }
    const std::vector<std::string> expected{index.pk_attribute, index.sk_attribute,
                                            spec.pk_attribute, std::string(sk_column(spec))};
    bool same = columns.size() == expected.size();
    for (std::size_t i = 0; same && i < columns.size(); ++i) {
      same = iequals_ascii(columns[i], expected[i]);
    }
    if (!same) {
      std::string found;
      for (const std::string& c : columns) found += (found.empty() ? "" : ", ") + c;
      diffs.push_back("index " + pksk::detail::quoted(name) + " has the columns (" + found +
                      "), expected (" + index.pk_attribute + ", " + index.sk_attribute + ", " +
                      spec.pk_attribute + ", " + std::string(sk_column(spec)) + ")");
    }
  }
  return missing;
}

// The storage format of a file pksk has written to, from its metadata table; empty when it has
// none (a new file, or one pksk never created a table in).
inline std::string storage_format(sqlite3* db) {
  constexpr std::string_view operation = "open (reading the storage format)";
  bool has_metadata = false;
  for_each_row(db, "SELECT 1 FROM pragma_table_list WHERE schema = 'main' AND name = 'pksk_meta'",
               {}, {}, operation, [&](sqlite3_stmt*) { has_metadata = true; });
  std::string version;
  if (has_metadata) {
    for_each_row(db, "SELECT value FROM pksk_meta WHERE name = 'format_version'", {}, {}, operation,
                 [&](sqlite3_stmt* s) { version = std::string(column_view(s, 0)); });
  }
  return version;
}

// A file from a newer pksk is refused rather than misread.
inline void check_storage_format(sqlite3* db, std::string_view path) {
  const std::string version = storage_format(db);
  if (!version.empty() && version != std::to_string(storage_format_version)) {
    throw BackendError(errc::schema_mismatch, "pksk::sqlite: \"" + std::string(path) +
                                                  "\" has storage format version " + version +
                                                  "; this pksk reads version " +
                                                  std::to_string(storage_format_version) + " only");
  }
}

// Recorded when pksk first creates a table in the file, so that opening someone else's file
// changes nothing in it.
inline void record_storage_format(sqlite3* db, std::string_view table) {
  constexpr std::string_view operation = "open_table (recording the storage format)";
  for_each_row(db, create_metadata_sql(), {}, table, operation, [](sqlite3_stmt*) {});
  for_each_row(db, "INSERT OR IGNORE INTO pksk_meta (name, value) VALUES ('format_version', ?1)",
               {std::to_string(storage_format_version)}, table, operation, [](sqlite3_stmt*) {});
}

}  // namespace pksk::sqlite::detail
