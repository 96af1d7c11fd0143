// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk::sqlite::Backend: the embedded reference backend. Each pksk table is one SQLite table
// (pk, sk, <type attribute>, body, size) keyed WITHOUT ROWID on (pk, sk), so an item collection
// is one contiguous B-tree range read in sort-key byte order, as DynamoDB reads a partition.
// Bodies are plain JSON, readable in the sqlite3 shell. Conditions, updates and transactions
// run read-evaluate-write inside one BEGIN IMMEDIATE transaction, evaluated in C++ with
// DynamoDB's typed semantics (backend/emulation/evaluate.hpp).
//
// Threading: a Backend and the tables over it may be shared by any number of threads. Each
// thread gets its own connection to the file (detail/connections.hpp says why), opened on its
// first call, with its own prepared statements; WAL lets readers run alongside the one writer,
// and a writer waits for another's lock with a bounded wait and retry (Options::busy_timeout).
// Several processes may open the same file the same way. After fork(), the child opens its own
// Backend: SQLite connections must not cross a fork.
//
// This header declares the Backend; its definitions are in impl/backend.ipp, included at the
// end in header-only mode and compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION,
// so that <sqlite3.h> stays out of the program's other translation units.

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "../backend/backend.hpp"
#include "../detail/config.hpp"
#include "../error.hpp"
#include "options.hpp"

struct sqlite3;  // <sqlite3.h>'s connection, for native_handle()

namespace pksk::sqlite::detail {
struct Shared;
struct TableState;
}  // namespace pksk::sqlite::detail

namespace pksk::sqlite {

// The SQLite backend, the reference: a table is a SQLite table in one file, read and written with
// DynamoDB's semantics (docs/backends.md). One connection per thread; a Backend may be shared by
// threads. What a Table calls (the backend contract, backend/backend.hpp).
class Backend {
  // What the operations share: declared in impl/backend_impl.ipp, defined in the .ipp files
  // beside it, one per concern (impl/backend.ipp lists them).
  struct Impl;

 public:
  // The backend's options (sqlite/options.hpp).
  using Options = sqlite::Options;

  // An open table, as open_table returns it: cheap to copy, valid while the Backend lives.
  class TableHandle {
   public:
    // Throws: nothing.
    // Exception safety: nothrow.
    TableHandle() = default;  // refers to no table; using it throws pksk::Error
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
    explicit TableHandle(const detail::TableState* state) : state_(state) {}
    PKSK_DECL const detail::TableState& state() const;
    const detail::TableState* state_ = nullptr;
  };

  // `path` is a file name (created if absent unless read_only), or ":memory:" (or "") for a
  // database that lives in this Backend's one connection (see detail/connections.hpp).
  // Throws: BackendError when the file cannot be opened (io_error, access_denied), is not a
  // database (corrupt), or SQLite fails otherwise.
  // Exception safety: strong (a file created for it is left, empty).
  PKSK_DECL explicit Backend(std::string path, Options options = {});

  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  // Moving hands the shared state over: handles and other threads' connections move with it.
  // Throws: nothing.
  // Exception safety: nothrow.
  Backend(Backend&& other) noexcept = default;
  // Moves the shared state, as the move constructor; the state this one held is released.
  // Throws: nothing.
  // Exception safety: nothrow.
  Backend& operator=(Backend&& other) noexcept = default;
  // Closes every thread's connection: no other thread may be using the Backend by then.
  // Throws: nothing.
  // Exception safety: nothrow.
  ~Backend() = default;

  // The file's path, as given.
  // Throws: nothing.
  // Exception safety: nothrow.
  PKSK_DECL const std::string& path() const noexcept;
  // The calling thread's connection, for what pksk does not wrap (backups, inspection); do not
  // close it or change its schema, and use it from this thread only.
  // Throws: BackendError on SQLite's failure (throttled: the write lock held past busy_timeout;
  // access_denied: a read-only file; io_error; corrupt; misuse: an empty handle), when this
  // thread's connection cannot be opened.
  // Exception safety: strong.
  PKSK_DECL ::sqlite3* native_handle() const;

