// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk::Maintenance<B>: what keeps a table in shape, apart from the operations that read and
// write its items: statistics, the hottest keys, the sweeps of what a failed or finished write
// left behind (expired items, orphaned chunks and blob objects) and the backfill of an index
// added to a table that already holds items.
//
//   auto m = pksk::maintenance(table);          // any backend, AnyBackend included
//   pksk::TableStats stats = m.stats();
//   m.sweep_expired();
//
// A Maintenance refers to its Table, which must outlive it; it keeps no state of its own, so
// making one costs a pointer and any number may exist at once. Its calls may run beside the
// table's other calls, from any thread the table's backend allows.

#include <chrono>
#include <cstddef>
#include <string_view>
#include <vector>

#include "../backend/backend.hpp"
#include "../error.hpp"
#include "../key/entity.hpp"
#include "../table/table.hpp"

namespace pksk {

// What a table needs now and then rather than on every call: statistics, hot keys, the sweeps
// (expired items, chunks, guards, blob objects) and index backfill; pksk::maintenance(table).
template <Backend B>
class Maintenance {
 public:
  // The maintenance of `table`, which must outlive it.
  // Throws: nothing.
  // Exception safety: nothrow.
  explicit Maintenance(Table<B>& table) noexcept : table_(&table) {}

  // The table maintained.
  // Throws: nothing.
  // Exception safety: nothrow.
  Table<B>& table() const noexcept { return *table_; }

  // Items and bytes per collection (partition key) and per entity type, by DynamoDB's measure,
  // the largest collections and those past DynamoDB's guidance (table/stats.hpp): a scan of the
  // whole table, in StatsOptions::segments threads. Expired items not yet deleted are not
  // counted. Throws what the scan throws (BackendError); the table is not changed.
  // Throws: BackendError on a backend failure.
  // Exception safety: strong (a read changes nothing).
  TableStats stats(const StatsOptions& options = {}) const;

  // The n partition keys read and written most since the Table was made or reset_hot_keys,
  // most first (TableOptions::count_access; access_counts.hpp says what counts). Empty when
  // the table does not count. Does not throw beyond std::bad_alloc.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  std::vector<HotKey> hot_keys(std::size_t n = 10) const;
  // Forgets the counts hot_keys reads: counting starts again from nothing.
  // Throws: nothing.
  // Exception safety: nothrow.
  void reset_hot_keys() const noexcept;

  // Deletes the items whose time to live (the table's ttl attribute) has passed, on a backend
  // that keeps them until told (SQLite: when this is called, never on its own), and returns how
  // many. Reads never return such items; a sweep gives their space back. On a backend that
  // deletes them itself (DynamoDB, within a few days of their time) it deletes nothing and
  // returns 0. Throws BackendError; what it deleted stays deleted.
  // Throws: BackendError on a backend failure.
  // Exception safety: strong on SQLite (one transaction); nothing to undo elsewhere (it deletes
  // nothing).
  std::size_t sweep_expired() const;

  // Removes chunk items (of chunked entities, Entity<T>::chunked) that no item's head names
  // any more: those a put left when it failed or its process died between its chunks and its
  // head. A chunk is removed only when it was written at least `min_age` ago, so that the
  // chunks of a put still in progress (written before its head) are kept: min_age must exceed
  // the longest a put takes. One scan of the table's chunk items and one read of each parent;
  // returns the number of chunks removed. Throws BackendError; the chunks removed stay removed.
  // Throws: BackendError on a backend failure.
  // Exception safety: basic: the chunks removed before the failure stay removed (none was named by
  // a head); run it again to go on.
  std::size_t sweep_chunks(std::chrono::milliseconds min_age = std::chrono::minutes(10)) const;

