// SPDX-License-Identifier: BSL-1.0
#pragma once
// An object key compared with a name after undoing its JSON escapes: how the decoder matches a
// stored name that is not plain printable ASCII (a rename to "Total \"net\"" or "Größe"), which
// another writer may have escaped differently than pksk does. Plain names, every C++ member
// name among them, are compared with the key's raw bytes (codec/decode.hpp), which is faster.
// Library-wide: the SQLite backend's filter matches stored names with it too
// (sqlite/detail/filter.hpp).

#include <string_view>

#include <simdjson.h>

#include "config.hpp"

namespace pksk::detail {

// Whether `name` is printable ASCII with nothing JSON escapes: a key holding it is written as
// is by every writer, so its raw bytes can be compared.
constexpr bool is_plain_json_name(std::string_view name) noexcept {
  for (const char c : name) {
    if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') return false;
  }
  return true;
}

// Whether the JSON string content at `raw` (up to its closing quote, which the parser has
// found) unescapes to exactly `name`. Malformed escapes compare unequal.
PKSK_DECL bool raw_json_key_equals(const char* raw, std::string_view name) noexcept;

// Whether an object's key is `name`, which is_plain_json_name says `plain` of.
inline bool json_key_is(const simdjson::ondemand::raw_json_string& key, std::string_view name,
                        bool plain) noexcept {
  return plain ? key.unsafe_is_equal(name) : raw_json_key_equals(key.raw(), name);
}

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/json_key.ipp"
#endif
