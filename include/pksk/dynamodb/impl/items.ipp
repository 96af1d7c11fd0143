// SPDX-License-Identifier: BSL-1.0
#pragma once
// The data plane: the item operations of the Backend contract as DynamoDB requests (rendered by
// detail/request.hpp), their writes sent once when an answer may be lost
// (Options::exactly_once_writes), their answers handed to the visitors as views.

#include "answers.ipp"  // its templates
#include "backend_impl.ipp"

namespace pksk::dynamodb {

inline bool Backend::Impl::get(TableHandle table, backend::ItemKey key,
                               backend::ItemVisitor visit) {
  const backend::TableSpec& spec = table.spec();
  std::string body = "{";
  detail::append_table_name(body, spec);
  body += ",\"Key\":";
  detail::append_key(body, spec, key);
  body += ",\"ConsistentRead\":true}";
  Answer x = send("GetItem", std::move(body), spec, key, "get");
  bool found = false;
  for_each_member(*x, [&](std::string_view name, simdjson::ondemand::value value) {
    if (name != "Item") return;
    simdjson::ondemand::object item = object_of(value);
    if (backend::has_ttl(spec) && detail::expired(item, spec, backend::ttl_now(spec))) return;
    found = true;
    visit(detail::item_view(item, spec));
  });
  return found;
}

inline void Backend::Impl::put(TableHandle table, const backend::PutRequest& request) {
  const backend::TableSpec& spec = table.spec();
  const backend::ItemKey key{request.item.pk, request.item.sk};
  if (request.condition != nullptr && exactly_once(table)) {
    refuse_old_item(spec, request.returns, key, "put");
    send_once(spec, request, key, "put");
    return;
  }
  Answer x = send("PutItem", detail::put_item(spec, request), spec, key, "put",
                  retry_for(request.condition));
  if (request.returns.old_item != nullptr) visit_attributes(*x, spec, *request.returns.old_item);
}

inline void Backend::Impl::update(TableHandle table, const backend::UpdateRequest& request,
                                  backend::ItemVisitor visit) {
  const backend::TableSpec& spec = table.spec();
  if (exactly_once(table)) {
    send_once(spec, request, request.key, "update");
    // Read back at once; a write by someone else in between shows in the result.
    if (!get(table, request.key, visit)) {
      throw BackendError(errc::unknown_outcome,
                         detail::context(spec.name, "update" + key_text(request.key)) +
                             "applied, but another write erased the item before it was read back");
    }
    return;
  }
  Answer x = send("UpdateItem", detail::update_item(spec, request), spec, request.key, "update",
                  detail::Retry::when_not_applied);
  for_each_member(*x, [&](std::string_view name, simdjson::ondemand::value value) {
    if (name != "Attributes") return;
    simdjson::ondemand::object item = object_of(value);
    visit(detail::item_view(item, spec));
  });
}

inline bool Backend::Impl::erase(TableHandle table, const backend::EraseRequest& request) {
  const backend::TableSpec& spec = table.spec();
  if (request.condition != nullptr && exactly_once(table)) {
    refuse_old_item(spec, request.returns, request.key, "erase");
    // Sent once, the erase cannot say whether it removed an item, so it asks for one to exist
    // as well. Refused, it removed nothing: if the item is there, its condition failed; if it
    // is not, DeleteItem gives the plain answer (sent again, it has nothing to apply twice).
    const backend::Condition present = detail::exists_and(spec, *request.condition);
    try {
      send_once(spec, backend::EraseRequest{request.key, &present, request.returns}, request.key,
                "erase");
      return true;
    } catch (const ConditionFailed&) {
      if (get(table, request.key, [](const backend::ItemView&) {})) throw;
    }
    return erase_item(spec, request, detail::Retry::always);
  }
  return erase_item(spec, request, retry_for(request.condition));
}

inline void Backend::Impl::transact(TableHandle table,
                                    std::span<const backend::WriteRequest> writes) {
  const backend::TableSpec& spec = table.spec();
  (void)send("TransactWriteItems", detail::transact_write_items(spec, writes, request_token()),
             spec, std::nullopt, "transaction");
}

inline void Backend::Impl::batch_write(TableHandle table,
                                       std::span<const backend::WriteRequest> writes,
                                       std::vector<std::size_t>& unprocessed) {
  unprocessed.clear();
  for (std::size_t start = 0; start < writes.size(); start += backend::max_batch_write_items) {
    batch_write_group(
        table.spec(),
        writes.subspan(start, std::min(backend::max_batch_write_items, writes.size() - start)),
        start, unprocessed);
  }
}

inline bool Backend::Impl::erase_item(const backend::TableSpec& spec,
                                      const backend::EraseRequest& request, detail::Retry retry) {
  Answer x =
      send("DeleteItem", detail::delete_item(spec, request), spec, request.key, "erase", retry);
  bool removed = false;
  for_each_member(*x, [&](std::string_view name, simdjson::ondemand::value value) {
    if (name != "Attributes") return;
    removed = true;
    if (request.returns.old_item != nullptr) {
      simdjson::ondemand::object item = object_of(value);
      (*request.returns.old_item)(detail::item_view(item, spec));
    }
  });
  return removed;
}

// The Attributes of a write's answer (ReturnValues ALL_OLD) to `visit`, if it has them.
inline void Backend::Impl::visit_attributes(detail::Exchange& x, const backend::TableSpec& spec,
                                            backend::ItemVisitor visit) {
  for_each_member(x, [&](std::string_view name, simdjson::ondemand::value value) {
    if (name != "Attributes") return;
    simdjson::ondemand::object item = object_of(value);
    visit(detail::item_view(item, spec));
  });
}

// A transaction returns no old item: a write sent exactly once cannot say what it replaced.
inline void Backend::Impl::refuse_old_item(const backend::TableSpec& spec,
                                           const backend::WriteReturns& returns,
                                           backend::ItemKey key, std::string_view what) {
  if (returns.old_item == nullptr) return;
  throw ValidationError(detail::context(spec.name, std::string(what) + key_text(key)) +
                        "return_old needs a plain write, and this table writes exactly once "
                        "(Options::exactly_once_writes: a transaction, which returns no old "
                        "item); nothing was written");
}

// One write as a one-action TransactWriteItems under a fresh client request token, retried
// with that token: DynamoDB applies it once. Its cancellation is the plain request's error.
inline void Backend::Impl::send_once(const backend::TableSpec& spec,
                                     const backend::WriteRequest& write, backend::ItemKey key,
                                     std::string_view what) {
  (void)send("TransactWriteItems",
             detail::transact_write_items(spec, std::span(&write, 1), request_token()), spec, key,
             what, detail::Retry::always, detail::Cancellation::as_single_write);
}

inline void Backend::Impl::batch_write_group(const backend::TableSpec& spec,
                                             std::span<const backend::WriteRequest> writes,
                                             std::size_t offset,
                                             std::vector<std::size_t>& unprocessed) {
  Answer x = send("BatchWriteItem", detail::batch_write_item(spec, writes), spec, std::nullopt,
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
                                     const backend::ItemView v = detail::key_view(o, spec);
                                     for (std::size_t i = 0; i < writes.size(); ++i) {
                                       if (key_of(writes[i]) == backend::ItemKey{v.pk, v.sk})
                                         unprocessed.push_back(offset + i);
                                     }
                                   });
          }
        });
  });
}

