#pragma once
// The SQL text of the SQLite backend and the pure key arithmetic behind it, kept apart from
// the connection code so that both can be tested and read on their own.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "../../backend/backend.hpp"
#include "../../error.hpp"
#include "../../key/condition.hpp"

namespace pksk::detail::sqlite {

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
    throw Error("pksk::sqlite: invalid table name \"" + std::string(name) +
                "\": only ASCII letters, digits and underscores are allowed");
  }
  if (iequals_ascii(name, "pksk_meta")) {
    throw Error(
        "pksk::sqlite: invalid table name \"pksk_meta\": pksk keeps the file's metadata "
        "there");
  }
  // SQLite reserves the prefix for its own tables (in any letter case) and would refuse to
  // create one; saying so here is clearer than its "object name reserved" error.
  if (name.size() >= 7 && iequals_ascii(name.substr(0, 7), "sqlite_")) {
    throw Error("pksk::sqlite: invalid table name \"" + std::string(name) +
                "\": the prefix sqlite_ is reserved by SQLite");
  }
}

// The columns of one pksk table, named as the spec names the key attributes.
struct Columns {
  std::string pk, sk, type;  // quoted identifiers
};

// Key attribute names become column names: plain identifiers, distinct (SQLite compares column
// names without case) and none of the backend's own columns.
inline void validate_attribute_names(const TableSpec& spec) {
  const std::string_view names[] = {spec.pk_attribute, spec.sk_attribute, spec.type_attribute};
  const char* roles[] = {"partition-key", "sort-key", "type"};
  for (std::size_t i = 0; i < 3; ++i) {
    const bool reserved = iequals_ascii(names[i], "body") || iequals_ascii(names[i], "size");
    bool duplicate = false;
    for (std::size_t j = 0; j < i; ++j) duplicate = duplicate || iequals_ascii(names[i], names[j]);
    if (!is_plain_identifier(names[i]) || reserved || duplicate) {
      throw Error("pksk::sqlite: table \"" + spec.name + "\": invalid " + roles[i] +
                  " attribute name \"" + std::string(names[i]) +
                  "\": key attribute names must be ASCII letters, digits or underscores, "
                  "distinct from each other (whatever the letter case) and not body or size");
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

inline Columns columns_of(const TableSpec& spec) {
  return {quoted_identifier(spec.pk_attribute), quoted_identifier(spec.sk_attribute),
          quoted_identifier(spec.type_attribute)};
}

// The file's own metadata: the storage format it was written in, so that a later pksk can
// migrate it and an older one refuses a file it does not understand.
inline constexpr int storage_format_version = 1;

inline std::string create_metadata_sql() {
  return "CREATE TABLE IF NOT EXISTS pksk_meta (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT "
         "NULL) WITHOUT ROWID";
}

// BINARY collation (the default) compares with memcmp, i.e. in UTF-8 byte order, which is
// DynamoDB's order for string keys; WITHOUT ROWID makes the primary key the table's B-tree, so
// a partition is one contiguous range read in sort-key order. `size` is the item's DynamoDB
// size, which ends 1 MB pages without measuring items again.
inline std::string create_table_sql(const TableSpec& spec, bool if_not_exists = false) {
  const Columns c = columns_of(spec);
  return std::string(if_not_exists ? "CREATE TABLE IF NOT EXISTS " : "CREATE TABLE ") +
         quoted_identifier(spec.name) + " (" + c.pk + " TEXT NOT NULL, " + c.sk +
         " TEXT NOT NULL, " + c.type +
         " TEXT NOT NULL, body TEXT NOT NULL, size INTEGER NOT NULL, PRIMARY KEY (" + c.pk + ", " +
         c.sk + ")) WITHOUT ROWID";
}

inline std::string put_sql(const TableSpec& spec) {
  const Columns c = columns_of(spec);
  return "INSERT OR REPLACE INTO " + quoted_identifier(spec.name) + " (" + c.pk + ", " + c.sk +
         ", " + c.type + ", body, size) VALUES (?1, ?2, ?3, ?4, ?5)";
}

inline std::string get_sql(const TableSpec& spec) {
  const Columns c = columns_of(spec);
  return "SELECT " + c.type + ", body, size FROM " + quoted_identifier(spec.name) + " WHERE " +
         c.pk + " = ?1 AND " + c.sk + " = ?2";
}

inline std::string erase_sql(const TableSpec& spec) {
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
// Shape x direction x exclusive start.
inline constexpr std::size_t query_variant_count = range_shape_count * 2 * 2;

inline std::size_t query_variant(RangeShape shape, bool forward, bool has_start) noexcept {
  return (static_cast<std::size_t>(shape) * 2 + (forward ? 0 : 1)) * 2 + (has_start ? 1 : 0);
}

// Parameters: ?1 pk, ?2 the operand (or lower bound), ?3 the upper bound, ?4 the exclusive
// start. pk is not selected: the caller's pk is byte-equal to it.
inline std::string query_sql(const TableSpec& spec, RangeShape shape, bool forward,
                             bool has_start) {
  const Columns c = columns_of(spec);
  const std::string& sk = c.sk;
  std::string sql = "SELECT " + sk + ", " + c.type + ", body, size FROM " +
                    quoted_identifier(spec.name) + " WHERE " + c.pk + " = ?1";
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
  if (has_start) sql += forward ? " AND " + sk + " > ?4" : " AND " + sk + " < ?4";
  sql += forward ? " ORDER BY " + sk + " ASC" : " ORDER BY " + sk + " DESC";
  return sql;
}

// A scan in primary-key order, the order its pages resume in; ?1 ?2 the exclusive start key
// (a row value, which SQLite reads as a range of the primary key's B-tree).
inline std::string scan_sql(const TableSpec& spec, bool has_start) {
  const Columns c = columns_of(spec);
  std::string sql = "SELECT " + c.pk + ", " + c.sk + ", " + c.type + ", body, size FROM " +
                    quoted_identifier(spec.name);
  if (has_start) sql += " WHERE (" + c.pk + ", " + c.sk + ") > (?1, ?2)";
  sql += " ORDER BY " + c.pk + ", " + c.sk;
  return sql;
}

}  // namespace pksk::detail::sqlite
