// SPDX-License-Identifier: BSL-1.0
#pragma once
// Items as whole AttributeValue maps (keys, type and body together), read from any backend's
// rows and written back through its puts: the one conversion the report, the collection
// listing, export and import share. The body's text in either BodyFormat is the codec's
// (parse_body, append_plain_json, append_attribute_value_json): nothing here parses JSON.

#include <cstddef>
#include <string>

#include <pksk/backend/backend.hpp>
#include <pksk/codec/attribute_value.hpp>

namespace pksk::inspect {

// The whole item of a row: its key attributes and type (left out when empty) first, then the
// body's members. Throws DecodeError for a body that is not valid.
AttributeValue whole_item(const backend::ItemView& row, BodyFormat format,
                          const backend::TableSpec& spec);

// The item's size as DynamoDB measures it: the one its backend stored with it where the row
// carries it (SQLite's scans: measured from the entity when written, which tells a string set
// from a list), else measured on `item`, the row's whole item.
inline std::size_t item_size(const backend::ItemView& row, const AttributeValue& item) {
  return row.size != 0 ? row.size : attributes_size(item);
}
// As above, parsing the row only when it carries no size.
std::size_t item_size(const backend::ItemView& row, BodyFormat format,
                      const backend::TableSpec& spec);

// A whole item split back into what a backend stores. Throws Failure naming the attribute
// when a key is missing or not a string.
struct StoredItem {
  std::string pk, sk, type, body;
  std::size_t size = 0;
  backend::ItemView view() const { return {pk, sk, type, body, size}; }
};
StoredItem stored_item(const AttributeValue& item, BodyFormat format,
                       const backend::TableSpec& spec);

}  // namespace pksk::inspect
