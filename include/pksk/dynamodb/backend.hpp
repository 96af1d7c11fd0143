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

// The DynamoDB backend: each operation is one DynamoDB request (or a few: batches of 25, retries),
// signed with SigV4 and sent over the transport (libcurl by default). Region and credentials are
// found as the AWS SDKs find them (credentials/). A Backend may be shared by threads. What a Table
// calls (the backend contract, backend/backend.hpp).
class Backend {
  // What the operations share: declared in impl/backend_impl.ipp, defined in the .ipp files
  // beside it, one per concern (impl/backend.ipp lists them).
  struct Impl;
  struct Shared;

 public:
  // The backend's options (dynamodb/options.hpp).
  using Options = dynamodb::Options;

  // Cheap to copy; valid as long as the Backend that opened it lives. Usable from any thread.
  class TableHandle {
   public:
    // A handle that refers to no table; using it throws BackendError (misuse).
    // Throws: nothing.
    // Exception safety: nothrow.
    TableHandle() = default;
    // The table's name.
    // Throws: BackendError (misuse) for a handle that refers to no table.
    // Exception safety: strong.
    PKSK_DECL const std::string& name() const;
    // The spec the table was opened with.
    // Throws: BackendError (misuse) for a handle that refers to no table.
    // Exception safety: strong.
    PKSK_DECL const backend::TableSpec& spec() const;
    friend bool operator==(const TableHandle&, const TableHandle&) = default;

   private:
    friend class Backend;
    friend struct Backend::Impl;
    explicit TableHandle(const backend::TableSpec* spec) : spec_(spec) {}
    const backend::TableSpec* spec_ = nullptr;
  };

  // Bodies are DynamoDB AttributeValue maps (codec/body_format.hpp).
  static constexpr BodyFormat body_format = BodyFormat::attribute_value;

  // Resolves the region and the credentials now, so that a missing one fails here.
  // Throws: BackendError (misuse) when no region is found, and (access_denied) when no credentials
  // are found or their provider fails.
  // Exception safety: strong.
  PKSK_DECL explicit Backend(Options options);

  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  // Moves the shared state (connections, credentials) over.
  // Throws: nothing.
  // Exception safety: nothrow.
  Backend(Backend&&) noexcept = default;
  // Moves the shared state over; the state this one held is released.
  // Throws: nothing.
  // Exception safety: nothrow.
  Backend& operator=(Backend&&) noexcept = default;
  ~Backend() = default;

  // The endpoint requests go to (https://dynamodb.<region>.amazonaws.com unless given).
  // Throws: nothing.
  // Exception safety: nothrow.
  PKSK_DECL const std::string& endpoint() const noexcept;
  // The region requests are signed for.
  // Throws: nothing.
  // Exception safety: nothrow.
  PKSK_DECL const std::string& region() const noexcept;

  // Checks with DescribeTable that the table's key schema is the spec's (a string partition
  // key and a string sort key of those names); creates it first if it is missing and
  // Options::create_missing_tables is set.
  // Throws: BackendError: missing_table (not created), schema_mismatch (another key schema), or
  // BackendError on DynamoDB's failure after the retries (throttled, conflict, unavailable;
  // access_denied; missing_table; unknown_outcome when a write's answer was lost).
  // Exception safety: basic: a table created (and its TTL turned on) stays when a later step fails;
  // opening it again goes on from there.
  PKSK_DECL TableHandle open_table(const backend::TableSpec& spec);

  // GetItem: visit(backend::ItemView) with the item if there is one; true if there was.
  // Throws: ValidationError as DynamoDB answers it, BackendError on DynamoDB's failure after the
  // retries (throttled, conflict, unavailable; access_denied; missing_table; unknown_outcome when a
  // write's answer was lost); what visit throws.
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL bool get(TableHandle table, backend::ItemKey key, backend::ItemVisitor visit);

  // PutItem (or a one-action TransactWriteItems, exactly_once_writes), with the request's condition
  // and returns.
  // Throws: ConditionFailed, ValidationError and ItemTooLarge as DynamoDB answers them,
  // BackendError on DynamoDB's failure after the retries (throttled, conflict, unavailable;
  // access_denied; missing_table; unknown_outcome when a write's answer was lost).
  // Exception safety: strong, except after a BackendError errc::unknown_outcome: the write may or
  // may not have been applied (read the item to know).
  PKSK_DECL void put(TableHandle table, const backend::PutRequest& request);

