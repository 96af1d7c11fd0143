// SPDX-License-Identifier: BSL-1.0
#include "location.hpp"

#include <sqlite3.h>

#include <filesystem>
#include <string_view>
#include <utility>

#include <pksk/sqlite.hpp>
#ifdef PKSK_INSPECT_WITH_DYNAMODB
#include <pksk/dynamodb.hpp>
#endif

namespace pksk::inspect {

namespace {

constexpr std::string_view dynamodb_scheme = "dynamodb://";

// Runs `sql` on the file's connection, handing each row to `row`.
template <class Row>
void each_row(sqlite3* db, const std::string& sql, const std::string& parameter, Row&& row) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    throw Failure(std::string("reading the schema: ") + sqlite3_errmsg(db));
  if (!parameter.empty()) sqlite3_bind_text(stmt, 1, parameter.c_str(), -1, SQLITE_TRANSIENT);
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) row(stmt);
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE) throw Failure(std::string("reading the schema: ") + sqlite3_errmsg(db));
}

std::string text_column(sqlite3_stmt* stmt, int column) {
  const auto* text = sqlite3_column_text(stmt, column);
  return text == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(text));
}

// The key attributes of an SQLite table from its columns, as pksk creates them (sqlite/detail/
// schema.hpp): key columns 1 and 2, `body`, `size`, one more stored column (the type), and
// generated index key columns. Empty name: not laid out as a pksk table.
backend::TableSpec spec_from_columns(sqlite3* db, const std::string& table) {
  backend::TableSpec spec{table};
  spec.pk_attribute.clear();
  spec.sk_attribute.clear();
  spec.type_attribute.clear();
  int others = 0;
  bool body = false;
  each_row(db, "SELECT name, pk, hidden, type FROM pragma_table_xinfo(?1)", table,
           [&](sqlite3_stmt* s) {
             const std::string name = text_column(s, 0);
             const int key_position = sqlite3_column_int(s, 1);
             if (sqlite3_column_int(s, 2) != 0) return;  // an index key, generated from the body
             if (key_position == 1) {
               spec.pk_attribute = name;
             } else if (key_position == 2) {
               spec.sk_attribute = name;
               // A sort key that is a number is an INTEGER column (TableOptions::sk_type).
               if (text_column(s, 3) == "INTEGER") spec.sk_type = KeyType::number;
             } else if (name == "body") {
               body = true;
             } else if (name != "size") {
               spec.type_attribute = name;
               ++others;
             }
           });
  if (spec.pk_attribute.empty() || spec.sk_attribute.empty() || !body || others != 1)
    spec.name.clear();
  return spec;
}

Location open_sqlite(const std::string& path, Access access, const KeyNames& names,
                     const std::string& new_table) {
  const bool exists = std::filesystem::exists(path);
  if (!exists && access == Access::read) throw Failure("no such file: " + path);
  Location where{path, "SQLite"};
  sqlite::Backend file(path, sqlite::Options{.read_only = access == Access::read});
  sqlite3* db = file.native_handle();
  each_row(db,
           "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND "
           "name NOT LIKE 'sqlite_%' AND name <> 'pksk_meta' ORDER BY name",
           {}, [&](sqlite3_stmt* s) {
             const std::string table = text_column(s, 0);
             backend::TableSpec spec = spec_from_columns(db, table);
             if (spec.name.empty()) {
               where.foreign.push_back(table);
             } else {
               where.tables.push_back(std::move(spec));
             }
           });
  if (access != Access::read && !new_table.empty()) {
    bool found = false;
    for (const auto& t : where.tables) found = found || t.name == new_table;
    if (!found) {
      backend::TableSpec spec{new_table};
      spec.pk_attribute = names.pk;
      spec.sk_attribute = names.sk;
      spec.type_attribute = names.type;
      spec.sk_type = names.sk_type;
      where.tables.push_back(std::move(spec));
    }
  }
  where.backend = AnyBackend(std::move(file));
  return where;
}

#ifdef PKSK_INSPECT_WITH_DYNAMODB
// dynamodb://TABLE?endpoint=URL&region=REGION&create=1. Credentials come from the usual chain
// (environment, profile, instance role).
Location open_dynamodb(const std::string& text, Access access, const KeyNames& names) {
  std::string_view rest = std::string_view(text).substr(dynamodb_scheme.size());
  const std::size_t question = rest.find('?');
  const std::string table(rest.substr(0, question));
  if (table.empty()) throw UsageError("no table in " + text + " (dynamodb://TABLE?endpoint=...)");
  dynamodb::Options options;
  std::string_view query = question == std::string_view::npos ? "" : rest.substr(question + 1);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? "" : query.substr(amp + 1);
    const std::size_t eq = pair.find('=');
    const std::string_view key = pair.substr(0, eq);
    const std::string value(eq == std::string_view::npos ? "" : pair.substr(eq + 1));
    if (key == "endpoint") {
      options.endpoint = value;
    } else if (key == "region") {
      options.region = value;
    } else if (key == "create") {
      options.create_missing_tables = value == "1" || value == "true";
    } else {
      throw UsageError("unknown parameter '" + std::string(key) + "' in " + text +
                       " (known: endpoint, region, create)");
    }
  }
  if (access == Access::read) options.create_missing_tables = false;
  if (access == Access::create) options.create_missing_tables = true;
  Location where{text, "DynamoDB"};
  backend::TableSpec spec{table};
  spec.pk_attribute = names.pk;
  spec.sk_attribute = names.sk;
  spec.type_attribute = names.type;
  spec.sk_type = names.sk_type;
  where.tables.push_back(std::move(spec));
  where.backend = AnyBackend(dynamodb::Backend(std::move(options)));
  return where;
}
#endif

}  // namespace

Location open_location(const std::string& text, Access access, const KeyNames& names,
                       const std::string& new_table) {
  if (text.starts_with(dynamodb_scheme)) {
#ifdef PKSK_INSPECT_WITH_DYNAMODB
    return open_dynamodb(text, access, names);
#else
    throw Failure("this pksk-inspect was built without the DynamoDB backend (no libcurl)");
#endif
  }
  return open_sqlite(text, access, names, new_table);
}

const backend::TableSpec& choose_table(const Location& where, const std::string& name) {
  if (!name.empty()) {
    for (const auto& t : where.tables) {
      if (t.name == name) return t;
    }
    throw Failure("no pksk table '" + name + "' in " + where.text);
  }
  if (where.tables.size() == 1) return where.tables.front();
  if (where.tables.empty()) {
    throw Failure("no pksk table in " + where.text + " (--import --table NAME creates one)");
  }
  std::string names;
  for (const auto& t : where.tables) names += (names.empty() ? "" : ", ") + t.name;
  throw UsageError(where.text + " holds several tables (" + names + "): name one with --table");
}

}  // namespace pksk::inspect
