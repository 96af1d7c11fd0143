// SPDX-License-Identifier: BSL-1.0
#pragma once
// item_text's definition: inline through parsed_item.hpp in header-only mode, compiled once by
// <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <string_view>

#include "../parsed_item.hpp"

namespace pksk::detail {

PKSK_DECL std::string_view item_text(ParsedItem live, std::string_view body) {
  if (!live || !body.empty()) return body;
  return live.raw_json();
}

}  // namespace pksk::detail