  // DynamoDB's UpdateItem, the item as written (ALL_NEW) handed to visit. Unlike the SQLite
  // backend, the item is already written when the visitor sees it.
  // Throws: ConditionFailed, ValidationError and ItemTooLarge as DynamoDB answers them,
  // BackendError on DynamoDB's failure after the retries (throttled, conflict, unavailable;
  // access_denied; missing_table; unknown_outcome when a write's answer was lost); what visit
  // throws.
  // Exception safety: strong, except after a BackendError errc::unknown_outcome: the write may or
  // may not have been applied (read the item to know). An exception from visit comes after the
  // write: it is applied.
  PKSK_DECL void update(TableHandle table, const backend::UpdateRequest& request,
                        backend::ItemVisitor visit);

  // DeleteItem, with the request's condition and returns; true if an item was removed.
  // Throws: ConditionFailed, ValidationError as DynamoDB answers it, BackendError on DynamoDB's
  // failure after the retries (throttled, conflict, unavailable; access_denied; missing_table;
  // unknown_outcome when a write's answer was lost).
  // Exception safety: strong, except after a BackendError errc::unknown_outcome: the write may or
  // may not have been applied (read the item to know).
  PKSK_DECL bool erase(TableHandle table, const backend::EraseRequest& request);

  // TransactWriteItems with a client request token: a commit retried after a lost answer is
  // applied once (DynamoDB remembers the token for 10 minutes).
  // Throws: TransactionCanceled with a reason per action, ValidationError, BackendError on
  // DynamoDB's failure after the retries (throttled, conflict, unavailable; access_denied;
  // missing_table; unknown_outcome when a write's answer was lost).
  // Exception safety: strong: all or nothing (the token makes a retried commit apply once).
  PKSK_DECL void transact(TableHandle table, std::span<const backend::WriteRequest> writes);

  // BatchWriteItem, 25 writes a request (Table hands over larger slices, which the SQLite
  // backend writes in one transaction); the writes DynamoDB hands back unprocessed go to
  // `unprocessed` (Table sends them again with backoff).
  // Throws: ValidationError as DynamoDB answers it, BackendError on DynamoDB's failure after the
  // retries (throttled, conflict, unavailable; access_denied; missing_table; unknown_outcome when a
  // write's answer was lost).
  // Exception safety: basic: the requests of 25 sent before a failure are written; within one, each
  // write is applied or handed back unprocessed.
  PKSK_DECL void batch_write(TableHandle table, std::span<const backend::WriteRequest> writes,
                             std::vector<std::size_t>& unprocessed);

  // BatchGetItem: visit(i, item) for each keys[i] found (in the order DynamoDB answers);
  // keys it hands back unread go to `unprocessed`.
  // Throws: ValidationError as DynamoDB answers it, BackendError on DynamoDB's failure after the
  // retries (throttled, conflict, unavailable; access_denied; missing_table; unknown_outcome when a
  // write's answer was lost); what visit throws.
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL void batch_get(TableHandle table, std::span<const backend::ItemKey> keys,
                           backend::IndexedItemVisitor visit,
                           std::vector<std::size_t>& unprocessed);

  // TransactGetItems: visit(i, item) for each keys[i] found, every item as it was at one
  // moment. Canceled because a transaction was writing one of the items, it is sent again as
  // a conflict is (RetryOptions); then TransactionCanceled with a reason per key.
  // Throws: TransactionCanceled, ValidationError, BackendError on DynamoDB's failure after the
  // retries (throttled, conflict, unavailable; access_denied; missing_table; unknown_outcome when a
  // write's answer was lost); what visit throws.
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL void transact_get(TableHandle table, std::span<const backend::ItemKey> keys,
                              backend::IndexedItemVisitor visit);

  // Query; with count_only, Select=COUNT (no items in the answer), unless part of the filter
  // names a key attribute, which DynamoDB's FilterExpression cannot: the items then come back,
  // that part is applied here, and what it keeps is counted.
  // Throws: ValidationError as DynamoDB answers it (a consistent read of a global index, a bad
  // expression), BackendError on DynamoDB's failure after the retries (throttled, conflict,
  // unavailable; access_denied; missing_table; unknown_outcome when a write's answer was lost);
  // what visit throws.
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL backend::QueryOutcome query(TableHandle table, const backend::RawQuery& query,
                                        backend::ItemVisitor visit);

  // Scan (of one segment with segments > 1): one page, handed item by item to visit.
  // Throws: ValidationError as DynamoDB answers it, BackendError on DynamoDB's failure after the
  // retries (throttled, conflict, unavailable; access_denied; missing_table; unknown_outcome when a
  // write's answer was lost); what visit throws.
  // Exception safety: strong (a read changes nothing).
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
