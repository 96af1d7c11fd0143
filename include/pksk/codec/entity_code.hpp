// SPDX-License-Identifier: BSL-1.0
#pragma once
// EntityCode<T>: everything pksk compiles for one entity type (its keys, its encoders, its two
// decoders and its size by DynamoDB's measure) behind one class template, so that a program can
// compile it once, in the entity's own translation unit, as protobuf's .pb.cc compiles a
// message's code:
//
//   // order.hpp: the entity, and a promise that its code is compiled elsewhere
//   template <> struct pksk::Entity<Order> { ... };
//   extern template struct pksk::EntityCode<Order>;
//   // order.cpp: the one translation unit that compiles it
//   #include "order.hpp"
//   template struct pksk::EntityCode<Order>;
//
// Every other translation unit then calls Order's code out of line, once per item (a decode,
// an encode), while all the inlining that makes a decoder fast stays inside the decoder. Without
// the pair nothing changes: the members are instantiated where they are used, as any template.
//
// The members are defined outside the class and not inline on purpose: an explicit
// instantiation declaration only keeps non-inline members out of the translation units that
// see it. Their definitions are in entity_code_definitions.hpp, which this header includes in
// header-only mode; with PKSK_SEPARATE_COMPILATION it does not, so that the translation units
// that only call an entity's code parse no JSON reader, and the entity's own translation unit
// includes <pksk/entity_code.hpp>, which has them.

#include <bitset>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "../reflect/reflect.hpp"
#include "body_format.hpp"
#include "decode_target.hpp"
#include "item_size.hpp"
#include "parsed_item.hpp"

namespace pksk {

class BodyDecoder;
namespace backend {
class BodyPatch;  // body_patch.hpp
}

namespace detail {
// Whether a format given as a run-time BodyFormat (either) or as
// std::integral_constant<BodyFormat, F> (a backend's constant: F only) may be `format`: the
// functions of a format it cannot be are not named, so not instantiated.
template <class Format, BodyFormat format>
inline constexpr bool may_be_format =
    std::is_same_v<Format, BodyFormat> ||
    std::is_same_v<Format, std::integral_constant<BodyFormat, format>>;
}  // namespace detail

// The code an entity T's reads and writes run: keys, encoding and decoding in either body
// format, defined out of the class so that a program can compile it once, in the entity's own
// translation unit (extern template: this header's description).
template <class T>
struct EntityCode {
  // One bit per field of T, in reflect order.
  using Mask = std::bitset<field_count_v<T>>;

  // The item's partition and sort keys, by its key templates (KeyError for a value that cannot
  // be part of a key).
  // Throws: KeyError, as said.
  // Exception safety: basic: pk and sk are unspecified on an exception.
  static void format_keys(const T& item, std::string& pk, std::string& sk);

  // The three below take the format as a BodyFormat, known at run time (AnyBackend), or as a
  // std::integral_constant<BodyFormat, F> when the backend's format is a constant: then only
  // that format's function is called, and only it is instantiated where the entity's code is
  // not compiled apart.

  // The item's body in `format` into `body` (its capacity reused), and the item's size by
  // DynamoDB's measure with the key attributes `keys` names: both from one traversal where the
  // format allows it.
  // Throws: EncodeError for a value that cannot be stored.
  // Exception safety: basic: body is unspecified on an exception.
  template <class Format>
  static std::size_t encode(Format format, const T& item, const KeyAttributeSizes& keys,
                            std::string& body) {
    if constexpr (detail::may_be_format<Format, BodyFormat::json>) {
      if (format == BodyFormat::json) return encode_json(item, keys, body);
    }
    if constexpr (detail::may_be_format<Format, BodyFormat::attribute_value>) {
      return encode_attribute_value(item, keys, body);
    } else {
      return 0;  // not reached: the format was json
    }
  }
  // Decodes an item's body of `format` into `out`: `parsed` when the backend parsed it already,
  // else `text`. DecodeError names the JSON path. Returns the members the body had: the others
  // took their default value (a key member among them is read back from the item's key by
  // the caller, key/read_back.hpp).
  // Throws: DecodeError naming the JSON path.
  // Exception safety: basic: on an exception, out holds the fields decoded before it.
  template <class Format>
  static Mask decode(Format format, BodyDecoder& decoder, ParsedItem parsed, std::string_view text,
                     T& out, DecodeTarget target = DecodeTarget::reused) {
    if constexpr (detail::may_be_format<Format, BodyFormat::json>) {
      if (format == BodyFormat::json) return decode_json(decoder, parsed, text, out, target);
    }
    if constexpr (detail::may_be_format<Format, BodyFormat::attribute_value>) {
      return decode_attribute_value(decoder, parsed, text, out, target);
    } else {
      return {};  // not reached: the format was json
    }
  }
  // As decode, only the members set in `wanted` (a projection); the others keep their values.
  // Throws: DecodeError naming the JSON path.
  // Exception safety: basic: on an exception, out holds the fields decoded before it.
  template <class Format>
  static Mask decode_selected(Format format, BodyDecoder& decoder, ParsedItem parsed,
                              std::string_view text, T& out, const Mask& wanted) {
    if constexpr (detail::may_be_format<Format, BodyFormat::json>) {
      if (format == BodyFormat::json)
        return decode_selected_json(decoder, parsed, text, out, wanted);
    }
    if constexpr (detail::may_be_format<Format, BodyFormat::attribute_value>) {
      return decode_selected_attribute_value(decoder, parsed, text, out, wanted);
    } else {
      return {};  // not reached: the format was json
    }
  }

