// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of detail/decode_row.hpp: inline through it in header-only mode, compiled
// once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <string_view>

#include "../../backend/backend.hpp"
#include "../../blob/blob_store.hpp"
#include "../../error.hpp"
#include "../detail/decode_row.hpp"
#include "../detail/messages.hpp"

namespace pksk::detail {

PKSK_DECL std::string decode_error_message(std::string_view table, const backend::ItemView& row,
                                           const DecodeError& error) {
  return table_context(table, "read", row.type) + "item " +
         key_text(backend::ItemKey{row.partition_key(), row.sort_key()}) + ", type " +
         detail::quoted(row.type) + ": " + std::string(without_origin(error.what()));
}

[[noreturn]] PKSK_DECL void throw_decode_error(std::string_view table, const backend::ItemView& row,
                                               const DecodeError& error) {
  // A blob member's missing or corrupt object keeps its own class.
  if (dynamic_cast<const BlobError*>(&error) != nullptr) {
    throw BlobError(decode_error_message(table, row, error));
  }
  throw DecodeError(decode_error_message(table, row, error));
}

PKSK_DECL void throw_wrong_type(std::string_view table, const backend::ItemView& row,
                                std::string_view type, std::string_view operation) {
  throw DecodeError(table_context(table, operation, type) + "item " +
                    key_text(backend::ItemKey{row.partition_key(), row.sort_key()}) +
                    " is of type " + detail::quoted(row.type));
}

}  // namespace pksk::detail
