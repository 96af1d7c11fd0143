// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk::dynamodb::Backend's definitions: inline through backend.hpp in header-only mode,
// compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <simdjson.h>
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>
#include "../../backend/backend.hpp"
#include "../../codec/attribute_value_read.hpp"
#include "../../codec/body_format.hpp"
#include "../../detail/thread_lease.hpp"
#include "../../error.hpp"
#include "../../expr/evaluate.hpp"
#include "../backend.hpp"
#include "../credentials.hpp"
#include "../detail/errors.hpp"
#include "../detail/http.hpp"
#include "../detail/request.hpp"
#include "../detail/response.hpp"
#include "../detail/sigv4.hpp"

namespace pksk::dynamodb {

namespace detail {

// Whether a request may be sent again when its first answer was lost. An update (ADD, append)
// or a conditional write applied once and then again would be applied twice, or fail its own
// condition: those are retried only when DynamoDB surely did not apply them (throttling, no
// connection made), and otherwise fail with a BackendError that says the outcome is unknown.
enum class Retry : unsigned char { always, when_not_applied };

// How a TransactionCanceledException is reported: as a transaction's (TransactionCanceled with
// its reasons), or, for one write sent as a transaction, as that write's own error.
enum class Cancellation : unsigned char { as_transaction, as_single_write };

// attribute_exists(pk) AND condition.
inline Condition exists_and(const TableSpec& spec, const Condition& condition) {
  Condition exists{Condition::Op::exists, {}, {}};
  exists.operands.push_back(
      {Operand::Kind::path, AttributePath{{{spec.pk_attribute, 0, false}}}, {}});
  return Condition{Condition::Op::all, {}, {std::move(exists), condition}};
}

// A request and its answer, reused by one thread: buffers keep their capacity.
struct Exchange {
  HttpRequest request;
  HttpResponse response;
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document document;
};

}  // namespace detail

struct Backend::Shared {
  std::uint64_t id = detail::next_client_id();
  Options options;
  std::string region;
  std::string endpoint;
  Credentials credentials;
  std::mutex mutex;  // guards tables
  std::vector<std::unique_ptr<TableSpec>> tables;
};

struct Backend::Impl {
  const std::shared_ptr<Shared>& shared_;

  void construct(Options options) {
    shared_->region = resolve_region(options.region, options.profile);
    shared_->credentials = resolve_credentials(options.credentials, options.profile);
    shared_->endpoint = options.endpoint.empty()
                            ? "https://dynamodb." + shared_->region + ".amazonaws.com"
                            : options.endpoint;
    (void)detail::split_url(shared_->endpoint);  // a ValidationError now, not on first use
    shared_->options = std::move(options);
  }