  // An update's result read while a backend patches the stored plain JSON body
  // (backend::UpdateReader): split_json splits `body` into `patch` as patch.parse(body, names)
  // does, decoding the members the patch keeps into `out` on the way (`seen`: which fields it
  // decoded); finish_json decodes the named members as the update left them and gives the
  // fields no member named their default value. Each returns false when it could not decode
  // (split_json then splits the body as parse does, throwing the DecodeError parse throws): the
  // caller decodes the written body instead, which reports the error as a decode of it always
  // did.
  // Throws: DecodeError from split_json, as said.
  // Exception safety: basic: out and seen hold what was decoded before the failure.
  static bool split_json(std::string_view body, std::span<const std::string_view> names,
                         backend::BodyPatch& patch, T& out, Mask& seen);
  // See split_json.
  // Throws: only std::bad_alloc (a member that does not decode makes it return false).
  // Exception safety: basic: out and seen hold what was decoded before the failure.
  static bool finish_json(const AttributeValue& named, T& out, Mask& seen);

  // One function per format, each compiled as the format's own code: the three above only
  // choose (inline, so that a backend's constant format chooses at compile time).
  // encode for plain JSON.
  // Throws: EncodeError for a value that cannot be stored.
  // Exception safety: basic: body is unspecified on an exception.
  static std::size_t encode_json(const T& item, const KeyAttributeSizes& keys, std::string& body);
  // encode for AttributeValue JSON.
  // Throws: EncodeError for a value that cannot be stored.
  // Exception safety: basic: body is unspecified on an exception.
  static std::size_t encode_attribute_value(const T& item, const KeyAttributeSizes& keys,
                                            std::string& body);
  // decode of plain JSON.
  // Throws: DecodeError naming the JSON path.
  // Exception safety: basic: on an exception, out holds the fields decoded before it.
  static Mask decode_json(BodyDecoder& decoder, ParsedItem parsed, std::string_view text, T& out,
                          DecodeTarget target);
  // decode of AttributeValue JSON.
  // Throws: DecodeError naming the JSON path.
  // Exception safety: basic: on an exception, out holds the fields decoded before it.
  static Mask decode_attribute_value(BodyDecoder& decoder, ParsedItem parsed, std::string_view text,
                                     T& out, DecodeTarget target);
  // decode_selected of plain JSON.
  // Throws: DecodeError naming the JSON path.
  // Exception safety: basic: on an exception, out holds the fields decoded before it.
  static Mask decode_selected_json(BodyDecoder& decoder, ParsedItem parsed, std::string_view text,
                                   T& out, const Mask& wanted);
  // decode_selected of AttributeValue JSON.
  // Throws: DecodeError naming the JSON path.
  // Exception safety: basic: on an exception, out holds the fields decoded before it.
  static Mask decode_selected_attribute_value(BodyDecoder& decoder, ParsedItem parsed,
                                              std::string_view text, T& out, const Mask& wanted);
};

}  // namespace pksk

#ifndef PKSK_SEPARATE_COMPILATION
#include "entity_code_definitions.hpp"
#endif
