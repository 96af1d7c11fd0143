// SPDX-License-Identifier: BSL-1.0
#pragma once
// The SQL text of the SQLite backend and the pure key arithmetic behind it, kept apart from
// the connection code so that both can be tested and read on their own.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../../backend/backend.hpp"
#include "../../detail/quoted.hpp"
#include "../../error.hpp"
#include "../../key/condition.hpp"
#include "messages.hpp"

namespace pksk::sqlite::detail {

// Names are spliced into SQL as quoted identifiers; restricting them to [A-Za-z0-9_] means no
// quoting rule of SQLite's can be reached by a name, and the file stays easy to query by hand.
inline bool is_plain_identifier(std::string_view name) noexcept {
  if (name.empty()) return false;
  for (char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

inline bool iequals_ascii(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

inline void validate_table_name(std::string_view name) {
  if (!is_plain_identifier(name)) {
    throw ValidationError(context(name) +
                          "invalid table name: only ASCII letters, digits and underscores are "
                          "allowed");
  }
  if (iequals_ascii(name, "pksk_meta")) {
    throw ValidationError(context(name) +
                          "invalid table name: pksk keeps the file's metadata in pksk_meta");
  }
  // SQLite reserves the prefix for its own tables (in any letter case) and would refuse to
  // create one; saying so here is clearer than its "object name reserved" error.
  if (name.size() >= 7 && iequals_ascii(name.substr(0, 7), "sqlite_")) {
    throw ValidationError(context(name) +
                          "invalid table name: the prefix sqlite_ is reserved by SQLite");
  }
}

// The columns of one pksk table, named as the spec names the key attributes.
struct Columns {
  std::string pk, sk, type;  // quoted identifiers
};

// The type column of a table without a type attribute (TableOptions::type_attribute = ""): it
// holds '' in every row, as DynamoDB stores no attribute, so that reads tell types apart by
// sort key on both backends alike.
inline constexpr std::string_view untyped_column = "pksk_no_type";

inline std::string_view type_column(const backend::TableSpec& spec) noexcept {
  return spec.type_attribute.empty() ? untyped_column : std::string_view(spec.type_attribute);
}

// The sort-key column of a table without a sort key (TableOptions::sk_attribute = ""): it holds
// '' in every row, so that the primary key (pk, sk) keeps one item per partition key, as
// DynamoDB's key schema of a partition key alone does, and every query, scan and write keeps
// the one layout.
inline constexpr std::string_view unsorted_column = "pksk_no_sort_key";

inline std::string_view sk_column(const backend::TableSpec& spec) noexcept {
  return spec.sk_attribute.empty() ? unsorted_column : std::string_view(spec.sk_attribute);
}

// Key attribute names become column names: plain identifiers, distinct (SQLite compares column
// names without case) and none of the backend's own columns.
inline void validate_attribute_names(const backend::TableSpec& spec) {
  const std::string_view names[] = {spec.pk_attribute, sk_column(spec), type_column(spec)};
  const char* roles[] = {"partition-key", "sort-key", "type"};
  if (spec.sk_attribute.empty()) {
    for (const TableIndex& index : spec.indexes) {
      if (iequals_ascii(index.pk_attribute, unsorted_column) ||
          iequals_ascii(index.sk_attribute, unsorted_column))
        throw ValidationError(context(spec.name) + "index " + pksk::detail::quoted(index.name) +
                              " names a key attribute " + pksk::detail::quoted(unsorted_column) +
                              ", the sort-key column of a table without a sort key");
    }
    if (iequals_ascii(spec.pk_attribute, unsorted_column) ||
        iequals_ascii(type_column(spec), unsorted_column))
      throw ValidationError(context(spec.name) + "an attribute is named " +
                            pksk::detail::quoted(unsorted_column) +
                            ", the sort-key column of a table without a sort key");
  }
  if (spec.type_attribute.empty()) {
    for (const TableIndex& index : spec.indexes) {
      if (iequals_ascii(index.pk_attribute, untyped_column) ||
          iequals_ascii(index.sk_attribute, untyped_column))
        throw ValidationError(context(spec.name) + "index " + pksk::detail::quoted(index.name) +
                              " names a key attribute " + pksk::detail::quoted(untyped_column) +
                              ", the type column of a table without a type attribute");
    }
    if (iequals_ascii(spec.pk_attribute, untyped_column) ||
        iequals_ascii(spec.sk_attribute, untyped_column))
      throw ValidationError(context(spec.name) + "a key attribute is named " +
                            pksk::detail::quoted(untyped_column) +
                            ", the type column of a table without a type attribute");
  }
  for (std::size_t i = 0; i < 3; ++i) {
    const bool reserved = iequals_ascii(names[i], "body") || iequals_ascii(names[i], "size");
    bool duplicate = false;
    for (std::size_t j = 0; j < i; ++j) duplicate = duplicate || iequals_ascii(names[i], names[j]);
    if (!is_plain_identifier(names[i]) || reserved || duplicate) {
      throw ValidationError(
          context(spec.name) + "invalid " + roles[i] + " attribute name " +
          pksk::detail::quoted(names[i]) +
          ": key attribute names must be ASCII letters, digits or underscores, "
          "distinct from each other (whatever the letter case) and not body or size");
    }
  }
  // Index key attributes become columns too, and index names part of the SQLite index's name.
  std::vector<std::string_view> taken(std::begin(names), std::end(names));
  for (std::size_t i = 0; i < spec.indexes.size(); ++i) {
    const TableIndex& index = spec.indexes[i];
    if (!is_plain_identifier(index.name)) {
      throw ValidationError(context(spec.name) + "invalid index name " +
                            pksk::detail::quoted(index.name) +
                            ": only ASCII letters, digits and underscores are allowed");
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (iequals_ascii(spec.indexes[j].name, index.name)) {
        throw ValidationError(context(spec.name) + "two indexes are named " +
                              pksk::detail::quoted(index.name));
      }
    }
    if (spec.repeats_index_keys(i)) continue;  // its columns are the earlier index's
    for (const std::string* name : {&index.pk_attribute, &index.sk_attribute}) {
      bool duplicate = iequals_ascii(*name, "body") || iequals_ascii(*name, "size");
      for (std::string_view other : taken) duplicate = duplicate || iequals_ascii(*name, other);
      if (!is_plain_identifier(*name) || duplicate) {
        throw ValidationError(
            context(spec.name) + "index " + pksk::detail::quoted(index.name) +
            " has an invalid key attribute name " + pksk::detail::quoted(*name) +
            ": it must be ASCII letters, digits or underscores, distinct from every "
            "other key attribute (whatever the letter case) and not body or size");
      }
      taken.push_back(*name);
    }
  }
}

inline std::string quoted_identifier(std::string_view identifier) {
  std::string out;
  out.reserve(identifier.size() + 2);
  out += '"';
  out += identifier;
  out += '"';
  return out;
}

// A numeric sort key (TableOptions::sk_type) is an INTEGER column: its values are stored and
// compared as integers, so that the partition's B-tree holds them in numeric order, as DynamoDB
// does, and a key bound as text ("-5") is compared as the number it spells (column affinity).
inline std::string_view sk_column_type(const backend::TableSpec& spec) noexcept {
  return spec.sk_type == KeyType::number && !spec.sk_attribute.empty() ? "INTEGER" : "TEXT";
}

inline Columns columns_of(const backend::TableSpec& spec) {
  return {quoted_identifier(spec.pk_attribute), quoted_identifier(sk_column(spec)),
          quoted_identifier(type_column(spec))};
}

// The file's own metadata: the storage format it was written in, so that a later pksk can
// migrate it and an older one refuses a file it does not understand.
inline constexpr int storage_format_version = 1;

inline std::string create_metadata_sql() {
  return "CREATE TABLE IF NOT EXISTS pksk_meta (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT "
         "NULL) WITHOUT ROWID";
}

inline std::string index_column_sql(std::string_view attribute);

inline std::string index_columns_sql(const backend::TableSpec& spec) {
  std::string out;
  for (std::size_t i = 0; i < spec.indexes.size(); ++i) {
    if (spec.repeats_index_keys(i)) continue;
    out += index_column_sql(spec.indexes[i].pk_attribute) + ", ";
    out += index_column_sql(spec.indexes[i].sk_attribute) + ", ";
  }
  return out;
}

// BINARY collation (the default) compares with memcmp, i.e. in UTF-8 byte order, which is
// DynamoDB's order for string keys; WITHOUT ROWID makes the primary key the table's B-tree, so
// a partition is one contiguous range read in sort-key order. `size` is the item's DynamoDB
// size, which ends 1 MB pages without measuring items again. The hidden columns of a table
// without a type attribute or a sort key default to the '' they always hold, so that a row
// inserted by SQL (the sqlite3 shell, another program) need not name them; tables created
// before they had the default keep their NOT NULL columns and open all the same (the schema
// check reads no defaults).
inline std::string create_table_sql(const backend::TableSpec& spec, bool if_not_exists = false) {
  const Columns c = columns_of(spec);
  const auto hidden_default = [](bool hidden) { return hidden ? " DEFAULT ''" : ""; };
  return std::string(if_not_exists ? "CREATE TABLE IF NOT EXISTS " : "CREATE TABLE ") +
         quoted_identifier(spec.name) + " (" + c.pk + " TEXT NOT NULL, " + c.sk + ' ' +
         std::string(sk_column_type(spec)) + " NOT NULL" +
         hidden_default(spec.sk_attribute.empty()) + ", " + c.type + " TEXT NOT NULL" +
         hidden_default(spec.type_attribute.empty()) +
         ", body TEXT NOT NULL, size INTEGER NOT NULL, " + index_columns_sql(spec) +
         "PRIMARY KEY (" + c.pk + ", " + c.sk + ")) WITHOUT ROWID";
}

// An index's key columns are generated from the body, where Table writes the index keys as
// ordinary attributes (as DynamoDB holds them): every write path, SQL typed in the sqlite3 shell
// included, keeps the index right without pksk computing anything, and an item without the
// attributes has NULL there and is left out of the partial index (a sparse index). VIRTUAL
// columns take no space in the table and, unlike STORED ones, can be added to an existing one.
inline std::string index_column_sql(std::string_view attribute) {
  return quoted_identifier(attribute) + " TEXT GENERATED ALWAYS AS (json_extract(body, '$." +
         std::string(attribute) + "')) VIRTUAL";
}

inline std::string add_index_column_sql(const backend::TableSpec& spec,
                                        std::string_view attribute) {
  return "ALTER TABLE " + quoted_identifier(spec.name) + " ADD COLUMN " +
         index_column_sql(attribute);
}

// The SQLite index's name: "<table>:<index>", which no other pair of plain names can spell.
inline std::string index_name_of(const backend::TableSpec& spec, const TableIndex& index) {
  return spec.name + ":" + index.name;
}

// Partial: only items with both index keys are in it. The table's key columns are named last,
// though a WITHOUT ROWID table's index entries end with them anyway: so declared, the planner
// knows that entries sharing an index key are in (pk, sk) order, the order an index query pages
// in, and sorts nothing.
inline std::string create_index_sql(const backend::TableSpec& spec, const TableIndex& index) {
  const Columns c = columns_of(spec);
  const std::string ipk = quoted_identifier(index.pk_attribute);
  const std::string isk = quoted_identifier(index.sk_attribute);
  return "CREATE INDEX IF NOT EXISTS " + quoted_identifier(index_name_of(spec, index)) + " ON " +
         quoted_identifier(spec.name) + " (" + ipk + ", " + isk + ", " + c.pk + ", " + c.sk +
         ") WHERE " + ipk + " IS NOT NULL AND " + isk + " IS NOT NULL";
}

// An upsert: a put over a stored item changes its row in place. INSERT OR REPLACE deleted the
// row and inserted it again, which rewrites more of the B-tree (and so more WAL frames) for the
// same result. The index key columns are generated from the body, so SQLite recomputes them
// from the new body either way, and the partial indexes follow them; the file is the same.
inline std::string put_sql(const backend::TableSpec& spec) {
  const Columns c = columns_of(spec);
  return "INSERT INTO " + quoted_identifier(spec.name) + " (" + c.pk + ", " + c.sk + ", " + c.type +
         ", body, size) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (" + c.pk + ", " + c.sk +
         ") DO UPDATE SET " + c.type + " = excluded." + c.type +
         ", body = excluded.body, size = excluded.size";
}

// The write of an item just read in the same transaction (an update of a stored item): its
// row is there, so a plain UPDATE, with the same parameters as put_sql's.
inline std::string rewrite_sql(const backend::TableSpec& spec) {
  const Columns c = columns_of(spec);
  return "UPDATE " + quoted_identifier(spec.name) + " SET " + c.type +
         " = ?3, body = ?4, size = ?5 WHERE " + c.pk + " = ?1 AND " + c.sk + " = ?2";
}

inline std::string get_sql(const backend::TableSpec& spec) {
  const Columns c = columns_of(spec);
  return "SELECT " + c.type + ", body, size FROM " + quoted_identifier(spec.name) + " WHERE " +
         c.pk + " = ?1 AND " + c.sk + " = ?2";
}

inline std::string erase_sql(const backend::TableSpec& spec) {
  const Columns c = columns_of(spec);
  return "DELETE FROM " + quoted_identifier(spec.name) + " WHERE " + c.pk + " = ?1 AND " + c.sk +
         " = ?2";
}

// The smallest byte string greater than every string that starts with `prefix`, if any:
// trailing 0xFF bytes cannot be incremented, so they are dropped and the byte before them is.
// A prefix of 0xFF bytes only (or an empty one) has no such bound. The result need not be
// valid UTF-8 (e.g. "\xC3" + 1 = "\xC4" alone); it is only ever compared with memcmp.
inline std::optional<std::string> prefix_successor(std::string_view prefix) {
  std::string out(prefix);
  while (!out.empty() && static_cast<unsigned char>(out.back()) == 0xFF) out.pop_back();
  if (out.empty()) return std::nullopt;
  out.back() = static_cast<char>(static_cast<unsigned char>(out.back()) + 1);
  return out;
}

// The shapes of a query's WHERE clause: one per key-condition operator, with begins_with
// split on whether its prefix has an upper bound, so each shape is one fixed SQL text.
enum class RangeShape : unsigned char {
  any,
  eq,
  lt,
  le,
  gt,
  ge,
  between,
  prefix_bounded,    // sk >= ?2 AND sk < ?3
  prefix_unbounded,  // sk >= ?2
};
inline constexpr std::size_t range_shape_count = 9;
// Shape x direction x exclusive start x whether the size column is selected.
inline constexpr std::size_t query_variant_count = range_shape_count * 2 * 2 * 2;

inline std::size_t query_variant(RangeShape shape, bool forward, bool has_start,
                                 bool sized = true) noexcept {
  return ((static_cast<std::size_t>(shape) * 2 + (forward ? 0 : 1)) * 2 + (has_start ? 1 : 0)) * 2 +
         (sized ? 1 : 0);
}

// The sort-key terms of a query's WHERE clause, ?2 and ?3 their operands.
inline void append_range(std::string& sql, const std::string& sk, RangeShape shape) {
  switch (shape) {
    case RangeShape::any:
      break;
    case RangeShape::eq:
      sql += " AND " + sk + " = ?2";
      break;
    case RangeShape::lt:
      sql += " AND " + sk + " < ?2";
      break;
    case RangeShape::le:
      sql += " AND " + sk + " <= ?2";
      break;
    case RangeShape::gt:
      sql += " AND " + sk + " > ?2";
      break;
    case RangeShape::ge:
      sql += " AND " + sk + " >= ?2";
      break;
    case RangeShape::between:
      sql += " AND " + sk + " >= ?2 AND " + sk + " <= ?3";
      break;
    case RangeShape::prefix_bounded:
      sql += " AND " + sk + " >= ?2 AND " + sk + " < ?3";
      break;
    case RangeShape::prefix_unbounded:
      sql += " AND " + sk + " >= ?2";
      break;
  }
}

// Parameters: ?1 pk, ?2 the operand (or lower bound), ?3 the upper bound, ?4 the exclusive
// start. pk is not selected: the caller's pk is byte-equal to it. Unsized, the size column is
// left out too (a page reads it only once it could reach its byte budget).
inline std::string query_sql(const backend::TableSpec& spec, RangeShape shape, bool forward,
                             bool has_start, bool sized = true) {
  const Columns c = columns_of(spec);
  const std::string& sk = c.sk;
  std::string sql = "SELECT " + sk + ", " + c.type +
                    (sized ? ", body, size FROM " : ", body FROM ") + quoted_identifier(spec.name) +
                    " WHERE " + c.pk + " = ?1";
  append_range(sql, sk, shape);
  if (has_start) sql += forward ? " AND " + sk + " > ?4" : " AND " + sk + " < ?4";
  sql += forward ? " ORDER BY " + sk + " ASC" : " ORDER BY " + sk + " DESC";
  return sql;
}

// The summed size of the rows query_sql's statement of the same shape has read up to and
// including sort key ?5: its WHERE clause, bounded by ?5 in the direction of reading.
inline std::string read_size_sql(const backend::TableSpec& spec, RangeShape shape, bool forward,
                                 bool has_start) {
  const Columns c = columns_of(spec);
  const std::string& sk = c.sk;
  std::string sql = "SELECT coalesce(sum(size), 0) FROM " + quoted_identifier(spec.name) +
                    " WHERE " + c.pk + " = ?1";
  append_range(sql, sk, shape);
  if (has_start) sql += forward ? " AND " + sk + " > ?4" : " AND " + sk + " < ?4";
  sql += forward ? " AND " + sk + " <= ?5" : " AND " + sk + " >= ?5";
  return sql;
}

// An index query: ?1 the index pk, ?2 ?3 as in query_sql on the index sort key, ?4 ?5 ?6 the
// exclusive start (index sk, table pk, table sk; ?4 unused with eq). Items sharing an index key
// come in table-key order, so a page ends, and the next resumes, at one exact item. The table's
// keys are selected since they are not the caller's, and the index sk for the cursor.
inline std::string index_query_sql(const backend::TableSpec& spec, const TableIndex& index,
                                   RangeShape shape, bool forward, bool has_start) {
  const Columns c = columns_of(spec);
  const std::string ipk = quoted_identifier(index.pk_attribute);
  const std::string sk = quoted_identifier(index.sk_attribute);
  std::string sql = "SELECT " + c.pk + ", " + c.sk + ", " + c.type + ", body, size FROM " +
                    quoted_identifier(spec.name) + " INDEXED BY " +
                    quoted_identifier(index_name_of(spec, index)) + " WHERE " + ipk + " = ?1 AND " +
                    sk + " IS NOT NULL";
  append_range(sql, sk, shape);
  // With the index sort key fixed by eq, the start is a table key among its items: compared
  // as the whole row, the planner would sort what the index already orders.
  const bool fixed = shape == RangeShape::eq;
  const std::string row =
      fixed ? "(" + c.pk + ", " + c.sk + ")" : "(" + sk + ", " + c.pk + ", " + c.sk + ")";
  if (has_start) {
    sql += " AND " + row + (forward ? " > " : " < ") + (fixed ? "(?5, ?6)" : "(?4, ?5, ?6)");
  }
  const char* direction = forward ? " ASC" : " DESC";
  sql += " ORDER BY " + sk + direction + ", " + c.pk + direction + ", " + c.sk + direction;
  return sql;
}

// An item's index sort key, which only a page's cursor needs: selected with every row, it
// would cost each row a column.
inline std::string index_sort_key_sql(const backend::TableSpec& spec, const TableIndex& index) {
  const Columns c = columns_of(spec);
  return "SELECT " + quoted_identifier(index.sk_attribute) + " FROM " +
         quoted_identifier(spec.name) + " WHERE " + c.pk + " = ?1 AND " + c.sk + " = ?2";
}

// A scan in primary-key order, the order its pages resume in; ?1 ?2 the exclusive start key
// (a row value, which SQLite reads as a range of the primary key's B-tree).
inline std::string scan_sql(const backend::TableSpec& spec, bool has_start) {
  const Columns c = columns_of(spec);
  std::string sql = "SELECT " + c.pk + ", " + c.sk + ", " + c.type + ", body, size FROM " +
                    quoted_identifier(spec.name);
  if (has_start) sql += " WHERE (" + c.pk + ", " + c.sk + ") > (?1, ?2)";
  sql += " ORDER BY " + c.pk + ", " + c.sk;
  return sql;
}

}  // namespace pksk::sqlite::detail
