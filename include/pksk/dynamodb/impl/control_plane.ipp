// SPDX-License-Identifier: BSL-1.0
#pragma once
// The control plane, for open_table: DescribeTable to check a table's key schema and its
// indexes, CreateTable and UpdateTable to add what is missing (with
// Options::create_missing_tables), and the wait until the table and its indexes are ACTIVE.

#include "answers.ipp"  // its templates
#include "backend_impl.ipp"

namespace pksk::dynamodb {

inline auto Backend::Impl::open_table(const backend::TableSpec& spec) -> TableHandle {
  {
    const std::lock_guard lock(shared_->mutex);
    for (const auto& known : shared_->tables) {
      if (known->name == spec.name && known->pk_attribute == spec.pk_attribute &&
          known->sk_attribute == spec.sk_attribute && known->sk_type == spec.sk_type &&
          known->type_attribute == spec.type_attribute && known->indexes == spec.indexes &&
          known->ttl_attribute == spec.ttl_attribute && !known->ttl_clock && !spec.ttl_clock) {
        return TableHandle(known.get());
      }
    }
  }
  std::string status = describe(spec);
  if (status.empty()) {
    if (!shared_->options.create_missing_tables) {
      throw BackendError(errc::missing_table,
                         detail::context(spec.name) + "does not exist at " + shared_->endpoint +
                             " (create it, or set Options::create_missing_tables for development)");
    }
    create(spec);
    status = describe(spec);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (status != "ACTIVE") {
    if (std::chrono::steady_clock::now() > deadline) {
      throw BackendError(errc::unavailable,
                         detail::context(spec.name) + "still " + status + " after 60 s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    status = describe(spec);
  }
  if (backend::has_ttl(spec)) enable_ttl(spec);
  const std::lock_guard lock(shared_->mutex);
  const std::vector<std::string>& once = shared_->options.exactly_once_tables;
  shared_->tables.push_back(std::make_unique<Shared::OpenTable>(
      spec, std::find(once.begin(), once.end(), spec.name) != once.end()));
  return TableHandle(shared_->tables.back().get());
}

// DescribeTimeToLive, then UpdateTimeToLive when TTL is off: DynamoDB deletes the expired
// items itself (reads hide them meanwhile). TTL on another attribute is a schema mismatch, and
// turning it on a table that exists is a change to it, made as indexes are added.
inline void Backend::Impl::enable_ttl(const backend::TableSpec& spec) {
  std::string body = "{";
  detail::append_table_name(body, spec);
  body += '}';
  std::string status;
  std::string attribute;
  {
    Answer x = send("DescribeTimeToLive", body, spec, std::nullopt, "open_table");
    for_each_member(*x, [&](std::string_view, simdjson::ondemand::value description) {
      for_each_object_member(object_of(description),
                             [&](std::string_view name, simdjson::ondemand::value v) {
                               if (name == "TimeToLiveStatus") status = read_string(v);
                               if (name == "AttributeName") attribute = read_string(v);
                             });
    });
  }
  if (status == "ENABLED" || status == "ENABLING") {
    if (attribute == spec.ttl_attribute) return;
    throw BackendError(errc::schema_mismatch, detail::context(spec.name) +
                                                  "its time to live is on the attribute " +
                                                  pksk::detail::quoted(attribute) + ", not " +
                                                  pksk::detail::quoted(spec.ttl_attribute) +
                                                  " (TableOptions::ttl_attribute)");
  }
  if (!shared_->options.create_missing_tables) {
    throw BackendError(errc::schema_mismatch,
                       detail::context(spec.name) + "its time to live is off (turn it on for " +
                           pksk::detail::quoted(spec.ttl_attribute) +
                           ", or set Options::create_missing_tables for development)");
  }
  body.pop_back();
  body += ",\"TimeToLiveSpecification\":{\"AttributeName\":";
  detail::append_json_string(body, spec.ttl_attribute);
  body += ",\"Enabled\":true}}";
  (void)send("UpdateTimeToLive", std::move(body), spec, std::nullopt, "open_table (enabling TTL)");
}

// A KeySchema ("KeyType") or AttributeDefinitions ("AttributeType") list as (name, value).
inline auto Backend::Impl::read_named_pairs(simdjson::ondemand::value v, const char* second)
    -> KeySchema {
  KeySchema out;
  for (auto entry : array_of(v)) {
    std::string_view n, t;
    simdjson::ondemand::object o = object_of(value_of(entry));
    if (auto error = o.find_field_unordered("AttributeName").get_string().get(n)) fail_parse(error);
    if (auto error = o.find_field_unordered(second).get_string().get(t)) fail_parse(error);
    out.emplace_back(std::string(n), std::string(t));
  }
  return out;
}

inline std::string Backend::Impl::read_string(simdjson::ondemand::value v) {
  std::string_view s;
  if (auto error = v.get_string().get(s)) fail_parse(error);
  return std::string(s);
}

// The table's status once its schema has been checked against the spec, with the spec's
// indexes ACTIVE; empty when the table does not exist. A missing index is added (UpdateTable)
// with Options::create_missing_tables, and refused without.
inline std::string Backend::Impl::describe(const backend::TableSpec& spec) {
  Description d = description(spec);
  if (d.status.empty()) return {};
  check_schema(spec, d.schema, d.attributes);
  std::string status = d.status;
  for (const TableIndex& index : spec.indexes) {
    const KeySchema expected{{index.pk_attribute, "HASH"}, {index.sk_attribute, "RANGE"}};
    const auto found =
        std::find_if(d.indexes.begin(), d.indexes.end(),
                     [&](const Description::Gsi& g) { return g.name == index.name; });
    if (found == d.indexes.end()) {
      if (!shared_->options.create_missing_tables) {
        throw BackendError(errc::schema_mismatch,
                           detail::context(spec.name) + "no global secondary index " +
                               pksk::detail::quoted(index.name) + " (add it, or set " +
                               "Options::create_missing_tables for development)");
      }
      if (d.status == "ACTIVE") add_index(spec, index);
      return "ADDING INDEX";
    }
    if (found->schema != expected) {
      throw BackendError(errc::schema_mismatch,
                         detail::context(spec.name) + "the index " +
                             pksk::detail::quoted(index.name) + " does not have the key schema [" +
                             index.pk_attribute + " HASH, " + index.sk_attribute + " RANGE]");
    }
    if (found->status != "ACTIVE") status = "index " + found->status;
  }
  return status;
}

inline auto Backend::Impl::description(const backend::TableSpec& spec) -> Description {
  std::string body = "{";
  detail::append_table_name(body, spec);
  body += '}';
  Description d;
  try {
    Answer x = send("DescribeTable", std::move(body), spec, std::nullopt, "open_table");
    for_each_member(*x, [&](std::string_view, simdjson::ondemand::value table) {
      for_each_object_member(
          object_of(table), [&](std::string_view name, simdjson::ondemand::value v) {
            if (name == "TableStatus") {
              d.status = read_string(v);
            } else if (name == "KeySchema") {
              d.schema = read_named_pairs(v, "KeyType");
            } else if (name == "AttributeDefinitions") {
              d.attributes = read_named_pairs(v, "AttributeType");
            } else if (name == "GlobalSecondaryIndexes") {
              for (auto entry : array_of(v)) {
                Description::Gsi& g = d.indexes.emplace_back();
                for_each_object_member(object_of(value_of(entry)),
                                       [&](std::string_view field, simdjson::ondemand::value f) {
                                         if (field == "IndexName") g.name = read_string(f);
                                         if (field == "IndexStatus") g.status = read_string(f);
                                         if (field == "KeySchema")
                                           g.schema = read_named_pairs(f, "KeyType");
                                       });
              }
            }
          });
    });
  } catch (const BackendError& e) {
    if (e.kind() == errc::missing_table) return {};
    throw;
  }
  return d;
}

inline void Backend::Impl::check_schema(
    const backend::TableSpec& spec, const std::vector<std::pair<std::string, std::string>>& schema,
    const std::vector<std::pair<std::string, std::string>>& attributes) {
  const auto type_of = [&](const std::string& name) {
    for (const auto& [n, t] : attributes) {
      if (n == name) return t;
    }
    return std::string("?");
  };
  // A table without a sort key (TableOptions::sk_attribute empty) has its partition key alone.
  const bool sorted = !spec.sk_attribute.empty();
  std::vector<std::pair<std::string, std::string>> expected{{spec.pk_attribute, "HASH"}};
  if (sorted) expected.emplace_back(spec.sk_attribute, "RANGE");
  const std::string sk_type = spec.sk_type == KeyType::number ? "N" : "S";
  if (schema != expected || type_of(spec.pk_attribute) != "S" ||
      (sorted && type_of(spec.sk_attribute) != sk_type)) {
    std::string found;
    for (const auto& [n, t] : schema)
      found += (found.empty() ? "" : ", ") + n + " " + t + " " + type_of(n);
    throw BackendError(
        errc::schema_mismatch,
        detail::context(spec.name) + "the key schema is [" + found + "]; pksk needs [" +
            spec.pk_attribute + " HASH S" +
            (sorted ? ", " + spec.sk_attribute + " RANGE " + sk_type + "]" : std::string("]")));
  }
}

inline void Backend::Impl::append_attribute_definition(std::string& body, std::string_view name,
                                                       KeyType type) {
  body += "{\"AttributeName\":";
  detail::append_json_string(body, name);
  body += type == KeyType::number ? ",\"AttributeType\":\"N\"}" : ",\"AttributeType\":\"S\"}";
}

// "KeySchema":[pk HASH, sk RANGE], of the table or of an index; [pk HASH] when sk is empty.
inline void Backend::Impl::append_key_schema(std::string& body, std::string_view pk,
                                             std::string_view sk) {
  body += "\"KeySchema\":[{\"AttributeName\":";
  detail::append_json_string(body, pk);
  body += ",\"KeyType\":\"HASH\"}";
  if (!sk.empty()) {
    body += ",{\"AttributeName\":";
    detail::append_json_string(body, sk);
    body += ",\"KeyType\":\"RANGE\"}";
  }
  body += ']';
}

// An index's definition: its key schema and what it projects (TableIndex::projection).
inline void Backend::Impl::append_index_definition(std::string& body, const TableIndex& index) {
  body += "{\"IndexName\":";
  detail::append_json_string(body, index.name);
  body += ',';
  append_key_schema(body, index.pk_attribute, index.sk_attribute);
  switch (index.projection) {
    case IndexProjection::all:
      body += ",\"Projection\":{\"ProjectionType\":\"ALL\"}}";
      return;
    case IndexProjection::keys_only:
      body += ",\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}";
      return;
    case IndexProjection::include:
      body += ",\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[";
      for (std::size_t i = 0; i < index.include.size(); ++i) {
        if (i != 0) body += ',';
        detail::append_json_string(body, index.include[i]);
      }
      body += "]}}";
      return;
  }
}

inline void Backend::Impl::create(const backend::TableSpec& spec) {
  std::string body = "{";
  detail::append_table_name(body, spec);
  body += ",\"AttributeDefinitions\":[";
  append_attribute_definition(body, spec.pk_attribute);
  if (!spec.sk_attribute.empty()) {
    body += ',';
    append_attribute_definition(body, spec.sk_attribute, spec.sk_type);
  }
  for (std::size_t i = 0; i < spec.indexes.size(); ++i) {
    if (spec.repeats_index_keys(i)) continue;  // DynamoDB refuses an attribute defined twice
    body += ',';
    append_attribute_definition(body, spec.indexes[i].pk_attribute);
    body += ',';
    append_attribute_definition(body, spec.indexes[i].sk_attribute);
  }
  body += "],";
  append_key_schema(body, spec.pk_attribute, spec.sk_attribute);
  if (!spec.indexes.empty()) {
    body += ",\"GlobalSecondaryIndexes\":[";
    for (std::size_t i = 0; i < spec.indexes.size(); ++i) {
      if (i) body += ',';
      append_index_definition(body, spec.indexes[i]);
    }
    body += ']';
  }
  body += ",\"BillingMode\":\"PAY_PER_REQUEST\"}";
  try {
    (void)send("CreateTable", std::move(body), spec, std::nullopt, "open_table (creating it)");
  } catch (const BackendError& e) {
    // Another process created it between the look and the create: its schema is checked next.
    if (e.native().type != "ResourceInUseException") throw;
  }
}

// UpdateTable: adds one global secondary index (DynamoDB adds one at a time, and fills it from
// the items that already have its key attributes).
inline void Backend::Impl::add_index(const backend::TableSpec& spec, const TableIndex& index) {
  std::string body = "{";
  detail::append_table_name(body, spec);
  body += ",\"AttributeDefinitions\":[";
  append_attribute_definition(body, index.pk_attribute);
  body += ',';
  append_attribute_definition(body, index.sk_attribute);
  body += "],\"GlobalSecondaryIndexUpdates\":[{\"Create\":";
  append_index_definition(body, index);
  body += "}]}";
  try {
    (void)send("UpdateTable", std::move(body), spec, std::nullopt, "open_table (adding index)");
  } catch (const BackendError& e) {
    // Another process is adding it (or another index) already: waited for by the caller.
    if (e.native().type != "ResourceInUseException" && e.native().type != "LimitExceededException")
      throw;
  }
}

}  // namespace pksk::dynamodb