inline void Backend::Impl::batch_get(TableHandle table, std::span<const backend::ItemKey> keys,
                                     backend::IndexedItemVisitor visit,
                                     std::vector<std::size_t>& unprocessed) {
  const backend::TableSpec& spec = table.spec();
  unprocessed.clear();
  Answer x =
      send("BatchGetItem", detail::batch_get_item(spec, keys), spec, std::nullopt, "batch get");
  const bool ttl = backend::has_ttl(spec);
  const std::int64_t now = ttl ? backend::ttl_now(spec) : 0;
  const auto index_of = [&](const backend::ItemView& v, auto&& each) {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == backend::ItemKey{v.pk, v.sk}) each(i);
    }
  };
  for_each_member(*x, [&](std::string_view name, simdjson::ondemand::value value) {
    if (name == "Responses") {
      for_each_object_member(object_of(value),
                             [&](std::string_view, simdjson::ondemand::value items) {
                               for (auto entry : array_of(items)) {
                                 simdjson::ondemand::object item = object_of(value_of(entry));
                                 if (ttl && detail::expired(item, spec, now)) continue;
                                 const backend::ItemView v = detail::item_view(item, spec);
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
              const backend::ItemView v = detail::key_view(key, spec);
              index_of(v, [&](std::size_t i) { unprocessed.push_back(i); });
            }
          });
    }
  });
}

