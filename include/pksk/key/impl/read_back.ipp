// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of read_back.hpp: inline through it in header-only mode, compiled once by
// <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <string>
#include <string_view>

#include "../../detail/utf8.hpp"
#include "../../error.hpp"
#include "../read_back.hpp"

namespace pksk::detail {

PKSK_DECL void throw_key_shape_error(std::string_view entity, std::string_view key_template,
                                     KeyRole role, std::string_view key, std::string_view index) {
  std::string msg = "the ";
  msg.append(role == KeyRole::partition ? "partition" : "sort").append(" key \"");
  append_escaped(msg, key);
  msg.append("\"");
  if (!index.empty()) msg.append(" in index '").append(index).append("'");
  msg.append(" does not match ").append(entity).append("'s ");
  if (!index.empty()) msg.append("index ");
  msg.append("key template \"");
  msg.append(key_template).append("\", so the key members the item does not store cannot be ");
  msg.append("read from it");
  throw DecodeError(msg);
}

PKSK_DECL void throw_member_not_stored(std::string_view entity, std::string_view member) {
  std::string msg = "pksk: ";
  msg.append(entity).append(".").append(member);
  msg.append(" is kept only in the item's key (Entity<T>::store_key_members = false), not as an ");
  msg.append("attribute: a filter, condition or update cannot name it (a query's sort-key ");
  msg.append("condition reaches it)");
  throw ValidationError(msg);
}

}  // namespace pksk::detail
