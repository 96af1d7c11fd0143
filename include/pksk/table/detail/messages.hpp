// SPDX-License-Identifier: BSL-1.0
#pragma once
// How the Table layer's error messages name what they are about: the table, the operation, the
// entity type, and keys or names quoted so that bytes a terminal would not show are escaped.

#include <string>
#include <string_view>

#include "../../detail/utf8.hpp"

namespace pksk::detail {

// A key or name in an error message, quoted, with bytes a terminal would not show escaped:
// keys read back from a store are not trusted to be printable.
inline std::string quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  append_escaped(out, text);
  out += '\'';
  return out;
}

// The start of an error message about one operation on one entity type of a table.
inline std::string table_context(std::string_view table, std::string_view operation,
                                 std::string_view type) {
  return "pksk table " + detail::quoted(table) + ", " + std::string(operation) + " " +
         std::string(type) + ": ";
}

}  // namespace pksk::detail
