// SPDX-License-Identifier: BSL-1.0
#pragma once
// ParsedItem: an item its backend has already parsed (an item inside a DynamoDB answer), handed
// to the codec to be read where it lies instead of parsed again. Opaque on purpose: the backend
// contract carries it without knowing the JSON parser; only the codec (decode.hpp) and the
// backend that made it open it.

#include <string_view>

#include "../detail/config.hpp"

namespace pksk {

// An item a backend hands over already open in its parser (a simdjson On-Demand object of a
// DynamoDB answer), type-erased so that the contract does not include simdjson; or none.
class ParsedItem {
 public:
  // Reads the object to its end and gives its JSON text (DecodeError if it is not JSON).
  using RawJson = std::string_view (*)(void* object);

  // No parsed item: the body's text is decoded instead.
  // Throws: nothing.
  // Exception safety: nothrow.
  ParsedItem() = default;
  // The simdjson::ondemand::object at `object`, which must outlive the call it is handed to, and
  // the parser's function that gives its text.
  // Throws: nothing.
  // Exception safety: nothrow.
  ParsedItem(void* object, RawJson raw_json) noexcept : object_(object), raw_json_(raw_json) {}
  // The object, or null.
  // Throws: nothing.
  // Exception safety: nothrow.
  void* get() const noexcept { return object_; }
  // Whether there is a parsed item.
  // Throws: nothing.
  // Exception safety: nothrow.
  explicit operator bool() const noexcept { return object_ != nullptr; }
  // The parser's own code, given by whoever parsed the item, so that the backend contract
  // compiles without the parser's headers.
  // Throws: DecodeError if the object is not JSON.
  // Exception safety: basic: the object has been read to its end.
  std::string_view raw_json() const { return raw_json_(object_); }

 private:
  void* object_ = nullptr;
  RawJson raw_json_ = nullptr;
};

namespace detail {
// An item's text: `body`, or for an item a backend hands over parsed with no body (a DynamoDB
// answer's item, whose end is only known once it was read), the parsed object's raw JSON. That
// reads the object to its end: only for an item that is not decoded, or rewound after.
PKSK_DECL std::string_view item_text(ParsedItem live, std::string_view body);
}  // namespace detail

}  // namespace pksk

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/parsed_item.ipp"
#endif
