// SPDX-License-Identifier: BSL-1.0
#pragma once
// Reading DynamoDB's answers where they lie: the keys and type of an item, an item handed to the
// decoder in place, a page's last evaluated key, and an item's attributes as a tree.

#include <simdjson.h>

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "../../backend/backend.hpp"
#include "../../codec/attribute_value_read.hpp"
#include "../../codec/codec.hpp"
#include "../../error.hpp"

namespace pksk::dynamodb::detail {

// The string of a {"S":"..."} attribute. When "S" is the first key, as DynamoDB writes it,
// find_field takes it at once; otherwise the object is searched.
inline std::string_view string_attribute(simdjson::ondemand::value value) {
  std::string_view out;
  const char* text = value.raw_json_token().data();
  const bool first = text[0] == '{' && text[1] == '"' && text[3] == '"';
  // A sort key that is a number (TableOptions::sk_type) is read as its decimal text.
  simdjson::error_code error{};
  if (first && text[2] == 'S') {
    error = value.find_field("S").get_string().get(out);
  } else if (first && text[2] == 'N') {
    error = value.find_field("N").get_string().get(out);
  } else {
    error = value.find_field_unordered("S").get_string().get(out);
    if (error == simdjson::NO_SUCH_FIELD)
      error = value.find_field_unordered("N").get_string().get(out);
  }
  if (error) {
    throw BackendError(errc::backend_failure,
                       std::string("pksk::dynamodb: a key attribute that is not a string: ") +
                           simdjson::error_message(error));
  }
  return out;
}

// Whether an attribute name reads the same escaped as JSON: compared then with the key's raw
// text, as the codec compares member names, without unescaping it into simdjson's buffer.
inline bool is_plain_json_name(std::string_view name) noexcept {
  for (const char c : name) {
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) return false;
  }
  return true;
}

// Reads the string (or number) attributes named names[i] into *out[i], in one pass over the
// attribute names, compared raw, which ends as soon as all are found: DynamoDB writes attributes in
// no fixed order, but the pass skips only what comes before them. An empty name is not looked for.
inline void read_string_attributes(simdjson::ondemand::object& item,
                                   const std::string_view (&names)[3],
                                   std::string_view* const (&out)[3]) {
  const bool plain =
      is_plain_json_name(names[0]) && is_plain_json_name(names[1]) && is_plain_json_name(names[2]);
  unsigned found = 0;  // bit i: names[i] read
  unsigned wanted = 0;
  for (unsigned i = 0; i < 3; ++i) wanted |= names[i].empty() ? 0u : 1u << i;
  for (auto member : item) {
    simdjson::ondemand::field field;
    if (std::move(member).get(field)) {
      throw BackendError(errc::backend_failure,
                         "pksk::dynamodb: an item whose attributes do not parse");
    }
    const simdjson::ondemand::raw_json_string key = field.key();
    std::string_view unescaped;
    if (!plain && field.unescaped_key().get(unescaped)) {
      throw BackendError(errc::backend_failure,
                         "pksk::dynamodb: an item whose attributes do not parse");
    }
    for (unsigned i = 0; i < 3; ++i) {
      if ((wanted & ~found & (1u << i)) == 0) continue;
      // Raw: the first byte (a key is quoted, so it is readable even when empty), then the rest.
      const bool match = plain ? *key.raw() == names[i][0] && key.unsafe_is_equal(names[i])
                               : unescaped == names[i];
      if (match) {
        *out[i] = string_attribute(field.value());
        found |= 1u << i;
        break;
      }
    }
    if (found == wanted) break;
  }
}

// The keys and the type of an item (or of a key: UnprocessedKeys) as a backend::ItemView. body is
// left empty (item_text gives it when needed); size is left 0: DynamoDB pages by its own measure.
inline backend::ItemView key_view(simdjson::ondemand::object& item,
                                  const backend::TableSpec& spec) {
  backend::ItemView view;
  read_string_attributes(item, {spec.pk_attribute, spec.sk_attribute, spec.type_attribute},
                         {&view.pk, &view.sk, &view.type});
  return view;
}

// Where a page of a query or scan stopped: a LastEvaluatedKey's table key, and for an index
// query the item's sort key in the index.
struct LastKey {
  std::string_view pk, sk, index_sk;
};

inline LastKey last_key(simdjson::ondemand::object& key, const backend::TableSpec& spec,
                        const TableIndex* index) {
  LastKey last;
  read_string_attributes(
      key, {spec.pk_attribute, spec.sk_attribute, index ? index->sk_attribute : std::string_view()},
      {&last.pk, &last.sk, &last.index_sk});
  return last;
}

// As key_view, and `live` is `item` rewound to its start, for the decoder to read in place:
// `item` must outlive the view's use, and be read only once. The item's text is not looked
// for (a walk over the whole item): item_text finds it for what needs it.
inline backend::ItemView item_view(simdjson::ondemand::object& item,
                                   const backend::TableSpec& spec) {
  backend::ItemView view = key_view(item, spec);
  if (auto error = item.reset().error()) {
    throw BackendError(errc::backend_failure,
                       std::string("pksk::dynamodb: ") + simdjson::error_message(error));
  }
  view.live = pksk::detail::parsed_item(item);
  return view;
}

// Whether `item` has expired (backend/ttl.hpp): its ttl attribute a number at or before `now`.
// GetItem and its batch and transactional kin take no filter, so this is judged here. `item`
// is rewound for the reader after it.
inline bool expired(simdjson::ondemand::object& item, const backend::TableSpec& spec,
                    std::int64_t now) {
  bool due = false;
  for (auto member : item) {
    simdjson::ondemand::field field;
    if (std::move(member).get(field) != simdjson::SUCCESS) break;
    std::string_view name;
    if (field.unescaped_key().get(name) != simdjson::SUCCESS || name != spec.ttl_attribute) {
      continue;
    }
    simdjson::ondemand::object typed;
    std::string_view number;
    if (field.value().get_object().get(typed) == simdjson::SUCCESS &&
        typed.find_field_unordered("N").get_string().get(number) == simdjson::SUCCESS) {
      double seconds = 0;
      const auto [end, error] =
          std::from_chars(number.data(), number.data() + number.size(), seconds);
      due = error == std::errc{} && end == number.data() + number.size() &&
            seconds <= static_cast<double>(now);
    }
    break;
  }
  if (auto error = item.reset().error()) {
    throw BackendError(errc::backend_failure,
                       std::string("pksk::dynamodb: ") + simdjson::error_message(error));
  }
  return due;
}

// The item's attributes as a tree, for what must be evaluated here (a filter on a key).
inline AttributeValue attributes_of(std::string_view item_json) {
  thread_local simdjson::ondemand::parser parser;
  thread_local pksk::detail::PaddedBuffer buffer;
  const std::string_view padded = buffer.assign(item_json);
  simdjson::ondemand::document doc;
  simdjson::ondemand::object object;
  AttributeValue out = AttributeValue::empty_map();
  try {
    if (auto error =
            parser.iterate(padded.data(), padded.size(), buffer.padded_capacity()).get(doc)) {
      pksk::detail::throw_invalid_json(error);
    }
    if (auto error = doc.get_object().get(object)) pksk::detail::throw_invalid_json(error);
    pksk::detail::read_attribute_value_members(object, out, 2);
  } catch (const pksk::detail::PathedFailure& failure) {
    throw DecodeError("pksk::dynamodb: an item at " + failure.full_path() + ": " + failure.what);
  }
  return out;
}

}  // namespace pksk::dynamodb::detail
