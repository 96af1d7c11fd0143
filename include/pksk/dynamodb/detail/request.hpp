#pragma once
// The JSON bodies of DynamoDB's write and batch requests, rendered from the backend contract's
// raw shapes (backend/write.hpp): PutItem, UpdateItem, DeleteItem, TransactWriteItems,
// BatchWriteItem and BatchGetItem. No network here: the transport sends what this renders.
// Every attribute name goes through a #n placeholder and every value through :v, since many
// names an entity may have (status, count, date, ...) are reserved words.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "../../backend/backend.hpp"
#include "../../codec/attribute_value.hpp"
#include "../../codec/detail/json_writer.hpp"
#include "../../expr/render.hpp"

namespace pksk::dynamodb::detail {

using pksk::detail::append_json_string;

inline void append_string_attribute(std::string& out, std::string_view name,
                                    std::string_view value) {
  append_json_string(out, name);
  out += ":{\"S\":";
  append_json_string(out, value);
  out += '}';
}

// {"pk":{"S":"..."},"sk":{"S":"..."}}
inline void append_key(std::string& out, const TableSpec& spec, ItemKey key) {
  out += '{';
  append_string_attribute(out, spec.pk_attribute, key.pk);
  out += ',';
  append_string_attribute(out, spec.sk_attribute, key.sk);
  out += '}';
}

// The whole item: keys and discriminator, then the body's attributes (an AttributeValue map).
inline void append_item(std::string& out, const TableSpec& spec, const ItemView& item) {
  out += '{';
  append_string_attribute(out, spec.pk_attribute, item.pk);
  out += ',';
  append_string_attribute(out, spec.sk_attribute, item.sk);
  out += ',';
  append_string_attribute(out, spec.type_attribute, item.type);
  // The body is "{...}": its members follow the keys in the same object.
  if (item.body.size() > 2) {
    out += ',';
    out.append(item.body.substr(1, item.body.size() - 2));
  }
  out += '}';
}

inline void append_table_name(std::string& out, const TableSpec& spec) {
  out += "\"TableName\":";
  append_json_string(out, spec.name);
}

// ,"ConditionExpression":"..." when there is a condition.
inline void append_condition(std::string& out, const Condition* condition,
                             ExpressionPlaceholders& names) {
  if (condition == nullptr) return;
  out += ",\"ConditionExpression\":";
  append_json_string(out, render_condition(*condition, names));
}

// An update sets the discriminator too, so that an item it creates has its type.
inline std::vector<UpdateAction> actions_with_type(const TableSpec& spec,
                                                   const UpdateRequest& request) {
  std::vector<UpdateAction> actions(request.actions.begin(), request.actions.end());
  actions.push_back({UpdateAction::Kind::set, AttributePath{{{spec.type_attribute, 0, false}}},
                     AttributeValue::from_string(std::string(request.type))});
  return actions;
}

// The members of one action, shared by the single-item requests and TransactWriteItems.
inline void append_put(std::string& out, const TableSpec& spec, const PutRequest& put) {
  ExpressionPlaceholders names;
  append_table_name(out, spec);
  out += ",\"Item\":";
  append_item(out, spec, put.item);
  append_condition(out, put.condition, names);
  names.append_json(out);
}

inline void append_update(std::string& out, const TableSpec& spec, const UpdateRequest& update) {
  ExpressionPlaceholders names;
  append_table_name(out, spec);
  out += ",\"Key\":";
  append_key(out, spec, update.key);
  out += ",\"UpdateExpression\":";
  append_json_string(out, render_update(actions_with_type(spec, update), names));
  append_condition(out, update.condition, names);
  names.append_json(out);
}

inline void append_keyed(std::string& out, const TableSpec& spec, ItemKey key,
                         const Condition* condition) {
  ExpressionPlaceholders names;
  append_table_name(out, spec);
  out += ",\"Key\":";
  append_key(out, spec, key);
  append_condition(out, condition, names);
  names.append_json(out);
}

inline std::string put_item(const TableSpec& spec, const PutRequest& put) {
  std::string out = "{";
  append_put(out, spec, put);
  out += '}';
  return out;
}

// ReturnValues ALL_NEW: Table returns the item as written.
inline std::string update_item(const TableSpec& spec, const UpdateRequest& update) {
  std::string out = "{";
  append_update(out, spec, update);
  out += ",\"ReturnValues\":\"ALL_NEW\"}";
  return out;
}

// ReturnValues ALL_OLD: whether an item was removed is whether one comes back.
inline std::string delete_item(const TableSpec& spec, const EraseRequest& erase) {
  std::string out = "{";
  append_keyed(out, spec, erase.key, erase.condition);
  out += ",\"ReturnValues\":\"ALL_OLD\"}";
  return out;
}

// The client request token makes a retried commit idempotent: DynamoDB applies it once.
inline std::string transact_write_items(const TableSpec& spec, std::span<const WriteRequest> writes,
                                        std::string_view client_request_token) {
  std::string out = "{\"TransactItems\":[";
  for (std::size_t i = 0; i < writes.size(); ++i) {
    if (i) out += ',';
    std::visit(
        [&](const auto& w) {
          using W = std::remove_cvref_t<decltype(w)>;
          if constexpr (std::is_same_v<W, PutRequest>) {
            out += "{\"Put\":{";
            append_put(out, spec, w);
          } else if constexpr (std::is_same_v<W, UpdateRequest>) {
            out += "{\"Update\":{";
            append_update(out, spec, w);
          } else if constexpr (std::is_same_v<W, EraseRequest>) {
            out += "{\"Delete\":{";
            append_keyed(out, spec, w.key, w.condition);
          } else {
            out += "{\"ConditionCheck\":{";
            append_keyed(out, spec, w.key, w.condition);
          }
          out += "}}";
        },
        writes[i]);
  }
  out += "],\"ClientRequestToken\":";
  append_json_string(out, client_request_token);
  out += '}';
  return out;
}

// Puts and erases only (batches carry no conditions), at most 25: Table makes the groups.
inline std::string batch_write_item(const TableSpec& spec, std::span<const WriteRequest> writes) {
  std::string out = "{\"RequestItems\":{";
  append_json_string(out, spec.name);
  out += ":[";
  for (std::size_t i = 0; i < writes.size(); ++i) {
    if (i) out += ',';
    if (const auto* put = std::get_if<PutRequest>(&writes[i])) {
      out += "{\"PutRequest\":{\"Item\":";
      append_item(out, spec, put->item);
      out += "}}";
    } else {
      out += "{\"DeleteRequest\":{\"Key\":";
      append_key(out, spec, key_of(writes[i]));
      out += "}}";
    }
  }
  out += "]}}";
  return out;
}

// At most 100 keys; ConsistentRead as a get reads.
inline std::string batch_get_item(const TableSpec& spec, std::span<const ItemKey> keys) {
  std::string out = "{\"RequestItems\":{";
  append_json_string(out, spec.name);
  out += ":{\"Keys\":[";
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i) out += ',';
    append_key(out, spec, keys[i]);
  }
  out += "],\"ConsistentRead\":true}}}";
  return out;
}

}  // namespace pksk::dynamodb::detail