  TableHandle open_table(const TableSpec& spec) {
    {
      const std::lock_guard lock(shared_->mutex);
      for (const auto& known : shared_->tables) {
        if (known->name == spec.name && known->pk_attribute == spec.pk_attribute &&
            known->sk_attribute == spec.sk_attribute &&
            known->type_attribute == spec.type_attribute && known->indexes == spec.indexes) {
          return TableHandle(known.get());
        }
      }
    }
    std::string status = describe(spec);
    if (status.empty()) {
      if (!shared_->options.create_missing_tables) {
        throw BackendError(
            errc::missing_table,
            "pksk::dynamodb: table \"" + spec.name + "\" does not exist at " + shared_->endpoint +
                " (create it, or set Options::create_missing_tables for development)");
      }
      create(spec);
      status = describe(spec);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (status != "ACTIVE") {
      if (std::chrono::steady_clock::now() > deadline) {
        throw BackendError(errc::unavailable, "pksk::dynamodb: table \"" + spec.name +
                                                  "\" is still " + status + " after 60 s");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      status = describe(spec);
    }
    const std::lock_guard lock(shared_->mutex);
    shared_->tables.push_back(std::make_unique<TableSpec>(spec));
    return TableHandle(shared_->tables.back().get());
  }

  bool get(TableHandle table, ItemKey key, ItemVisitor visit) {
    const TableSpec& spec = table.spec();
    std::string body = "{";
    detail::append_table_name(body, spec);
    body += ",\"Key\":";
    detail::append_key(body, spec, key);
    body += ",\"ConsistentRead\":true}";
    Lease x = send("GetItem", std::move(body), spec, key, "get");
    bool found = false;
    for_each_member(*x, [&](std::string_view name, simdjson::ondemand::value value) {
      if (name != "Item") return;
      found = true;
      simdjson::ondemand::object item = object_of(value);
      visit(detail::item_view(item, spec));
    });
    return found;
  }

  void put(TableHandle table, const PutRequest& request) {
    const TableSpec& spec = table.spec();
    const ItemKey key{request.item.pk, request.item.sk};
    if (request.condition != nullptr && shared_->options.exactly_once_writes) {
      send_once(spec, request, key, "put");
      return;
    }
    (void)send("PutItem", detail::put_item(spec, request), spec, key, "put",
               retry_for(request.condition));
  }

  void update(TableHandle table, const UpdateRequest& request, ItemVisitor visit) {
    const TableSpec& spec = table.spec();
    if (shared_->options.exactly_once_writes) {
      send_once(spec, request, request.key, "update");
      // Read back at once; a write by someone else in between shows in the result.
      if (!get(table, request.key, visit)) {
        throw BackendError(
            errc::unknown_outcome,
            "pksk::dynamodb: update on table \"" + spec.name + "\"" + key_text(request.key) +
                ": applied, but another write erased the item before it was read back");
      }
      return;
    }
    Lease x = send("UpdateItem", detail::update_item(spec, request), spec, request.key, "update",
                   detail::Retry::when_not_applied);
    for_each_member(*x, [&](std::string_view name, simdjson::ondemand::value value) {
      if (name != "Attributes") return;
      simdjson::ondemand::object item = object_of(value);
      visit(detail::item_view(item, spec));
    });
  }

  bool erase(TableHandle table, const EraseRequest& request) {
    const TableSpec& spec = table.spec();
    if (request.condition != nullptr && shared_->options.exactly_once_writes) {
      // Sent once, the erase cannot say whether it removed an item, so it asks for one to exist
      // as well. Refused, it removed nothing: if the item is there, its condition failed; if it
      // is not, DeleteItem gives the plain answer (sent again, it has nothing to apply twice).
      const Condition present = detail::exists_and(spec, *request.condition);
      try {
        send_once(spec, EraseRequest{request.key, &present}, request.key, "erase");
        return true;
      } catch (const ConditionFailed&) {
        if (get(table, request.key, [](const ItemView&) {})) throw;
      }
      return erase_item(spec, request, detail::Retry::always);
    }
    return erase_item(spec, request, retry_for(request.condition));
  }

  void transact(TableHandle table, std::span<const WriteRequest> writes) {
    const TableSpec& spec = table.spec();
    (void)send("TransactWriteItems", detail::transact_write_items(spec, writes, request_token()),
               spec, std::nullopt, "transaction");
  }

  void batch_write(TableHandle table, std::span<const WriteRequest> writes,
                   std::vector<std::size_t>& unprocessed) {
    unprocessed.clear();
    for (std::size_t start = 0; start < writes.size(); start += max_batch_write_items) {
      batch_write_group(
          table.spec(),
          writes.subspan(start, std::min(max_batch_write_items, writes.size() - start)), start,
          unprocessed);
    }
  }

  bool erase_item(const TableSpec& spec, const EraseRequest& request, detail::Retry retry) {
    Lease x =
        send("DeleteItem", detail::delete_item(spec, request), spec, request.key, "erase", retry);
    bool removed = false;
    for_each_member(*x, [&](std::string_view name, simdjson::ondemand::value) {
      removed = removed || name == "Attributes";
    });
    return removed;
  }

  // One write as a one-action TransactWriteItems under a fresh client request token, retried
  // with that token: DynamoDB applies it once. Its cancellation is the plain request's error.
  void send_once(const TableSpec& spec, const WriteRequest& write, ItemKey key,
                 std::string_view what) {
    (void)send("TransactWriteItems",
               detail::transact_write_items(spec, std::span(&write, 1), request_token()), spec, key,
               what, detail::Retry::always, detail::Cancellation::as_single_write);
  }

  void batch_write_group(const TableSpec& spec, std::span<const WriteRequest> writes,
                         std::size_t offset, std::vector<std::size_t>& unprocessed) {
    Lease x = send("BatchWriteItem", detail::batch_write_item(spec, writes), spec, std::nullopt,
                   "batch write");
    for_each_member(*x, [&](std::string_view name, simdjson::ondemand::value value) {
      if (name != "UnprocessedItems") return;
      for_each_object_member(
          object_of(value), [&](std::string_view, simdjson::ondemand::value requests) {
            for (auto entry : array_of(requests)) {
              for_each_object_member(object_of(value_of(entry)),
                                     [&](std::string_view kind, simdjson::ondemand::value w) {
                                       simdjson::ondemand::object inner = object_of(w);
                                       simdjson::ondemand::value item;
                                       const char* field = kind == "PutRequest" ? "Item" : "Key";
                                       if (auto error = inner.find_field_unordered(field).get(item))
                                         fail_parse(error);
                                       simdjson::ondemand::object o = object_of(item);
                                       const ItemView v = detail::key_view(o, spec);
                                       for (std::size_t i = 0; i < writes.size(); ++i) {
                                         if (key_of(writes[i]) == ItemKey{v.pk, v.sk})
                                           unprocessed.push_back(offset + i);
                                       }
                                     });
            }
          });
    });
  }

  void batch_get(TableHandle table, std::span<const ItemKey> keys, IndexedItemVisitor visit,
                 std::vector<std::size_t>& unprocessed) {
    const TableSpec& spec = table.spec();
    unprocessed.clear();
    Lease x =
        send("BatchGetItem", detail::batch_get_item(spec, keys), spec, std::nullopt, "batch get");
    const auto index_of = [&](const ItemView& v, auto&& each) {
      for (std::size_t i = 0; i < keys.size(); ++i) {
        if (keys[i] == ItemKey{v.pk, v.sk}) each(i);
      }
    };
    for_each_member(*x, [&](std::string_view name, simdjson::ondemand::value value) {
      if (name == "Responses") {
        for_each_object_member(object_of(value),
                               [&](std::string_view, simdjson::ondemand::value items) {
                                 for (auto entry : array_of(items)) {
                                   simdjson::ondemand::object item = object_of(value_of(entry));
                                   const ItemView v = detail::item_view(item, spec);
                                   index_of(v, [&](std::size_t i) { visit(i, v); });
                                 }
                               });
      } else if (name == "UnprocessedKeys") {
        for_each_object_member(
            object_of(value), [&](std::string_view, simdjson::ondemand::value request) {
              simdjson::ondemand::value key_list;
              if (auto error = object_of(request).find_field_unordered("Keys").get(key_list))
                fail_parse(error);
              for (auto entry : array_of(key_list)) {
                simdjson::ondemand::object key = object_of(value_of(entry));
                const ItemView v = detail::key_view(key, spec);
                index_of(v, [&](std::size_t i) { unprocessed.push_back(i); });
              }
            });
      }
    });
  }

  QueryOutcome query(TableHandle table, const RawQuery& query, ItemVisitor visit) {
    const TableSpec& spec = table.spec();
    detail::ReadRequest request = detail::query(spec, query);
    const TableIndex* index = query.index.empty() ? nullptr : spec.find_index(query.index);
    Lease x = send("Query", std::move(request.body), spec, std::nullopt, "query");
    QueryOutcome outcome;
    read_page(*x, spec, request.client_filter, outcome.evaluated, visit,
              [&](simdjson::ondemand::object& key) {
                const detail::LastKey last = detail::last_key(key, spec, index);
                if (index == nullptr) {
                  outcome.last_evaluated_sk = std::string(last.sk);
                } else {
                  outcome.last_evaluated_sk = std::string(last.index_sk);
                  outcome.last_evaluated_item_pk = std::string(last.pk);
                  outcome.last_evaluated_item_sk = std::string(last.sk);
                }
              });
    return outcome;
  }

  ScanOutcome scan(TableHandle table, const RawScan& scan, ItemVisitor visit) {
    const TableSpec& spec = table.spec();
    detail::ReadRequest request = detail::scan(spec, scan);
    Lease x = send("Scan", std::move(request.body), spec, std::nullopt, "scan");
    ScanOutcome outcome;
    read_page(*x, spec, request.client_filter, outcome.evaluated, visit,
              [&](simdjson::ondemand::object& key) {
                const detail::LastKey last = detail::last_key(key, spec, nullptr);
                outcome.last_evaluated_pk = std::string(last.pk);
                outcome.last_evaluated_sk = std::string(last.sk);
              });
    return outcome;
  }

  // The calling thread's exchange, or a fresh one when a visitor calls back into the backend
  // while the thread's own is still being read.
  using Lease = pksk::detail::ThreadLease<detail::Exchange>;

  [[noreturn]] static void fail_parse(simdjson::error_code error) {
    throw BackendError(errc::backend_failure,
                       std::string("pksk::dynamodb: an answer that does not parse: ") +
                           simdjson::error_message(error));
  }
  static simdjson::ondemand::object object_of(simdjson::ondemand::value value) {
    simdjson::ondemand::object out;
    if (auto error = value.get_object().get(out)) fail_parse(error);
    return out;
  }
  static simdjson::ondemand::array array_of(simdjson::ondemand::value value) {
    simdjson::ondemand::array out;
    if (auto error = value.get_array().get(out)) fail_parse(error);
    return out;
  }
  template <class Result>
  static simdjson::ondemand::value value_of(Result&& result) {
    simdjson::ondemand::value out;
    if (auto error = std::forward<Result>(result).get(out)) fail_parse(error);
    return out;
  }
  template <class Each>
  static void for_each_object_member(simdjson::ondemand::object object, Each&& each) {
    for (auto member : object) {
      simdjson::ondemand::field field;
      std::string_view key;
      if (auto error = std::move(member).get(field)) fail_parse(error);
      if (auto error = field.unescaped_key().get(key)) fail_parse(error);
      each(key, field.value());
    }
  }
  // each(name, value) for the members of the answer's top-level object.
  template <class Each>
  static void for_each_member(detail::Exchange& x, Each&& each) {
    std::string& body = x.response.body;
    const std::size_t size = body.size();
    body.reserve(size + simdjson::SIMDJSON_PADDING);
    if (auto error = x.parser.iterate(body.data(), size, body.capacity()).get(x.document))
      fail_parse(error);
    simdjson::ondemand::object root;
    if (auto error = x.document.get_object().get(root)) fail_parse(error);
    for_each_object_member(root, each);
  }

  // A Query or Scan answer: Items to the visitor (those the client-side filter keeps),
  // ScannedCount as the items evaluated, LastEvaluatedKey to on_last_key. One function for
  // queries and scans alike: on_last_key is a FunctionRef too.
  static void read_page(detail::Exchange& x, const TableSpec& spec,
                        const std::optional<Condition>& client_filter, std::size_t& evaluated,
                        ItemVisitor visit,
                        pksk::detail::FunctionRef<void(simdjson::ondemand::object&)> on_last_key) {
    for_each_member(x, [&](std::string_view name, simdjson::ondemand::value value) {
      if (name == "Items") {
        for (auto entry : array_of(value)) {
          simdjson::ondemand::object object = object_of(value_of(entry));
          const ItemView item = detail::item_view(object, spec);
          if (client_filter) {
            // The item's text is found for the filter (the object read to its end), then the
            // object is rewound for the visitor.
            const std::string_view text = pksk::detail::item_text(item.live, item.body);
            if (!evaluate(*client_filter, detail::attributes_of(text))) continue;
            if (auto error = object.reset().error()) fail_parse(error);
          }
          visit(item);
        }
      } else if (name == "ScannedCount") {
        std::uint64_t n = 0;
        if (auto error = value.get_uint64().get(n)) fail_parse(error);
        evaluated = static_cast<std::size_t>(n);
      } else if (name == "LastEvaluatedKey") {
        simdjson::ondemand::object key = object_of(value);
        on_last_key(key);
      }
    });
  }

  // A key schema as DescribeTable lists it: (attribute name, HASH or RANGE) in order.
  using KeySchema = std::vector<std::pair<std::string, std::string>>;

  struct Description {
    std::string status;  // empty: no such table
    KeySchema schema;
    std::vector<std::pair<std::string, std::string>> attributes;  // name, S/N/B
    struct Gsi {
      std::string name;
      KeySchema schema;
      std::string status;
    };
    std::vector<Gsi> indexes;
  };

  // A KeySchema ("KeyType") or AttributeDefinitions ("AttributeType") list as (name, value).
  static KeySchema read_named_pairs(simdjson::ondemand::value v, const char* second) {
    KeySchema out;
    for (auto entry : array_of(v)) {
      std::string_view n, t;
      simdjson::ondemand::object o = object_of(value_of(entry));
      if (auto error = o.find_field_unordered("AttributeName").get_string().get(n))
        fail_parse(error);
      if (auto error = o.find_field_unordered(second).get_string().get(t)) fail_parse(error);
      out.emplace_back(std::string(n), std::string(t));
    }
    return out;
  }

  static std::string read_string(simdjson::ondemand::value v) {
    std::string_view s;
    if (auto error = v.get_string().get(s)) fail_parse(error);
    return std::string(s);
  }

  // The table's status once its schema has been checked against the spec, with the spec's
  // indexes ACTIVE; empty when the table does not exist. A missing index is added (UpdateTable)
  // with Options::create_missing_tables, and refused without.
  std::string describe(const TableSpec& spec) {
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
                             "pksk::dynamodb: table \"" + spec.name +
                                 "\" has no global secondary " + "index \"" + index.name +
                                 "\" (add it, or set " +
                                 "Options::create_missing_tables for development)");
        }
        if (d.status == "ACTIVE") add_index(spec, index);
        return "ADDING INDEX";
      }
      if (found->schema != expected) {
        throw BackendError(errc::schema_mismatch,
                           "pksk::dynamodb: index \"" + index.name + "\" of table \"" + spec.name +
                               "\" does not have the key schema [" + index.pk_attribute +
                               " HASH, " + index.sk_attribute + " RANGE]");
      }
      if (found->status != "ACTIVE") status = "index " + found->status;
    }
    return status;
  }

  Description description(const TableSpec& spec) {
    std::string body = "{";
    detail::append_table_name(body, spec);
    body += '}';
    Description d;
    try {
      Lease x = send("DescribeTable", std::move(body), spec, std::nullopt, "open_table");
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

  static void check_schema(const TableSpec& spec,
                           const std::vector<std::pair<std::string, std::string>>& schema,
                           const std::vector<std::pair<std::string, std::string>>& attributes) {
    const auto type_of = [&](const std::string& name) {
      for (const auto& [n, t] : attributes) {
        if (n == name) return t;
      }
      return std::string("?");
    };
    const std::vector<std::pair<std::string, std::string>> expected{{spec.pk_attribute, "HASH"},
                                                                    {spec.sk_attribute, "RANGE"}};
    if (schema != expected || type_of(spec.pk_attribute) != "S" ||
        type_of(spec.sk_attribute) != "S") {
      std::string found;
      for (const auto& [n, t] : schema)
        found += (found.empty() ? "" : ", ") + n + " " + t + " " + type_of(n);
      throw BackendError(errc::schema_mismatch, "pksk::dynamodb: table \"" + spec.name +
                                                    "\" has the key schema [" + found +
                                                    "]; pksk needs [" + spec.pk_attribute +
                                                    " HASH S, " + spec.sk_attribute + " RANGE S]");
    }
  }

  static void append_attribute_definition(std::string& body, std::string_view name) {
    body += "{\"AttributeName\":";
    detail::append_json_string(body, name);
    body += ",\"AttributeType\":\"S\"}";
  }

  // "KeySchema":[pk HASH, sk RANGE], of the table or of an index.
  static void append_key_schema(std::string& body, std::string_view pk, std::string_view sk) {
    body += "\"KeySchema\":[{\"AttributeName\":";
    detail::append_json_string(body, pk);
    body += ",\"KeyType\":\"HASH\"},{\"AttributeName\":";
    detail::append_json_string(body, sk);
    body += ",\"KeyType\":\"RANGE\"}]";
  }

  // An index's definition: its key schema, every attribute projected (items read through it
  // decode as from the table).
  static void append_index_definition(std::string& body, const TableIndex& index) {
    body += "{\"IndexName\":";
    detail::append_json_string(body, index.name);
    body += ',';
    append_key_schema(body, index.pk_attribute, index.sk_attribute);
    body += ",\"Projection\":{\"ProjectionType\":\"ALL\"}}";
  }

  void create(const TableSpec& spec) {
    std::string body = "{";
    detail::append_table_name(body, spec);
    body += ",\"AttributeDefinitions\":[";
    append_attribute_definition(body, spec.pk_attribute);
    body += ',';
    append_attribute_definition(body, spec.sk_attribute);
    for (const TableIndex& index : spec.indexes) {
      body += ',';
      append_attribute_definition(body, index.pk_attribute);
      body += ',';
      append_attribute_definition(body, index.sk_attribute);
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
  void add_index(const TableSpec& spec, const TableIndex& index) {
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
      if (e.native().type != "ResourceInUseException" &&
          e.native().type != "LimitExceededException")
        throw;
    }
  }

  // An unconditional put or erase leaves the same item however often it is applied (a retried
  // erase may then report that it removed nothing); a conditional one could fail its own
  // condition the second time.
  static detail::Retry retry_for(const Condition* condition) {
    return condition == nullptr ? detail::Retry::always : detail::Retry::when_not_applied;
  }

  std::string request_token() {
    thread_local std::mt19937_64 random{std::random_device{}()};
    constexpr char digits[] = "0123456789abcdef";
    std::string token(32, '0');
    for (char& c : token) c = digits[random() & 15];
    return token;
  }

  static std::string key_text(const std::optional<ItemKey>& key) {
    if (!key) return "";
    return " of pk \"" + std::string(key->pk) + "\", sk \"" + std::string(key->sk) + '"';
  }

  // Sends one request, retrying what may be retried, and returns the exchange holding the
  // answer (status 200). Throws the pksk error that DynamoDB's refusal maps to.
  Lease send(std::string_view operation, std::string body, const TableSpec& spec,
             std::optional<ItemKey> key, std::string_view what,
             detail::Retry retry = detail::Retry::always,
             detail::Cancellation cancellation = detail::Cancellation::as_transaction) {
    Lease lease;
    detail::Exchange& x = *lease;
    const Options& options = shared_->options;
    x.request.method = "POST";
    x.request.url = shared_->endpoint;
    x.request.query.clear();
    x.request.headers.clear();
    x.request.headers.push_back({"Content-Type", "application/x-amz-json-1.0"});
    x.request.headers.push_back({"X-Amz-Target", "DynamoDB_20120810." + std::string(operation)});
    x.request.body = std::move(body);
    detail::CurlHandle& http = detail::thread_handle(shared_->id, shared_);
    thread_local std::mt19937_64 random{std::random_device{}()};

    const auto start = std::chrono::steady_clock::now();
    std::string last_failure;
    NativeError last_native{NativeError::Origin::dynamodb};
    errc last_code = errc::unavailable;
    for (int attempt = 1;; ++attempt) {
      detail::sign_v4(x.request, shared_->credentials, shared_->region, "dynamodb",
                      detail::amz_timestamp(std::chrono::system_clock::now()));
      http.post(x.request, options.connect_timeout, options.request_timeout, x.response);
      if (x.response.status == 200) return lease;
      bool maybe_applied = false;
      if (x.response.status == 0) {
        last_failure = "no answer: " + x.response.transport_error;
        maybe_applied = x.response.maybe_sent;
        last_native = {NativeError::Origin::dynamodb, 0, {}};
        last_code = errc::unavailable;
      } else {
        detail::ServiceError error = detail::parse_service_error(x.parser, x.response.body);
        last_code = detail::error_code_of(error.type, x.response.status);
        if (x.response.status < 500 && !is_retryable(last_code)) {
          raise(std::move(error), static_cast<int>(x.response.status), spec, key, what,
                cancellation);
        }
        last_failure =
            "HTTP " + std::to_string(x.response.status) + " " + error.type + ": " + error.message;
        last_native = {NativeError::Origin::dynamodb, static_cast<int>(x.response.status),
                       std::move(error.type)};
        // Throttling refuses a request before it is applied; a 5xx may come after.
        maybe_applied = x.response.status >= 500;
      }
      if (maybe_applied && retry == detail::Retry::when_not_applied) {
        throw BackendError(errc::unknown_outcome,
                           "pksk::dynamodb: " + std::string(what) + " on table \"" + spec.name +
                               "\"" + key_text(key) +
                               ": the answer was lost, so whether it was applied is unknown (it "
                               "is not sent again: it could apply twice): " +
                               last_failure,
                           std::move(last_native));
      }
      const auto elapsed = std::chrono::steady_clock::now() - start;
      if (attempt >= options.retry.max_attempts || elapsed >= options.retry.max_total) {
        throw BackendError(last_code,
                           "pksk::dynamodb: " + std::string(what) + " on table \"" + spec.name +
                               "\"" + key_text(key) + " failed after " + std::to_string(attempt) +
                               " attempts: " + last_failure,
                           std::move(last_native));
      }
      const auto ceiling = std::min<std::chrono::milliseconds>(
          options.retry.max_delay, options.retry.base_delay * (1LL << std::min(attempt - 1, 20)));
      std::uniform_int_distribution<long long> jitter(0, ceiling.count());
      const auto delay = std::chrono::milliseconds(jitter(random));
      std::this_thread::sleep_for(
          std::min<std::chrono::steady_clock::duration>(delay, options.retry.max_total - elapsed));
    }
  }

  [[noreturn]] void raise(detail::ServiceError error, int status, const TableSpec& spec,
                          const std::optional<ItemKey>& key, std::string_view what,
                          detail::Cancellation cancellation) {
    const std::string where =
        "pksk table \"" + spec.name + "\": " + std::string(what) + key_text(key) + ": ";
    const std::string said = " (DynamoDB: " + error.type + ": " + error.message + ")";
    NativeError native{NativeError::Origin::dynamodb, status, error.type};
    if (error.type == "TransactionCanceledException" &&
        cancellation == detail::Cancellation::as_single_write && error.reasons.size() == 1) {
      switch (error.reasons.front()) {
        case CancellationReason::condition_failed:
          throw ConditionFailed(where + "condition failed" + said, std::move(native));
        case CancellationReason::item_too_large:
          throw ItemTooLarge(where + "item too large" + said, std::move(native));
        case CancellationReason::validation:
          throw ValidationError(where + "refused" + said, std::move(native));
        case CancellationReason::throttled:
          throw BackendError(errc::throttled, where + "throttled" + said, std::move(native));
        case CancellationReason::conflict:
          throw BackendError(errc::conflict, where + "conflict" + said, std::move(native));
        case CancellationReason::none:
          break;
      }
    }
    switch (detail::error_code_of(error.type, status)) {
      case errc::condition_failed:
        throw ConditionFailed(where + "condition failed" + said, std::move(native));
      case errc::transaction_canceled: {
        std::string msg = where + "transaction canceled, reasons [";
        for (std::size_t i = 0; i < error.reasons.size(); ++i) {
          if (i) msg += ", ";
          msg += to_string(error.reasons[i]);
        }
        throw TransactionCanceled(msg + "]" + said, std::move(error.reasons), std::move(native));
      }
      case errc::validation:
        if (detail::says_item_too_large(error.message))
          throw ItemTooLarge(where + "item too large" + said, std::move(native));
        throw ValidationError(where + "refused" + said, std::move(native));
      default:
        throw BackendError(detail::error_code_of(error.type, status), where + "failed" + said,
                           std::move(native));
    }
  }
};

PKSK_DECL const std::string& Backend::TableHandle::name() const {
  return spec().name;
}
PKSK_DECL const TableSpec& Backend::TableHandle::spec() const {
  if (spec_ == nullptr)
    throw BackendError(errc::misuse, "pksk::dynamodb: use of an empty TableHandle");
  return *spec_;
}

PKSK_DECL Backend::Backend(Options options) : shared_(std::make_shared<Shared>()) {
  Impl{shared_}.construct(std::move(options));
}

PKSK_DECL const std::string& Backend::endpoint() const noexcept {
  return shared_->endpoint;
}
PKSK_DECL const std::string& Backend::region() const noexcept {
  return shared_->region;
}

PKSK_DECL Backend::TableHandle Backend::open_table(const TableSpec& spec) {
  return Impl{shared_}.open_table(spec);
}
PKSK_DECL bool Backend::get(TableHandle table, ItemKey key, ItemVisitor visit) {
  return Impl{shared_}.get(table, key, visit);
}
PKSK_DECL void Backend::put(TableHandle table, const PutRequest& request) {
  Impl{shared_}.put(table, request);
}
PKSK_DECL void Backend::update(TableHandle table, const UpdateRequest& request, ItemVisitor visit) {
  Impl{shared_}.update(table, request, visit);
}
PKSK_DECL bool Backend::erase(TableHandle table, const EraseRequest& request) {
  return Impl{shared_}.erase(table, request);
}
PKSK_DECL void Backend::transact(TableHandle table, std::span<const WriteRequest> writes) {
  Impl{shared_}.transact(table, writes);
}
PKSK_DECL void Backend::batch_write(TableHandle table, std::span<const WriteRequest> writes,
                                    std::vector<std::size_t>& unprocessed) {
  Impl{shared_}.batch_write(table, writes, unprocessed);
}
PKSK_DECL void Backend::batch_get(TableHandle table, std::span<const ItemKey> keys,
                                  IndexedItemVisitor visit, std::vector<std::size_t>& unprocessed) {
  Impl{shared_}.batch_get(table, keys, visit, unprocessed);
}
PKSK_DECL QueryOutcome Backend::query(TableHandle table, const RawQuery& query, ItemVisitor visit) {
  return Impl{shared_}.query(table, query, visit);
}
PKSK_DECL ScanOutcome Backend::scan(TableHandle table, const RawScan& scan, ItemVisitor visit) {
  return Impl{shared_}.scan(table, scan, visit);
}

}  // namespace pksk::dynamodb
