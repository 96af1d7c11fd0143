// SPDX-License-Identifier: BSL-1.0
#include "items.hpp"

#include <string_view>
#include <utility>

#include <pksk/codec/attribute_value_json.hpp>
#include <pksk/codec/attribute_value_read.hpp>
#include <pksk/codec/parsed_item.hpp>

#include "location.hpp"

namespace pksk::inspect {

namespace {
bool is_key_attribute(std::string_view name, const backend::TableSpec& spec) {
  return name == spec.pk_attribute || name == spec.sk_attribute || name == spec.type_attribute;
}
}  // namespace

AttributeValue whole_item(const backend::ItemView& row, BodyFormat format,
                          const backend::TableSpec& spec) {
  AttributeValue body = parse_body(detail::item_text(row.live, row.body), format);
  AttributeValue item = AttributeValue::empty_map();
  item.map.reserve(body.map.size() + 3);
  item.assign(spec.pk_attribute, AttributeValue::from_string(std::string(row.partition_key())));
  item.assign(spec.sk_attribute, spec.sort_key_value(row.sort_key()));
  if (!row.type.empty())
    item.assign(spec.type_attribute, AttributeValue::from_string(std::string(row.type)));
  // A backend may hand the keys over inside the body as well (a DynamoDB answer's item).
  for (auto& member : body.map) {
    if (!is_key_attribute(member.first, spec)) item.map.push_back(std::move(member));
  }
  return item;
}

std::size_t item_size(const backend::ItemView& row, BodyFormat format,
                      const backend::TableSpec& spec) {
  return row.size != 0 ? row.size : attributes_size(whole_item(row, format, spec));
}

StoredItem stored_item(const AttributeValue& item, BodyFormat format,
                       const backend::TableSpec& spec) {
  StoredItem stored;
  const auto key = [&](const std::string& name, std::string& out, bool required,
                       AttributeValue::Kind kind) {
    const AttributeValue* value = item.find(name);
    if (value == nullptr) {
      if (required) throw Failure("the item has no key attribute '" + name + "'");
      return;
    }
    if (value->kind != kind) {
      throw Failure("attribute '" + name + "' is of type " + to_string(value->kind) +
                    (kind == AttributeValue::Kind::number
                         ? "; the table's sort key is a number (N)"
                         : "; pksk's keys and type are strings (S)"));
    }
    out = value->text;
  };
  key(spec.pk_attribute, stored.pk, true, AttributeValue::Kind::string);
  key(spec.sk_attribute, stored.sk, true,
      spec.sk_type == KeyType::number ? AttributeValue::Kind::number
                                      : AttributeValue::Kind::string);
  key(spec.type_attribute, stored.type, false, AttributeValue::Kind::string);
  const auto skip = [&](std::string_view name) { return is_key_attribute(name, spec); };
  if (format == BodyFormat::json) {
    append_plain_json_members(stored.body, item, skip);
  } else {
    stored.body += '{';
    bool first = true;
    for (const auto& [name, value] : item.map) {
      if (skip(name)) continue;
      if (!first) stored.body += ',';
      first = false;
      detail::append_json_string(stored.body, name);
      stored.body += ':';
      append_attribute_value_json(stored.body, value);
    }
    stored.body += '}';
  }
  stored.size = attributes_size(item);
  return stored;
}

}  // namespace pksk::inspect
