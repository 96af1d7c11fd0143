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
#include "../detail/config.hpp"
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
  PKSK_DECL Cursor make(std::string index, std::string pk, std::string sk, std::string item_pk = {},
                        std::string item_sk = {}) const;

  // The cursor was made by this table: its name, and its signature under the cursor_key.
  PKSK_DECL void check_origin(const Cursor& cursor) const;

  // A query's cursor: of this table, of the index queried (or the table), of the partition
  // queried, and inside the query's key condition.
  PKSK_DECL void check(const Cursor& cursor, const PartitionKey& pk, const KeyCondition* condition,
                       const TableIndex* index) const;

 private:
  // The signature the cursor's fields get under the table's cursor_key.
  PKSK_DECL std::string signature_of(const Cursor& cursor) const;

  std::string_view table_;
  std::string_view key_;
};

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/cursor_signing.ipp"
#endif
