// SPDX-License-Identifier: BSL-1.0
#pragma once
// CursorSigner's definitions: inline through cursor_signing.hpp in header-only mode, compiled
// once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <string>
#include <string_view>
#include <utility>

#include "../../detail/hmac_sha256.hpp"
#include "../../error.hpp"
#include "../../key/condition.hpp"
#include "../cursor_signing.hpp"
#include "../detail/messages.hpp"

namespace pksk::detail {

PKSK_DECL Cursor CursorSigner::make(std::string index, std::string pk, std::string sk,
                                    std::string item_pk, std::string item_sk) const {
  Cursor cursor{std::move(index),   std::move(pk),     std::move(sk), std::string(table_), {},
                std::move(item_pk), std::move(item_sk)};
  if (!key_.empty()) cursor.signature = signature_of(cursor);
  return cursor;
}

PKSK_DECL void CursorSigner::check_origin(const Cursor& cursor) const {
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

PKSK_DECL void CursorSigner::check(const Cursor& cursor, const PartitionKey& pk,
                                   const KeyCondition* condition, const TableIndex* index) const {
  check_origin(cursor);
  const std::string_view expected = index ? std::string_view(index->name) : std::string_view();
  if (cursor.index != expected) {
    throw ValidationError("pksk table " + detail::quoted(table_) + ": the cursor belongs to " +
                          (cursor.index.empty() ? std::string("the table")
                                                : "index " + detail::quoted(cursor.index)) +
                          ", not to " +
                          (index ? "index " + detail::quoted(expected) : std::string("the table")));
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

PKSK_DECL std::string CursorSigner::signature_of(const Cursor& cursor) const {
  const Sha256Digest mac = hmac_sha256(key_, cursor.signed_bytes());
  return std::string(reinterpret_cast<const char*>(mac.data()), mac.size());
}

}  // namespace pksk::detail
