// SPDX-License-Identifier: BSL-1.0
#pragma once
// item_text's definition: inline through parsed_item.hpp in header-only mode, compiled once by
// <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <string>
#include <string_view>

#include <simdjson.h>

#include "../../error.hpp"
#include "../parsed_item.hpp"

namespace pksk::detail {

PKSK_DECL std::string_view item_text(ParsedItem live, std::string_view body) {
  if (!live || !body.empty()) return body;
  std::string_view text;
  if (auto error = static_cast<simdjson::ondemand::object*>(live.get())->raw_json().get(text))
      [[unlikely]] {
    throw DecodeError("pksk: an item that is not JSON (" +
                      std::string(simdjson::error_message(error)) + ")");
  }
  return text;
}

}  // namespace pksk::detail
