// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of backend/messages.hpp: inline through it in header-only mode,
// compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <cstddef>
#include <string>
#include <string_view>

#include "../messages.hpp"

namespace pksk::detail {

PKSK_DECL std::string backend_context(std::string_view backend, std::string_view table,
                                      std::string_view operation) {
  std::string out = "pksk table " + quoted(table) + " (" + std::string(backend) + ")";
  if (!operation.empty()) {
    out += ", ";
    out += operation;
  }
  out += ": ";
  return out;
}

PKSK_DECL std::string key_text(backend::ItemKey key) {
  return "pk " + quoted(key.pk) + ", sk " + quoted(key.sk);
}

PKSK_DECL std::string over_limit(std::size_t size, std::size_t limit) {
  return std::to_string(size) + " bytes, over DynamoDB's limit of " + std::to_string(limit);
}

}  // namespace pksk::detail
