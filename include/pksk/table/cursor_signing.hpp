// SPDX-License-Identifier: BSL-1.0
#pragma once
// Where a Table's cursors come from and whether one may be trusted: a cursor names its table
// (and index), and from a table with a cursor_key it carries an HMAC-SHA256 of its fields, so
// that a client cannot steer a query by editing a page token (TableOptions::cursor_key). The
// cursor itself and its text form are in query.hpp.

#include <string>
#include <string_view>
#include <utility>

#include "../config.hpp"
#include "../detail/hmac_sha256.hpp"
#include "../error.hpp"
#include "../key/condition.hpp"
#include "../key/key.hpp"
#include "detail/messages.hpp"
#include "query.hpp"

namespace pksk::detail {

// Makes and checks the cursors of one table. Views the table's name and cursor_key: made on the
// fly from the Table that owns them, never kept.
class CursorSigner {
 public:
  CursorSigner(std::string_view table, std::string_view cursor_key) noexcept
      : table_(table), key_(cursor_key) {}

  // A cursor of this table, signed when the table has a cursor_key.
  Cursor make(std::string index, std::string pk, std::string sk, std::string item_pk = {},
              std::string item_sk = {}) const {
    Cursor cursor{std::move(index),   std::move(pk),     std::move(sk), std::string(table_), {},
                  std::move(item_pk), std::move(item_sk)};
    if (!key_.empty()) cursor.signature = signature_of(cursor);
    return cursor;
  }

  // The cursor was made by this table: its name, and its signature under the cursor_key.
  void check_origin(const Cursor& cursor) const {
    if (!key_.empty()) {
      if (!equal_in_constant_time(cursor.signature, signature_of(cursor))) {
        throw ValidationError("pksk table " + detail::quoted(table_) +
                              (cursor.signature.empty()
                                   ? ": the cursor is not signed, and this table signs its cursors"
                                   : ": the cursor's signature does not verify (edited, forged "
                                     "or signed with another key)"));
      }
    }
    if (cursor.table != table_) {
      throw ValidationError("pksk table " + detail::quoted(table_) +
                            ": the cursor belongs to table " + detail::quoted(cursor.table));
    }
  }

  // A query's cursor: of this table, of the index queried (or the table), of the partition
  // queried, and inside the query's key condition.
  void check(const Cursor& cursor, const PartitionKey& pk, const KeyCondition* condition,
             const TableIndex* index) const {
    check_origin(cursor);
    const std::string_view expected = index ? std::string_view(index->name) : std::string_view();
    if (cursor.index != expected) {
      throw ValidationError(
          "pksk table " + detail::quoted(table_) + ": the cursor belongs to " +
          (cursor.index.empty() ? std::string("the table")
                                : "index " + detail::quoted(cursor.index)) +
          ", not to " + (index ? "index " + detail::quoted(expected) : std::string("the table")));
    }
    if (index && (cursor.item_pk.empty() || cursor.item_sk.empty())) {
      throw ValidationError("pksk table " + detail::quoted(table_) +
                            ": the index cursor has no table key of its last item");
    }
    if (cursor.pk != pk.value) {
      throw ValidationError("pksk table " + detail::quoted(table_) +
                            ": the cursor belongs to partition " + detail::quoted(cursor.pk) +
                            ", not to " + detail::quoted(pk.value));
    }
    // DynamoDB rejects an ExclusiveStartKey outside the query's key condition.
    if (condition && !matches(*condition, cursor.sk)) {
      throw ValidationError("pksk table " + detail::quoted(table_) + ": the cursor's sort key " +
                            detail::quoted(cursor.sk) + " is outside the query's key condition");
    }
  }

 private:
  // The signature the cursor's fields get under the table's cursor_key.
  std::string signature_of(const Cursor& cursor) const {
    const Sha256Digest mac = hmac_sha256(key_, cursor.signed_bytes());
    return std::string(reinterpret_cast<const char*>(mac.data()), mac.size());
  }

  std::string_view table_;
  std::string_view key_;
};

}  // namespace pksk::detail
