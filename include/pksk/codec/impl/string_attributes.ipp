// SPDX-License-Identifier: BSL-1.0
#pragma once
// read_two_string_attributes' definition: inline through string_attributes.hpp in
// header-only mode, compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <string>
#include <string_view>

#include <simdjson.h>

#include "../../detail/padded_buffer.hpp"
#include "../../error.hpp"
#include "../string_attributes.hpp"

namespace pksk::detail {

PKSK_DECL bool read_two_string_attributes(BodyFormat format, ParsedItem live, std::string_view body,
                                          std::string_view first_name, std::string_view second_name,
                                          std::string& first, std::string& second) {
  namespace ondemand = simdjson::ondemand;
  first.clear();
  second.clear();
  if (live && body.empty()) {
    // The decoder has read the object to its end: rewound, its text is found again.
    if (auto error = static_cast<ondemand::object*>(live.get())->reset().error()) [[unlikely]] {
      throw DecodeError(std::string("pksk: an item that is not JSON (") +
                        simdjson::error_message(error) + ")");
    }
  }
  const std::string_view text = item_text(live, body);
  // Its own parser: the caller's may still be reading the answer the item is part of.
  thread_local ondemand::parser parser;
  thread_local PaddedBuffer buffer;
  const std::string_view padded = buffer.assign(text);
  ondemand::document document;
  ondemand::object object;
  if (parser.iterate(padded.data(), padded.size(), buffer.padded_capacity()).get(document) ||
      document.get_object().get(object))
    return false;
  bool found_first = false;
  bool found_second = second_name.empty();
  for (auto member : object) {
    ondemand::field field;
    std::string_view name;
    if (std::move(member).get(field) || field.unescaped_key().get(name)) return false;
    std::string* out = name == first_name                            ? &first
                       : !second_name.empty() && name == second_name ? &second
                                                                     : nullptr;
    if (out == nullptr) continue;
    ondemand::value value = field.value();
    std::string_view text_value;
    const bool failed =
        format == BodyFormat::attribute_value
            ? value.find_field_unordered("S").get_string().get(text_value) != simdjson::SUCCESS
            : value.get_string().get(text_value) != simdjson::SUCCESS;
    if (failed) return false;
    out->assign(text_value);
    (out == &first ? found_first : found_second) = true;
    if (found_first && found_second) break;
  }
  return found_first;
}

}  // namespace pksk::detail
