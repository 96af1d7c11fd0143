// SPDX-License-Identifier: BSL-1.0
#pragma once
// EntityCode<T>'s members (entity_code.hpp says why they are apart): the entity's keys, encoders
// and decoders, instantiated where they are used, or once with
// `template struct pksk::EntityCode<T>;`.

#include <charconv>
#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "../detail/json_writer.hpp"
#include "../detail/padded_buffer.hpp"
#include "../key/key.hpp"
#include "../key/stored_names.hpp"
#include "attribute_value_json.hpp"
#include "body_format.hpp"
#include "body_patch.hpp"
#include "decode.hpp"
#include "encode.hpp"
#include "entity_code.hpp"
#include "item_size.hpp"
#include "parsed_item.hpp"

namespace pksk {

template <class T>
void EntityCode<T>::format_keys(const T& item, std::string& pk, std::string& sk) {
  format_partition_key(item, pk);
  format_sort_key(item, sk);
}

template <class T>
std::size_t EntityCode<T>::encode_json(const T& item, const KeyAttributeSizes& keys,
                                       std::string& body) {
  return keys.total() + encode_body_sized(item, body);
}

template <class T>
std::size_t EntityCode<T>::encode_attribute_value(const T& item, const KeyAttributeSizes& keys,
                                                  std::string& body) {
  encode_attribute_values(item, body);
  return item_size(keys, item);
}

template <class T>
auto EntityCode<T>::decode_json(BodyDecoder& decoder, ParsedItem parsed, std::string_view text,
                                T& out, DecodeTarget target) -> Mask {
  return decoder.decode<BodyFormat::json>(parsed, text, out, target);
}

template <class T>
auto EntityCode<T>::decode_attribute_value(BodyDecoder& decoder, ParsedItem parsed,
                                           std::string_view text, T& out, DecodeTarget target)
    -> Mask {
  return decoder.decode<BodyFormat::attribute_value>(parsed, text, out, target);
}

template <class T>
auto EntityCode<T>::decode_selected_json(BodyDecoder& decoder, ParsedItem parsed,
                                         std::string_view text, T& out, const Mask& wanted)
    -> Mask {
  return decoder.decode_selected<BodyFormat::json>(parsed, text, out, wanted);
}

template <class T>
auto EntityCode<T>::decode_selected_attribute_value(BodyDecoder& decoder, ParsedItem parsed,
                                                    std::string_view text, T& out,
                                                    const Mask& wanted) -> Mask {
  return decoder.decode_selected<BodyFormat::attribute_value>(parsed, text, out, wanted);
}

template <class T>
bool EntityCode<T>::split_json(std::string_view body, std::span<const std::string_view> names,
                               backend::BodyPatch& patch, T& out, Mask& seen) {
  seen.reset();
  try {
    patch.parse_reading(
        body, names,
        [&](simdjson::ondemand::raw_json_string key, simdjson::ondemand::value& value) {
          detail::decode_keyed_member<detail::BodyReader>(
              key, value, out, seen, std::make_index_sequence<field_count_v<T>>{});
        });
    return true;
  } catch (const DecodeError&) {
    patch.parse(body, names);  // the body's own error, if it has one, as the backend reports it
    return false;
  }
}

namespace detail {

// A named member's value after an update, straight into a field of a scalar type where its
// value has that type: what decoding its JSON would give (a number's text read by from_chars,
// which rounds as simdjson does). False for anything else, which the caller decodes from JSON.
template <class F>
bool assign_plain_scalar(const AttributeValue& v, F& field) {
  if constexpr (std::is_same_v<F, std::string>) {
    if (v.kind != AttributeValue::Kind::string) return false;
    field.assign(v.text);
    return true;
  } else if constexpr (std::is_same_v<F, bool>) {
    if (v.kind != AttributeValue::Kind::boolean) return false;
    field = v.boolean;
    return true;
  } else if constexpr (std::is_same_v<F, double> || CodecInteger<F>) {
    if (v.kind != AttributeValue::Kind::number) return false;
    const char* const last = v.text.data() + v.text.size();
    F x{};
    const auto [end, error] = std::from_chars(v.text.data(), last, x);
    if (error != std::errc() || end != last) return false;
    if constexpr (std::is_same_v<F, double>) {
      if (!std::isfinite(x)) return false;
    }
    field = x;
    return true;
  } else {
    return false;
  }
}

}  // namespace detail

template <class T>
bool EntityCode<T>::finish_json(const AttributeValue& named, T& out, Mask& seen) {
  thread_local std::string json;
  thread_local simdjson::ondemand::parser parser;
  thread_local detail::PaddedBuffer buffer;
  json.clear();
  for (const auto& [name, value] : named.map) {
    // The field of that name, if the entity has one: a scalar assigned, anything else (or a
    // scalar field holding another kind of value) decoded from its JSON below.
    bool pending = false;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (void)((name == stored_names_v<T>[I] &&
              (detail::assign_plain_scalar(value, get_field<I>(out)) ? void(seen.set(I))
                                                                     : void(pending = true),
               true)) ||
             ...);
    }(std::make_index_sequence<field_count_v<T>>{});
    if (!pending) continue;
    json += json.empty() ? '{' : ',';
    detail::append_json_string(json, name);
    json += ':';
    append_plain_json(json, value);
  }
  if (!json.empty()) {
    json += '}';
    try {
      const std::string_view padded = buffer.assign(json);
      simdjson::ondemand::document document;
      simdjson::ondemand::object object;
      if (parser.iterate(padded.data(), padded.size(), buffer.padded_capacity()).get(document) ||
          document.get_object().get(object))
        return false;
      for (auto member : object) {
        simdjson::ondemand::field field;
        if (std::move(member).get(field)) return false;
        detail::decode_member<detail::BodyReader>(field, out, seen,
                                                  std::make_index_sequence<field_count_v<T>>{});
      }
    } catch (const detail::PathedFailure&) {
      return false;
    }
  }
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((seen.test(I) ? void() : void(get_field<I>(out) = get_field<I>(detail::default_record<T>()))),
     ...);
  }(std::make_index_sequence<field_count_v<T>>{});
  return true;
}

}  // namespace pksk
