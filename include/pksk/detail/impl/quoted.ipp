// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definition of detail/quoted.hpp: inline through it in header-only mode, compiled once by
// <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <string>
#include <string_view>

#include "../quoted.hpp"
#include "../utf8.hpp"

namespace pksk::detail {

PKSK_DECL std::string quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  append_escaped(out, text);
  out += '\'';
  return out;
}

}  // namespace pksk::detail
