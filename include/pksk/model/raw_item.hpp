// SPDX-License-Identifier: BSL-1.0
#pragma once
// RawItem: a stored item as it is, undecoded. An ItemCollection keeps one for an item of a type
// it does not know (or that did not decode, with keep_undecodable), and a ConditionFailed for
// the item a write's condition was checked against (pksk::return_stored_on_failure).
// decode_body<T>(raw) decodes one into an entity.

#include <string>

#include "../codec/body_format.hpp"

namespace pksk {

// An item as stored, undecoded: of a type no member of the collection has, or one that did not
// decode (keep_undecodable).
struct RawItem {
  // Its partition key.
  std::string pk{};
  // Its sort key.
  std::string sk{};
  // Its type attribute's value.
  std::string type{};
  std::string json{};  // the item's body, in `format`
  // How json is written: JSON text, or DynamoDB AttributeValue JSON.
  BodyFormat format = BodyFormat::json;
  // Empty for an item whose type is no member's. For an item of a member type that did not
  // decode, read with keep_undecodable: the DecodeError's message.
  std::string error{};

  friend bool operator==(const RawItem&, const RawItem&) = default;
};

}  // namespace pksk
