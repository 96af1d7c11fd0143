// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk::dynamodb::Backend: the Backend contract (backend/backend.hpp) over DynamoDB's JSON API,
// for Amazon DynamoDB or anything that speaks it (DynamoDB Local, ScyllaDB Alternator,
// LocalStack). Requests are rendered by detail/request.hpp, signed with SigV4 (with the
// credentials of Options, or of the program's Options::credentials_provider), sent over libcurl
// with a handle per thread (or through the program's Options::transport, transport.hpp),
// retried with backoff on throttling, 5xx answers and dropped connections; answers are read
// with simdjson On-Demand and each item is handed to the visitor as views into the response,
// as the SQLite backend hands views into its rows.
//
// This header declares the Backend; its definitions are in impl/backend.ipp, included at the
// end in header-only mode and compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION,
// so that <curl/curl.h> and the HTTP, signing and answer-reading code stay out of the
// program's other translation units.

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "../backend/backend.hpp"
#include "../detail/config.hpp"
#include "../error.hpp"
#include "options.hpp"

namespace pksk::dynamodb {

class Backend {
  // What the operations share: declared in impl/backend_impl.ipp, defined in the .ipp files
  // beside it, one per concern (impl/backend.ipp lists them).
  struct Impl;
  struct Shared;

 public:
  using Options = dynamodb::Options;

  // Cheap to copy; valid as long as the Backend that opened it lives. Usable from any thread.
  class TableHandle {
   public:
    TableHandle() = default;
    PKSK_DECL const std::string& name() const;
    PKSK_DECL const backend::TableSpec& spec() const;
    friend bool operator==(const TableHandle&, const TableHandle&) = default;

   private:
    friend class Backend;
    friend struct Backend::Impl;
    explicit TableHandle(const backend::TableSpec* spec) : spec_(spec) {}
    const backend::TableSpec* spec_ = nullptr;
  };

  static constexpr BodyFormat body_format = BodyFormat::attribute_value;

  // Resolves the region and the credentials now, so that a missing one fails here.
  PKSK_DECL explicit Backend(Options options);

  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  Backend(Backend&&) noexcept = default;
  Backend& operator=(Backend&&) noexcept = default;
  ~Backend() = default;

  PKSK_DECL const std::string& endpoint() const noexcept;
  PKSK_DECL const std::string& region() const noexcept;

  // Checks with DescribeTable that the table's key schema is the spec's (a string partition
  // key and a string sort key of those names); creates it first if it is missing and
  // Options::create_missing_tables is set.
  PKSK_DECL TableHandle open_table(const backend::TableSpec& spec);

  PKSK_DECL bool get(TableHandle table, backend::ItemKey key, backend::ItemVisitor visit);

  PKSK_DECL void put(TableHandle table, const backend::PutRequest& request);

  // DynamoDB's UpdateItem, the item as written (ALL_NEW) handed to visit. Unlike the SQLite
  // backend, the item is already written when the visitor sees it.
  PKSK_DECL void update(TableHandle table, const backend::UpdateRequest& request,
                        backend::ItemVisitor visit);

  PKSK_DECL bool erase(TableHandle table, const backend::EraseRequest& request);

  // TransactWriteItems with a client request token: a commit retried after a lost answer is
  // applied once (DynamoDB remembers the token for 10 minutes).
  PKSK_DECL void transact(TableHandle table, std::span<const backend::WriteRequest> writes);

  // BatchWriteItem, 25 writes a request (Table hands over larger slices, which the SQLite
  // backend writes in one transaction); the writes DynamoDB hands back unprocessed go to
  // `unprocessed` (Table sends them again with backoff).
  PKSK_DECL void batch_write(TableHandle table, std::span<const backend::WriteRequest> writes,
                             std::vector<std::size_t>& unprocessed);

  // BatchGetItem: visit(i, item) for each keys[i] found (in the order DynamoDB answers);
  // keys it hands back unread go to `unprocessed`.
  PKSK_DECL void batch_get(TableHandle table, std::span<const backend::ItemKey> keys,
                           backend::IndexedItemVisitor visit,
                           std::vector<std::size_t>& unprocessed);

  // TransactGetItems: visit(i, item) for each keys[i] found, every item as it was at one
  // moment. Canceled because a transaction was writing one of the items, it is sent again as
  // a conflict is (RetryOptions); then TransactionCanceled with a reason per key.
  PKSK_DECL void transact_get(TableHandle table, std::span<const backend::ItemKey> keys,
                              backend::IndexedItemVisitor visit);

  // Query; with count_only, Select=COUNT (no items in the answer), unless part of the filter
  // names a key attribute, which DynamoDB's FilterExpression cannot: the items then come back,
  // that part is applied here, and what it keeps is counted.
  PKSK_DECL backend::QueryOutcome query(TableHandle table, const backend::RawQuery& query,
                                        backend::ItemVisitor visit);

  PKSK_DECL backend::ScanOutcome scan(TableHandle table, const backend::RawScan& scan,
                                      backend::ItemVisitor visit);

 private:
  std::shared_ptr<Shared> shared_;
};

static_assert(pksk::TransactGetBackend<Backend>);

}  // namespace pksk::dynamodb

// What <pksk/src.hpp> looks for to compile this backend in its translation unit.
#define PKSK_DETAIL_DYNAMODB_BACKEND_DECLARED

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/backend.ipp"
#endif
