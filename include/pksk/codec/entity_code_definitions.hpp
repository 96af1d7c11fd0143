// SPDX-License-Identifier: BSL-1.0
#pragma once
// EntityCode<T>'s members (entity_code.hpp says why they are apart): the entity's keys, encoders
// and decoders, instantiated where they are used, or once with
// `template struct pksk::EntityCode<T>;`.

#include <cstddef>
#include <string>
#include <string_view>

#include "../key/key.hpp"
#include "body_format.hpp"
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
void EntityCode<T>::decode_json(BodyDecoder& decoder, ParsedItem parsed, std::string_view text,
                                T& out) {
  decoder.decode<BodyFormat::json>(parsed, text, out);
}

template <class T>
void EntityCode<T>::decode_attribute_value(BodyDecoder& decoder, ParsedItem parsed,
                                           std::string_view text, T& out) {
  decoder.decode<BodyFormat::attribute_value>(parsed, text, out);
}

template <class T>
void EntityCode<T>::decode_selected_json(BodyDecoder& decoder, ParsedItem parsed,
                                         std::string_view text, T& out, const Mask& wanted) {
  decoder.decode_selected<BodyFormat::json>(parsed, text, out, wanted);
}

template <class T>
void EntityCode<T>::decode_selected_attribute_value(BodyDecoder& decoder, ParsedItem parsed,
                                                    std::string_view text, T& out,
                                                    const Mask& wanted) {
  decoder.decode_selected<BodyFormat::attribute_value>(parsed, text, out, wanted);
}

}  // namespace pksk