// TransactGetItems: the answer's Responses are in the order of the keys, each {} for a key
// not found or {"Item": ...}. A TransactionCanceledException whose reasons are conflicts only
// (a transaction was writing one of the items) is retried as a conflict is (RetryOptions).
inline void Backend::Impl::transact_get(TableHandle table, std::span<const backend::ItemKey> keys,
                                        backend::IndexedItemVisitor visit) {
  const backend::TableSpec& spec = table.spec();
  Answer x = send("TransactGetItems", detail::transact_get_items(spec, keys), spec, std::nullopt,
                  "transact_get", detail::Retry::always, detail::Cancellation::retry_conflicts);
  const bool ttl = backend::has_ttl(spec);
  const std::int64_t now = ttl ? backend::ttl_now(spec) : 0;
  for_each_member(*x, [&](std::string_view name, simdjson::ondemand::value value) {
    if (name != "Responses") return;
    std::size_t i = 0;
    for (auto entry : array_of(value)) {
      if (i == keys.size()) break;
      for_each_object_member(object_of(value_of(entry)),
                             [&](std::string_view field, simdjson::ondemand::value item) {
                               if (field != "Item") return;
                               simdjson::ondemand::object object = object_of(item);
                               if (ttl && detail::expired(object, spec, now)) return;
                               visit(i, detail::item_view(object, spec));
                             });
      ++i;
    }
  });
}

// A table with a ttl attribute filters expired items out in DynamoDB's FilterExpression: they
// count toward Limit there as they would if a filter of the caller's rejected them, and never
// travel. (Filtering them on the client instead costs their bytes on the wire.)
inline backend::QueryOutcome Backend::Impl::query(TableHandle table, const backend::RawQuery& query,
                                                  backend::ItemVisitor visit) {
  const backend::TableSpec& spec = table.spec();
  backend::RawQuery q = query;
  backend::Condition ttl_filter;
  if (backend::has_ttl(spec)) {
    q.filter = backend::with_unexpired(spec, query.filter, backend::ttl_now(spec), ttl_filter);
  }
  detail::ReadRequest request = detail::query(spec, q);
  const TableIndex* index = query.index.empty() ? nullptr : spec.find_index(query.index);
  Answer x = send("Query", std::move(request.body), spec, std::nullopt, "query");
  backend::QueryOutcome outcome;
  // A count-only query whose filter is all DynamoDB's has its Count; one that filters on the
  // client counts the items the client filter keeps.
  std::size_t counted = 0;
  const auto count_item = [&](const backend::ItemView&) { ++counted; };
  if (query.count_only && !request.count) visit = count_item;
  read_page(*x, spec, request.client_filter, outcome.evaluated, request.count ? &counted : nullptr,
            visit, [&](simdjson::ondemand::object& key) {
              const detail::LastKey last = detail::last_key(key, spec, index);
              if (index == nullptr) {
                outcome.last_evaluated_sk = std::string(last.sk);
              } else {
                outcome.last_evaluated_sk = std::string(last.index_sk);
                outcome.last_evaluated_item_pk = std::string(last.pk);
                outcome.last_evaluated_item_sk = std::string(last.sk);
              }
            });
  if (query.count_only) outcome.count = counted;
  return outcome;
}

inline backend::ScanOutcome Backend::Impl::scan(TableHandle table, const backend::RawScan& scan,
                                                backend::ItemVisitor visit) {
  const backend::TableSpec& spec = table.spec();
  backend::RawScan s = scan;
  backend::Condition ttl_filter;
  if (backend::has_ttl(spec)) {
    s.filter = backend::with_unexpired(spec, scan.filter, backend::ttl_now(spec), ttl_filter);
  }
  detail::ReadRequest request = detail::scan(spec, s);
  Answer x = send("Scan", std::move(request.body), spec, std::nullopt, "scan");
  backend::ScanOutcome outcome;
  read_page(*x, spec, request.client_filter, outcome.evaluated, nullptr, visit,
            [&](simdjson::ondemand::object& key) {
              const detail::LastKey last = detail::last_key(key, spec, nullptr);
              outcome.last_evaluated_pk = std::string(last.pk);
              outcome.last_evaluated_sk = std::string(last.sk);
            });
  return outcome;
}

}  // namespace pksk::dynamodb
