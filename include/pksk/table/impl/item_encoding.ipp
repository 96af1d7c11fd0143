// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of detail/item_encoding.hpp that are not templates: inline through it in
// header-only mode, compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION. Each
// entity's write code calls them rather than carrying its own copy of the messages.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "../../backend/backend.hpp"
#include "../../codec/item_size.hpp"
#include "../../error.hpp"
#include "../detail/item_encoding.hpp"
#include "../detail/messages.hpp"

namespace pksk::detail {

PKSK_DECL void refuse_reserved_members(const backend::TableSpec& spec,
                                       std::span<const std::string_view> members,
                                       std::span<const std::string_view> stored,
                                       std::string_view type, std::string_view operation) {
  for (std::size_t i = 0; i < stored.size(); ++i) {
    const std::string_view member = stored[i];
    bool index_key = false;
    for (const TableIndex& index : spec.indexes) {
      index_key = index_key || member == index.pk_attribute || member == index.sk_attribute;
    }
    if (member == spec.pk_attribute || member == spec.sk_attribute ||
        member == spec.type_attribute || index_key) {
      const std::string stored_as =
          members[i] == member ? std::string() : " (stored as " + detail::quoted(member) + ")";
      throw ValidationError(table_context(spec.name, operation, type) + "the member " +
                            detail::quoted(members[i]) + stored_as +
                            " has the name of a key attribute, an index key attribute or the "
                            "type attribute; rename it or set TableOptions' attribute names");
    }
  }
}

PKSK_DECL void throw_ttl_not_the_tables(const backend::TableSpec& spec, std::string_view operation,
                                        std::string_view type, std::string_view member,
                                        std::string_view stored) {
  const std::string stored_as =
      member == stored ? std::string() : " (stored as " + detail::quoted(stored) + ")";
  throw ValidationError(
      table_context(spec.name, operation, type) + "the ttl member " + detail::quoted(member) +
      stored_as +
      (spec.ttl_attribute.empty()
           ? std::string(" expires nothing: the table has no ttl attribute")
           : " is not the table's ttl attribute " + detail::quoted(spec.ttl_attribute)) +
      "; set TableOptions::ttl_attribute to " + detail::quoted(stored));
}

PKSK_DECL void throw_key_error(const backend::TableSpec& spec, std::string_view operation,
                               std::string_view type, const KeyError& error) {
  throw KeyError(table_context(spec.name, operation, type) +
                 std::string(without_origin(error.what())));
}

PKSK_DECL void throw_encode_error(const backend::TableSpec& spec, std::string_view operation,
                                  std::string_view type, const Error& error) {
  std::string message =
      table_context(spec.name, operation, type) + std::string(without_origin(error.what()));
  if (error.code() == errc::validation) throw ValidationError(std::move(message));
  throw EncodeError(std::move(message));
}

PKSK_DECL void throw_item_too_large(const backend::TableSpec& spec, std::string_view operation,
                                    std::string_view type, std::string_view pk, std::string_view sk,
                                    std::size_t size) {
  throw ItemTooLarge(table_context(spec.name, operation, type) + "item " +
                     key_text(backend::ItemKey{pk, sk}) + " is " +
                     over_limit(size, max_item_bytes));
}

}  // namespace pksk::detail