  // Removes the guard items of unique values (Entity<T>::unique) whose owner no longer holds the
  // value: erased or changed by another tool, or expired. Such a value can be claimed by another
  // item already (a claim takes the guard over); the sweep gives the space back. Each removal
  // is conditioned on the owner still not holding the value, in one transaction with it, so a
  // value claimed meanwhile is never freed. Guards written before guards named their owners
  // are kept, and so is the guard of a member with a key-text function (Entity<T>::unique_values)
  // while its owner holds any value of the member (the sweep knows no entity's function to tell
  // whether that value has the guard's key text). Returns the number removed.
  // Throws: BackendError on a backend failure (TransactionCanceled is not thrown: a guard claimed
  // meanwhile is kept).
  // Exception safety: basic: the guards removed before the failure stay removed, each one only if
  // its owner did not hold the value; run it again to go on.
  std::size_t sweep_guards() const;

  // Removes the objects of the table's blob store (TableOptions::blob_store) that no item
  // refers to: each object's metadata names its item, which is read to see whether it still
  // names the object. Only objects older than `grace` are looked at, since a put stores its
  // objects before it writes the item: a younger object may belong to a put still in flight,
  // whose item will refer to it. Make `grace` longer than any put takes, retries included.
  // Orphans come from a put whose item write failed and whose clean-up failed too (a crash, a
  // lost connection), from a replaced or erased item whose old object could not be removed,
  // and from writes by other tools. Returns the number of objects removed. ValidationError
  // for a table without a blob store; BlobError or BackendError from the store or the table.
  // Throws: ValidationError for a table without a blob store, BlobError or BackendError from the
  // store or the table.
  // Exception safety: basic: the objects removed before the failure stay removed (no item referred
  // to them).
  std::size_t sweep_blobs(std::chrono::system_clock::duration grace = std::chrono::hours(1)) const;

  // Writes the keys of index `index_name` into the stored items of the entities Ts that name it
  // and lack them: items written before the index was added to the table. Each is an update
  // that sets the two key attributes only if the item still exists without them, so a write
  // made meanwhile (which indexes the item itself) is never undone; up to 100 such updates go
  // in one transaction. progress(BackfillProgress) is called after each page of up to
  // `page_items` items read. Returns the number of items given their keys. ValidationError for
  // an index the table or one of the entities does not have; an interrupted backfill (a
  // BackendError) keeps what it wrote and may be run again.
  // Throws: ValidationError for an index the table or one of the entities does not have,
  // DecodeError if an item read does not decode, BackendError on a backend failure; what progress
  // throws.
  // Exception safety: basic: the items given their keys before the failure keep them (each update
  // was correct on its own); run it again to go on.
  template <EntityType... Ts, class Progress = void (*)(const BackfillProgress&)>
    requires(sizeof...(Ts) > 0)
  std::size_t backfill_index(std::string_view index_name, Progress&& progress = nullptr,
                             std::size_t page_items = 1000) const {
    const Table<B>& t = *table_;
    const TableIndex* index = t.spec_.find_index(index_name);
    if (index == nullptr) {
      throw ValidationError("pksk table " + detail::quoted(t.spec_.name) +
                            ", backfill_index: no index " + detail::quoted(index_name) +
                            " (TableOptions::indexes)");
    }
    std::size_t written = 0;
    (
        [&] {
          if (index_position<Ts>(index_name) == index_count_v<Ts>) {
            throw ValidationError(t.context("backfill_index", type_name_v<Ts>) +
                                  "the entity does not name the index " +
                                  detail::quoted(index_name) + " in Entity<T>::indexes");
          }
          written += detail::backfill<Ts>(*t.backend_, table_->handle_, t.spec_, *index, progress,
                                          page_items);
        }(),
        ...);
    return written;
  }

 private:
  Table<B>* table_;
};

// The maintenance of `table`, which must outlive what this returns.
// Throws: nothing.
// Exception safety: nothrow.
template <Backend B>
Maintenance<B> maintenance(Table<B>& table) noexcept {
  return Maintenance<B>(table);
}

}  // namespace pksk

#include "impl/maintenance.hpp"