  // Bodies are stored as JSON text (codec/body_format.hpp).
  static constexpr BodyFormat body_format = BodyFormat::json;

  // Creates the table if absent, or checks that it has exactly pksk's schema for this spec.
  // Throws: BackendError: missing_table for an absent table on a read-only file, schema_mismatch
  // for a table with other columns or indexes, access_denied for indexes to add on a read-only
  // file, or SQLite's failure.
  // Exception safety: strong: the table, and then the indexes it lacks, are each created in one
  // transaction; a failure adding the indexes leaves the table created.
  PKSK_DECL TableHandle open_table(const backend::TableSpec& spec);

  // Calls visit(backend::ItemView) with views valid only during the call: type and body point into
  // SQLite's memory, pk and sk are the caller's own (byte-equal to the stored keys).
  // Throws: BackendError on SQLite's failure (io_error, corrupt; misuse: an empty handle); what
  // visit throws.
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL bool get(TableHandle table, backend::ItemKey key, backend::ItemVisitor visit);

  // Writes the item, replacing any with its key; with a condition, only if it holds on the
  // stored item (or on no attributes at all when there is none), else ConditionFailed.
  // Throws: ConditionFailed, ValidationError for a key past DynamoDB's limits, BackendError on
  // SQLite's failure (throttled: the write lock held past busy_timeout; access_denied: a read-only
  // file; io_error; corrupt; misuse: an empty handle).
  // Exception safety: strong: the write is one SQLite transaction, rolled back on any failure.
  PKSK_DECL void put(TableHandle table, const backend::PutRequest& request);

  // DynamoDB's UpdateItem: applies the actions to the stored item, or to a new one holding only
  // its key and type, and hands the item as written to visit(backend::ItemView) before committing,
  // so that an item the caller cannot decode (a stored body that was already bad) is not written.
  //
  // Only the attributes the actions and the condition name are parsed (backend::BodyPatch); the
  // rest of the stored body is copied back as it was, and the new size is the stored one changed by
  // what the named attributes gained or lost.
  // Throws: ConditionFailed, ValidationError (an action DynamoDB refuses: on a key attribute, a
  // type mismatch, a key past its limits), ItemTooLarge for an item past 400 KB as updated,
  // BackendError on SQLite's failure (throttled: the write lock held past busy_timeout;
  // access_denied: a read-only file; io_error; corrupt; misuse: an empty handle); what visit
  // throws, which rolls the update back.
  // Exception safety: strong: the write is one SQLite transaction, rolled back on any failure.
  PKSK_DECL void update(TableHandle table, const backend::UpdateRequest& request,
                        backend::ItemVisitor visit);

  // Removes the item; with a condition, only if it holds. True if an item was removed.
  // Throws: ConditionFailed, BackendError on SQLite's failure (throttled: the write lock held past
  // busy_timeout; access_denied: a read-only file; io_error; corrupt; misuse: an empty handle).
  // Exception safety: strong: the write is one SQLite transaction, rolled back on any failure.
  PKSK_DECL bool erase(TableHandle table, const backend::EraseRequest& request);

  // All or nothing: every condition is evaluated first, on the items as they were, and one that
  // fails cancels the whole with a reason per request (DynamoDB's CancellationReasons); then the
  // writes are made in order inside the same SQLite transaction, which any failure rolls back.
  // The caller has checked DynamoDB's limits (at most 100 requests, one per item).
  // Throws: TransactionCanceled (a reason per request) when a condition fails, ValidationError and
  // ItemTooLarge as the single writes throw them, BackendError on SQLite's failure (throttled: the
  // write lock held past busy_timeout; access_denied: a read-only file; io_error; corrupt; misuse:
  // an empty handle).
  // Exception safety: strong: the write is one SQLite transaction, rolled back on any failure.
  PKSK_DECL void transact(TableHandle table, std::span<const backend::WriteRequest> writes);

