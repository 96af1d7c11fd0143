// SPDX-License-Identifier: BSL-1.0
#pragma once
// The JSON bodies of DynamoDB's write and batch requests, rendered from the backend contract's
// raw shapes (backend/write.hpp): PutItem, UpdateItem, DeleteItem, TransactWriteItems,
// BatchWriteItem and BatchGetItem. No network here: the transport sends what this renders.
// Every attribute name goes through a #n placeholder and every value through :v, since many
// names an entity may have (status, count, date, ...) are reserved words.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "../../backend/backend.hpp"
#include "../../backend/emulation.hpp"
#include "../../codec/attribute_value_json.hpp"
#include "../../detail/json_writer.hpp"
#include "../../detail/quoted.hpp"
#include "../../expr/render.hpp"
#include "../../key/key.hpp"
#include "messages.hpp"

namespace pksk::dynamodb::detail {

using pksk::detail::append_json_string;

inline void append_string_attribute(std::string& out, std::string_view name,
                                    std::string_view value) {
  append_json_string(out, name);
  out += ":{\"S\":";
  append_json_string(out, value);
  out += '}';
}

// The table's sort key: {"N":"42"} on a table whose sort key is a number (TableOptions::
// sk_type), refused as DynamoDB would refuse it when it is not one; {"S":"..."} otherwise.
inline void append_sort_key_attribute(std::string& out, const backend::TableSpec& spec,
                                      std::string_view value) {
  if (spec.sk_type != KeyType::number) {
    append_string_attribute(out, spec.sk_attribute, value);
    return;
  }
  backend::emulation::check_number_sort_key(backend_name, spec, "request", value);
  append_json_string(out, spec.sk_attribute);
  out += ":{\"N\":\"";
  out += value;  // digits and '-' alone
  out += "\"}";
}

// {"pk":{"S":"..."},"sk":{"S":"..."}}; {"pk":{"S":"..."}} for a table without a sort key.
inline void append_key(std::string& out, const backend::TableSpec& spec, backend::ItemKey key) {
  out += '{';
  append_string_attribute(out, spec.pk_attribute, key.pk);
  if (!spec.sk_attribute.empty()) {
    out += ',';
    append_sort_key_attribute(out, spec, key.sk);
  }
  out += '}';
}

// The whole item: keys and discriminator, then the body's attributes (an AttributeValue map).
// An item with no type (one written by another program, copied by pksk-inspect) gets no type
// attribute, as it is read back: an empty type.
inline void append_item(std::string& out, const backend::TableSpec& spec,
                        const backend::ItemView& item) {
  out += '{';
  append_string_attribute(out, spec.pk_attribute, item.pk);
  if (!spec.sk_attribute.empty()) {
    out += ',';
    append_sort_key_attribute(out, spec, item.sk);
  }
  if (!item.type.empty() && !spec.type_attribute.empty()) {
    out += ',';
    append_string_attribute(out, spec.type_attribute, item.type);
  }
  // The body is "{...}": its members follow the keys in the same object.
  if (item.body.size() > 2) {
    out += ',';
    out.append(item.body.substr(1, item.body.size() - 2));
  }
  out += '}';
}

inline void append_table_name(std::string& out, const backend::TableSpec& spec) {
  out += "\"TableName\":";
  append_json_string(out, spec.name);
}

// ,"ConditionExpression":"..." when there is a condition.
inline void append_condition(std::string& out, const backend::Condition* condition,
                             backend::ExpressionPlaceholders& names) {
  if (condition == nullptr) return;
  out += ",\"ConditionExpression\":";
  append_json_string(out, render_condition(*condition, names));
}

// An update sets the discriminator too, so that an item it creates has its type.
inline backend::UpdateAction type_action(const backend::TableSpec& spec,
                                         const backend::UpdateRequest& request) {
  return {backend::UpdateAction::Kind::set,
          backend::AttributePath{{{spec.type_attribute, 0, false}}},
          AttributeValue::from_string(std::string(request.type))};
}

// The members of one action, shared by the single-item requests and TransactWriteItems.
inline void append_put(std::string& out, const backend::TableSpec& spec,
                       const backend::PutRequest& put) {
  backend::ExpressionPlaceholders names;
  append_table_name(out, spec);
  out += ",\"Item\":";
  append_item(out, spec, put.item);
  append_condition(out, put.condition, names);
  names.append_json(out);
}

inline void append_update(std::string& out, const backend::TableSpec& spec,
                          const backend::UpdateRequest& update) {
  backend::ExpressionPlaceholders names;
  append_table_name(out, spec);
  out += ",\"Key\":";
  append_key(out, spec, update.key);
  out += ",\"UpdateExpression\":";
  const backend::UpdateAction type = type_action(spec, update);
  append_json_string(out,
                     pksk::detail::render_update(update.actions, names,
                                                 spec.type_attribute.empty() ? nullptr : &type));
  append_condition(out, update.condition, names);
  names.append_json(out);
}

inline void append_keyed(std::string& out, const backend::TableSpec& spec, backend::ItemKey key,
                         const backend::Condition* condition) {
  backend::ExpressionPlaceholders names;
  append_table_name(out, spec);
  out += ",\"Key\":";
  append_key(out, spec, key);
  append_condition(out, condition, names);
  names.append_json(out);
}

// ReturnValuesOnConditionCheckFailure ALL_OLD, when the write asks for the stored item.
inline void append_stored_on_failure(std::string& out, const backend::WriteReturns& returns) {
  if (returns.stored_on_failure) out += ",\"ReturnValuesOnConditionCheckFailure\":\"ALL_OLD\"";
}

inline std::string put_item(const backend::TableSpec& spec, const backend::PutRequest& put) {
  std::string out = "{";
  append_put(out, spec, put);
  if (put.returns.old_item != nullptr) out += ",\"ReturnValues\":\"ALL_OLD\"";
  append_stored_on_failure(out, put.returns);
  out += '}';
  return out;
}

// ReturnValues ALL_NEW: Table returns the item as written.
inline std::string update_item(const backend::TableSpec& spec,
                               const backend::UpdateRequest& update) {
  std::string out;
  out.reserve(512);  // a small update's body whole: no regrowth while it is written
  out += '{';
  append_update(out, spec, update);
  out += ",\"ReturnValues\":\"ALL_NEW\"";
  append_stored_on_failure(out, update.returns);
  out += '}';
  return out;
}

// ReturnValues ALL_OLD: whether an item was removed is whether one comes back.
inline std::string delete_item(const backend::TableSpec& spec, const backend::EraseRequest& erase) {
  std::string out = "{";
  append_keyed(out, spec, erase.key, erase.condition);
  out += ",\"ReturnValues\":\"ALL_OLD\"";
  append_stored_on_failure(out, erase.returns);
  out += '}';
  return out;
}

// The client request token makes a retried commit idempotent: DynamoDB applies it once.
inline std::string transact_write_items(const backend::TableSpec& spec,
                                        std::span<const backend::WriteRequest> writes,
                                        std::string_view client_request_token) {
  std::string out = "{\"TransactItems\":[";
  for (std::size_t i = 0; i < writes.size(); ++i) {
    if (i) out += ',';
    std::visit(
        [&](const auto& w) {
          using W = std::remove_cvref_t<decltype(w)>;
          if constexpr (std::is_same_v<W, backend::PutRequest>) {
            out += "{\"Put\":{";
            append_put(out, spec, w);
          } else if constexpr (std::is_same_v<W, backend::UpdateRequest>) {
            out += "{\"Update\":{";
            append_update(out, spec, w);
          } else if constexpr (std::is_same_v<W, backend::EraseRequest>) {
            out += "{\"Delete\":{";
            append_keyed(out, spec, w.key, w.condition);
          } else {
            out += "{\"ConditionCheck\":{";
            append_keyed(out, spec, w.key, w.condition);
          }
          if constexpr (!std::is_same_v<W, backend::CheckRequest>) {
            append_stored_on_failure(out, w.returns);
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

// Puts and erases only (batches carry no conditions), at most 25: the backend makes the groups.
inline std::string batch_write_item(const backend::TableSpec& spec,
                                    std::span<const backend::WriteRequest> writes) {
  std::string out = "{\"RequestItems\":{";
  append_json_string(out, spec.name);
  out += ":[";
  for (std::size_t i = 0; i < writes.size(); ++i) {
    if (i) out += ',';
    if (const auto* put = std::get_if<backend::PutRequest>(&writes[i])) {
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
inline std::string batch_get_item(const backend::TableSpec& spec,
                                  std::span<const backend::ItemKey> keys) {
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

// TransactGetItems: a Get of each key, at most 100, no two alike (Table checks both). The
// answer's Responses are in the order of the keys.
inline std::string transact_get_items(const backend::TableSpec& spec,
                                      std::span<const backend::ItemKey> keys) {
  std::string out = "{\"TransactItems\":[";
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i) out += ',';
    out += "{\"Get\":{";
    append_table_name(out, spec);
    out += ",\"Key\":";
    append_key(out, spec, keys[i]);
    out += "}}";
  }
  out += "]}";
  return out;
}

// ------------------------------------------------------------------------------------ reads

// A Query or Scan body, and the part of the filter DynamoDB cannot take (see query()).
struct ReadRequest {
  std::string body;
  std::optional<backend::Condition>
      client_filter;   // to apply to each item returned, before decoding
  bool count = false;  // Select=COUNT: the answer holds a Count and no Items
};

inline bool names_attribute(const backend::Condition& c, std::string_view a, std::string_view b) {
  for (const backend::Operand& o : c.operands) {
    if (o.kind != backend::Operand::Kind::value && !o.path.steps.empty() &&
        (o.path.steps.front().name == a || o.path.steps.front().name == b)) {
      return true;
    }
  }
  for (const backend::Condition& child : c.children) {
    if (names_attribute(child, a, b)) return true;
  }
  return false;
}

// The key attributes a query reads by: the table's, or those of the index it names.
struct QueryKeys {
  std::string_view pk_attribute;
  std::string_view sk_attribute;
  const TableIndex* index = nullptr;
  KeyType sk_type = KeyType::string;  // an index's sort key is always a string
};

inline QueryKeys query_keys(const backend::TableSpec& spec, std::string_view index_name) {
  if (index_name.empty()) return {spec.pk_attribute, spec.sk_attribute, nullptr, spec.sk_type};
  const TableIndex* index = spec.find_index(index_name);
  if (index == nullptr) {
    throw ValidationError(context(spec.name, "query") + "no index " +
                          pksk::detail::quoted(index_name) + " (TableOptions::indexes)");
  }
  return {index->pk_attribute, index->sk_attribute, index};
}

inline std::string render_key_condition(const QueryKeys& keys, std::string_view pk,
                                        const KeyCondition* sk,
                                        backend::ExpressionPlaceholders& names) {
  std::string out = names.name(keys.pk_attribute) + " = " +
                    names.value(AttributeValue::from_string(std::string(pk)));
  if (sk == nullptr || sk->op == KeyCondition::Op::any) return out;
  const std::string n = names.name(keys.sk_attribute);
  const bool number = keys.index == nullptr && keys.sk_type == KeyType::number;
  const auto v = [&](const std::string& text) {
    return names.value(number ? AttributeValue::from_number(text)
                              : AttributeValue::from_string(text));
  };
  out += " AND ";
  switch (sk->op) {
    case KeyCondition::Op::eq:
      return out + n + " = " + v(sk->first);
    case KeyCondition::Op::lt:
      return out + n + " < " + v(sk->first);
    case KeyCondition::Op::le:
      return out + n + " <= " + v(sk->first);
    case KeyCondition::Op::gt:
      return out + n + " > " + v(sk->first);
    case KeyCondition::Op::ge:
      return out + n + " >= " + v(sk->first);
    case KeyCondition::Op::between: {
      std::string low = v(sk->first);
      return out + n + " BETWEEN " + low + " AND " + v(sk->second);
    }
    case KeyCondition::Op::begins_with:
      return out + "begins_with(" + n + ", " + v(sk->first) + ")";
    case KeyCondition::Op::any:
      break;
  }
  return out;
}

// `index`: the index queried, nullptr for the table. DynamoDB refuses a projection of an index
// that names an attribute the index does not project: such a member is not asked for (it keeps
// its default, as in a read of the whole item through the index), and the index's own keys are,
// since the members they are formatted from are read back from them.
inline void append_projection(std::string& out, const backend::TableSpec& spec,
                              std::span<const std::string_view> projection,
                              backend::ExpressionPlaceholders& names,
                              const TableIndex* index = nullptr) {
  if (projection.empty()) return;
  const auto held = [&](std::string_view attribute) {
    return index == nullptr || index->projects(attribute);
  };
  // The keys and the type always come back: Table dispatches and pages on them.
  std::string text = names.name(spec.pk_attribute);
  if (!spec.sk_attribute.empty()) text += ", " + names.name(spec.sk_attribute);
  if (!spec.type_attribute.empty() && held(spec.type_attribute))
    text += ", " + names.name(spec.type_attribute);
  if (index != nullptr && index->projection != IndexProjection::all) {
    for (const std::string& key : {index->pk_attribute, index->sk_attribute}) {
      // DynamoDB refuses a path named twice: an index may share a key with the table.
      if (!key.empty() && key != spec.pk_attribute && key != spec.sk_attribute)
        text += ", " + names.name(key);
    }
  }
  for (const std::string_view member : projection) {
    if (held(member)) text += ", " + names.name(member);
  }
  out += ",\"ProjectionExpression\":";
  append_json_string(out, text);
}

// Query: the key condition, the filter, the projection, Limit (items evaluated, as the
// backend contract counts them), ExclusiveStartKey and the direction. DynamoDB refuses a
// FilterExpression that names a key attribute, so conjuncts of the filter that name the
// partition or sort key (contains(sort_key, ...)) are left out of the request and handed back
// as client_filter, for the backend to apply to each returned item: Limit still counts items
// before any filter, as in DynamoDB. A count-only query is Select=COUNT, unless part of its
// filter is the client's: its items then come back to be filtered and counted.
inline ReadRequest query(const backend::TableSpec& spec, const backend::RawQuery& q) {
  backend::ExpressionPlaceholders names;
  ReadRequest request;
  std::string& out = request.body;
  const QueryKeys keys = query_keys(spec, q.index);
  // DynamoDB refuses a partition key over its limit ("Size of hashkey has exceeded the maximum
  // size limit"); DynamoDB Local 2.6 answers it with an empty page, so it is refused here.
  if (q.pk.size() > max_partition_key_size) {
    backend::emulation::throw_query_key_refused(backend_name, spec.name, q.index, q.pk);
  }
  backend::emulation::check_number_sort_key_query(backend_name, spec, q);
  out = "{";
  append_table_name(out, spec);
  if (!q.index.empty()) {
    out += ",\"IndexName\":";
    append_json_string(out, q.index);
  }
  out += ",\"KeyConditionExpression\":";
  append_json_string(out, render_key_condition(keys, q.pk, q.sk, names));
  // Out here: its values are referred to by `names` until the request is written.
  backend::Condition server{backend::Condition::Op::all, {}, {}};
  if (q.filter != nullptr) {
    backend::Condition client{backend::Condition::Op::all, {}, {}};
    const auto place = [&](const backend::Condition& c) {
      (names_attribute(c, spec.pk_attribute, spec.sk_attribute) ? client : server)
          .children.push_back(c);
    };
    if (q.filter->op == backend::Condition::Op::all) {
      for (const backend::Condition& c : q.filter->children) place(c);
    } else {
      place(*q.filter);
    }
    if (!server.children.empty()) {
      out += ",\"FilterExpression\":";
      append_json_string(out, render_condition(server, names));
    }
    if (!client.children.empty()) request.client_filter = std::move(client);
  }
  request.count = q.count_only && !request.client_filter;
  if (request.count) {
    out += ",\"Select\":\"COUNT\"";
  } else {
    append_projection(out, spec, q.projection, names, keys.index);
  }
  if (q.limit != 0) out += ",\"Limit\":" + std::to_string(q.limit);
  if (q.exclusive_start_sk && keys.index == nullptr) {
    out += ",\"ExclusiveStartKey\":";
    append_key(out, spec, backend::ItemKey{q.pk, *q.exclusive_start_sk});
  } else if (q.exclusive_start_sk) {
    // An index's LastEvaluatedKey: the table key of the item and its keys in the index.
    if (!q.exclusive_start_item) {
      throw ValidationError(
          context(spec.name, "query on index " + pksk::detail::quoted(keys.index->name)) +
          "an exclusive start needs the index key and the table key");
    }
    out += ",\"ExclusiveStartKey\":";
    append_key(out, spec, *q.exclusive_start_item);
    out.pop_back();
    out += ',';
    append_string_attribute(out, keys.pk_attribute, q.pk);
    out += ',';
    append_string_attribute(out, keys.sk_attribute, *q.exclusive_start_sk);
    out += '}';
  }
  if (!q.forward) out += ",\"ScanIndexForward\":false";
  if (q.consistent) out += ",\"ConsistentRead\":true";
  names.append_json(out);
  out += '}';
  return request;
}

// Scan: a scan's filter may name the key attributes, so all of it goes to DynamoDB.
inline ReadRequest scan(const backend::TableSpec& spec, const backend::RawScan& s) {
  backend::ExpressionPlaceholders names;
  ReadRequest request;
  std::string& out = request.body;
  out = "{";
  append_table_name(out, spec);
  if (s.filter != nullptr) {
    out += ",\"FilterExpression\":";
    append_json_string(out, render_condition(*s.filter, names));
  }
  append_projection(out, spec, s.projection, names);
  if (s.limit != 0) out += ",\"Limit\":" + std::to_string(s.limit);
  if (s.exclusive_start) {
    out += ",\"ExclusiveStartKey\":";
    append_key(out, spec, *s.exclusive_start);
  }
  if (s.segments > 1) {
    out += ",\"Segment\":" + std::to_string(s.segment) +
           ",\"TotalSegments\":" + std::to_string(s.segments);
  }
  if (s.consistent) out += ",\"ConsistentRead\":true";
  names.append_json(out);
  out += '}';
  return request;
}

}  // namespace pksk::dynamodb::detail