  // Unconditional puts and erases in one SQLite transaction: an embedded file has no
  // throughput limit to hand items back for, so none is ever unprocessed.
  // Throws: ValidationError, ItemTooLarge as the single writes throw them, BackendError on SQLite's
  // failure (throttled: the write lock held past busy_timeout; access_denied: a read-only file;
  // io_error; corrupt; misuse: an empty handle).
  // Exception safety: strong: the write is one SQLite transaction, rolled back on any failure.
  PKSK_DECL void batch_write(TableHandle table, std::span<const backend::WriteRequest> writes,
                             std::vector<std::size_t>& unprocessed);

  // visit(i, item) for each keys[i] found, in the order of the keys.
  // Throws: BackendError on SQLite's failure (io_error, corrupt; misuse: an empty handle); what
  // visit throws.
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL void batch_get(TableHandle table, std::span<const backend::ItemKey> keys,
                           backend::IndexedItemVisitor visit,
                           std::vector<std::size_t>& unprocessed);

  // visit(i, item) for each keys[i] found, in the order of the keys, every item read in one
  // SQLite read transaction: as they all were at one moment, whatever is written meanwhile.
  // Throws: BackendError on SQLite's failure (io_error, corrupt; misuse: an empty handle); what
  // visit throws.
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL void transact_get(TableHandle table, std::span<const backend::ItemKey> keys,
                              backend::IndexedItemVisitor visit);

  // Deletes the items whose time to live (TableOptions::ttl_attribute) has passed, and returns
  // how many. Reads never return them anyway: a sweep gives their space back, when the program
  // calls it (Maintenance::sweep_expired), never on its own. 0 for a table without a ttl attribute.
  // Throws: BackendError on SQLite's failure (throttled: the write lock held past busy_timeout;
  // access_denied: a read-only file; io_error; corrupt; misuse: an empty handle).
  // Exception safety: strong: one DELETE in one transaction.
  PKSK_DECL std::size_t sweep_expired(TableHandle table);

  // One page of a partition in sort-key byte order, each item handed to visit(backend::ItemView) as
  // views into SQLite's memory valid only during the call, with DynamoDB's paging: the page ends
  // after `limit` items or once the items read reach `page_bytes` (the item that crosses the budget
  // is part of the page), and then names its last item as the cursor, even if nothing follows.
  // A page_bytes of 0 thus ends every page after one item. With count_only, the page is read
  // the same way, each row's body looked at only by the filter, and counted instead of handed
  // over.
  // Throws: ValidationError for a request DynamoDB would refuse (an index the table does not have,
  // a consistent read of an index, between with its bounds inverted, an index cursor without the
  // table key, a filter on an attribute the index does not project), BackendError on SQLite's
  // failure (throttled: the write lock held past busy_timeout; io_error; corrupt; misuse: an empty
  // handle); what visit throws.
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL backend::QueryOutcome query(TableHandle table, const backend::RawQuery& query,
                                        backend::ItemVisitor visit);

  // One page of a scan, in (pk, sk) byte order, with the paging of query(); with segments > 1,
  // only the items of `segment` (by a hash of the partition key) are read into the page, count
  // and end it. Every segment walks the table's B-tree and skips the others' rows by their key
  // alone, before their body is looked at.
  // Throws: ValidationError for a segment not below segments or a start key outside it,
  // BackendError on SQLite's failure (io_error, corrupt; misuse: an empty handle); what visit
  // throws.
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL backend::ScanOutcome scan(TableHandle table, const backend::RawScan& scan,
                                      backend::ItemVisitor visit);

 private:
  // Shared with the table handles and, weakly, with the threads that hold a connection.
  std::shared_ptr<detail::Shared> shared_;
};

static_assert(pksk::TransactGetBackend<Backend>);

}  // namespace pksk::sqlite

// What <pksk/src.hpp> looks for to compile this backend in its translation unit.
#define PKSK_DETAIL_SQLITE_BACKEND_DECLARED

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/backend.ipp"
#endif
