// SPDX-License-Identifier: BSL-1.0
#pragma once
// Table<Backend>: the typed API. Entities in, entities out; the backend sees raw items only.
// Writes follow DynamoDB: conditions, updates, transactions (transaction.hpp), batches with
// the library's retry of unprocessed items (batch.hpp), optimistic locking and the 400 KB item
// limit by DynamoDB's measure, checked before anything is written. A Table may be shared by
// threads (if its backend may, as the SQLite backend may): it keeps no state between calls, and
// its key, body and decode buffers are per thread (detail/scratch.hpp), reused from call to call.
//
// What a Table hands out has its own header: Transaction (transaction.hpp), Each (each.hpp),
// IndexRef (index_ref.hpp); so has what it works out from its spec alone: the read plan
// (read_plan.hpp), cursors (cursor_signing.hpp), index keys and backfill (index_upkeep.hpp), an
// item's keys, body and size (detail/item_encoding.hpp), a write's conditions
// (detail/write_conditions.hpp). This file keeps what needs the backend and its handle: the
// public calls with their documentation (half the file, kept together so that the API reads
// in one place), the batch loops, and the read path (query -> row visitor -> decode), whose
// per-row code stays in one piece rather than behind another indirection. What does not
// depend on the entities (construction, the page loops) is defined in impl/table.hpp, out of
// the class, so that separate compilation compiles it once per backend.

#include <algorithm>
#include <array>
#include <bitset>
#include <chrono>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../backend/backend.hpp"
#include "../backend/ttl.hpp"
#include "../codec/entity_code.hpp"
#include "../codec/parsed_item.hpp"
#include "../config.hpp"
#include "../detail/diagnose.hpp"
#include "../detail/worker_pool.hpp"
#include "../error.hpp"
#include "../expr/attr.hpp"
#include "../expr/expression.hpp"
#include "../extensions/extension.hpp"
#include "../key/condition.hpp"
#include "../key/entity.hpp"
#include "../key/index.hpp"
#include "../key/key.hpp"
#include "../key/read_back.hpp"
#include "../key/ulid.hpp"
#include "../model/collection.hpp"
#include "../reflect/reflect.hpp"
#include "batch.hpp"
#include "cursor_signing.hpp"
#include "detail/add_ranges.hpp"
#include "detail/chunks.hpp"
#include "detail/decode_row.hpp"
#include "detail/entity_writes.hpp"
#include "detail/item_encoding.hpp"
#include "detail/messages.hpp"
#include "detail/scratch.hpp"
#include "detail/transact_get.hpp"
#include "detail/unique_guards.hpp"
#include "detail/unique_writes.hpp"
#include "detail/versioning.hpp"
#include "detail/write_conditions.hpp"
#include "each.hpp"
#include "fan_out.hpp"
#include "fwd.hpp"
#include "index_ref.hpp"
#include "index_upkeep.hpp"
#include "query.hpp"
#include "read_plan.hpp"
#include "stats.hpp"
#include "transaction.hpp"
#include "write_result.hpp"

namespace pksk {

namespace diagnostics {
// put_all or erase_all of a versioned entity: a batch write carries no condition, so the
// version each item was read at could not be checked (optimistic locking).
template <class Entity>
struct a_batch_cannot_check_the_version_of_a_versioned_entity;
// put_all or erase_all of an entity with unique members (Entity<T>::unique): a batch carries no
// conditions, so the guard items could not be claimed and released with the items.
template <class Entity>
struct a_batch_cannot_keep_the_guards_of_an_entity_with_unique_members;
// put or erase with return_old of an entity with unique members: the write is a transaction
// with its guard items, and a transaction returns no old item (the item read before it, for
// its unique values, is not the one replaced when another write came in between).
template <class Entity>
struct return_old_cannot_be_asked_of_a_write_of_an_entity_with_unique_members;
// Chunked entities (Entity<T>::chunked): a write or read that cannot keep the chunk protocol.
// update or upsert: a chunked item's members are in its chunks, not in the item updated.
template <class Entity>
struct update_cannot_change_a_chunked_entity_put_it_whole;
// put or erase with a condition or return_old: it would apply to the head, not the item.
template <class Entity>
struct a_write_of_a_chunked_entity_takes_no_conditions;
// put_all or erase_all: a batch can neither chunk an item nor remove its chunks.
template <class Entity>
struct a_batch_cannot_write_a_chunked_entity;
// transact_get: chunks are read after their head, not as of one moment.
template <class Entity>
struct transact_get_cannot_read_a_chunked_entity;
// A chunked entity with a version member, an index, unique members or a ttl: each lives in the
// stored item's attributes, which for a chunked item are its head's.
template <class Entity>
struct a_chunked_entity_has_no_version_index_unique_members_or_ttl;
// A chunked entity with blob members: a chunked put writes no objects; a member too large for
// the item belongs in the blob store or in the chunks, not both.
template <class Entity>
struct a_chunked_entity_keeps_no_member_in_a_blob_store;
// transact_get on a Table whose backend has no transact_get operation (TransactGetBackend):
// the backend does not read several items as of one moment.
template <class Backend>
struct backend_has_no_transact_get_operation;
}  // namespace diagnostics

// A table of a backend, typed: entities in, entities out (put, get, update, upsert, erase, batches,
// transactions, queries, scans, lazy ranges, counts, indexes). B is the backend type
// (sqlite::Backend, dynamodb::Backend, AnyBackend, or one of your own: backend/backend.hpp).
template <Backend B>
class Table {
 public:
  // Opens the table `name` on `backend` (backend.open_table), which must outlive the Table.
  // `retry`: how put_all, erase_all and get_all retry what the backend hands back unprocessed.
  // Throws: ValidationError for options that contradict each other (an index's projection and its
  // attributes, two indexes naming one key attribute), BackendError when the backend cannot open
  // the table (missing_table when it may not create it, schema_mismatch, access_denied, or any
  // other failure of the store).
  // Exception safety: basic: the backend may have created the table (on SQLite, also an index added
  // to its options; on DynamoDB, also turned its TTL on) before a later step failed; opening it
  // again goes on from there.
  Table(B& backend, std::string name, TableOptions options = {}, BatchRetry retry = {});

  // The table's name, as given to the constructor.
  // Throws: nothing.
  // Exception safety: nothrow.
  const std::string& name() const noexcept { return spec_.name; }
  // The options the table was opened with.
  // Throws: nothing.
  // Exception safety: nothrow.
  const TableOptions& options() const noexcept { return spec_; }
  // How put_all, erase_all and get_all retry unprocessed items.
  // Throws: nothing.
  // Exception safety: nothrow.
  const BatchRetry& batch_retry() const noexcept { return retry_; }
  // The backend the table was opened on.
  // Throws: nothing.
  // Exception safety: nothrow.
  B& backend() const noexcept { return *backend_; }

  // Writes the item, replacing any item with its key. Conditions: if_absent (never replace),
  // exists (only replace), when(expr); all must hold, else ConditionFailed and nothing is
  // written. A versioned entity must also hold the version the caller read (ConditionFailed
  // saying the version was stale, or missing for version 0 on an item that exists); a
  // non-const argument gets the new version written back, so the caller's next write is not
  // stale. With return_old, returns the item it replaced (std::optional<T>; a replaced item of
  // another type is a DecodeError, and on SQLite then nothing is written); with
  // return_stored_on_failure, a ConditionFailed carries the stored item.
  // Throws: ConditionFailed if a condition or the version check is false (for an entity with unique
  // members, also if another item holds one of its unique values), KeyError if a key member's value
  // cannot be part of a key, EncodeError if a member cannot be written, ItemTooLarge past 400 KB,
  // DecodeError if return_old finds an item of another type, ValidationError for an entity with
  // blob members on a table without a blob store, TransactionCanceled if the transaction of an
  // entity with unique members is canceled otherwise, BackendError on a backend failure (or the
  // blob store's error).
  // Exception safety: strong (nothing is written, the argument is unchanged) with these exceptions:
  // on DynamoDB, a DecodeError from return_old comes after the item was replaced; a chunked
  // entity's put leaves its chunks for Maintenance::sweep_chunks when it fails before its head is
  // written, and when removing the replaced version's chunks fails after it (the new item is then
  // stored); blob objects that cannot be removed again are left to sweep_blobs.
  template <class Item, class... Conditions>
    requires EntityType<std::remove_cvref_t<Item>>
  detail::old_item_result_t<std::remove_cvref_t<Item>, void, Conditions...> put(
      Item&& item, const Conditions&... conditions) {
    using T = std::remove_cvref_t<Item>;
    if constexpr (detail::transforms_put_v<T>) {
      T written(std::as_const(item));
      detail::extensions_t<T>::before_put(written, write_context(WriteOperation::put));
      if constexpr (!detail::writes_back_v<Item>) {
        return put_item(written, conditions...);
      } else if constexpr (detail::returns_old_v<Conditions...>) {
        auto old = put_item(written, conditions...);
        if (!detail::reported(detail::failure_report(conditions...))) item = std::move(written);
        return old;
      } else {
        put_item(written, conditions...);
        if (!detail::reported(detail::failure_report(conditions...))) item = std::move(written);
      }
    } else {
      return put_item(std::forward<Item>(item), conditions...);
    }
  }

  // The item with the key of `key` (only its key fields are read), or nullopt.
  // Throws: KeyError if a key member's value cannot be part of a key, DecodeError if the stored
  // item is of another type or does not decode (ChunkMissing, BlobError: its chunks or objects
  // missing), ValidationError for an entity with blob members on a table without a blob store,
  // BackendError on a backend failure.
  // Exception safety: strong (a read changes nothing).
  template <EntityType T>
  std::optional<T> get(const T& key) {
    if constexpr (detail::chunked_v<T>) return get_chunked(key);
    return get_for(key, "get");
  }

  // DynamoDB's UpdateItem: set, add, remove, append, if_not_exists on the item with the key of
  // `key` (created with its key and type if absent), under optional conditions (when(expr),
  // exists); returns the item as written. A versioned entity is checked against key's version
  // and incremented (ConditionFailed saying the version was stale or missing, as put); an
  // action on its version member is refused (at compile time where the member is named).
  // Throws: ConditionFailed if a condition or the version check is false (for an entity with unique
  // members, also if another item holds a value it would set), ValidationError if an add would take
  // an integer member past its range or a value needs the blob store, KeyError if a key member's
  // value cannot be part of a key, EncodeError, ItemTooLarge if the item as updated is past 400 KB,
  // DecodeError if the item as written does not decode, BackendError on a backend failure.
  // Exception safety: strong, except that a DecodeError of the item as written comes after the
  // write: the update is then applied.
  template <EntityType T, class... Parts>
  T update(const T& key, Parts&&... parts) {
    if constexpr (detail::adds_update_parts_v<T>) {
      return std::apply(
          [&](auto&&... added) {
            return update_item(key, std::forward<Parts>(parts)...,
                               std::forward<decltype(added)>(added)...);
          },
          detail::extensions_t<T>::update_parts(key, write_context(WriteOperation::update)));
    } else {
      return update_item(key, std::forward<Parts>(parts)...);
    }
  }

  // Writes every member the entity declares and keeps the attributes it does not declare: one
  // UpdateItem where put would replace the whole item, for items that other tools write too
  // (their bookkeeping survives). An empty optional member is removed, as put leaves it out; a
  // versioned entity is checked and incremented as update does. Conditions as for update;
  // returns the item as stored.
  // Throws: as update, and as put for the item's members.
  // Exception safety: strong, except that a DecodeError of the item as stored comes after the
  // write: the upsert is then applied.
  template <EntityType T, class... Conditions>
  T upsert(const T& item, Conditions&&... conditions) {
    static_assert(((detail::is_condition_part_v<std::remove_cvref_t<Conditions>> ||
                    detail::is_return_part_v<std::remove_cvref_t<Conditions>>)&&...),
                  "pksk: upsert takes conditions after the item, not update actions");
    // The whole item is written, as by put: extensions change it as they change a put's.
    if constexpr (detail::transforms_put_v<T>) {
      T written(item);
      detail::extensions_t<T>::before_put(written, write_context(WriteOperation::upsert));
      return update_item(written, detail::EveryMember<T>{written},
                         std::forward<Conditions>(conditions)...);
    } else {
      return update_item(item, detail::EveryMember<T>{item},
                         std::forward<Conditions>(conditions)...);
    }
  }

  // Removes the item with the key of `key`; true if there was one. Conditions as for put. A
  // versioned entity's item is removed only at the version `key` carries (0: only when there
  // is none), else ConditionFailed saying the version was stale or missing. With return_old,
  // returns the item removed (std::optional<T>) instead of whether there was one; with
  // return_stored_on_failure, a ConditionFailed carries the stored item.
  // Throws: ConditionFailed if a condition or the version check is false, KeyError if a key
  // member's value cannot be part of a key, DecodeError if return_old finds an item of another
  // type, ValidationError for an entity with blob members on a table without a blob store,
  // TransactionCanceled as for put, BackendError on a backend failure.
  // Exception safety: strong, except: on DynamoDB a DecodeError from return_old comes after the
  // item was removed; a chunked item's erase that fails removing its chunks throws with the item
  // removed and the chunks left for Maintenance::sweep_chunks; blob objects that cannot be removed
  // are left for sweep_blobs, without an exception.
  template <EntityType T, class... Conditions>
  detail::old_item_result_t<T, bool, Conditions...> erase(const T& key,
                                                          const Conditions&... conditions) {
    if constexpr (detail::chunked_v<T>) {
      if constexpr (detail::diagnose_v<
                        sizeof...(Conditions) == 0,
                        diagnostics::a_write_of_a_chunked_entity_takes_no_conditions<T>>) {
        return erase_chunked(key);
      } else {
        return {};
      }
    }
    if constexpr (detail::UniqueEntity<T>) {
      if constexpr (detail::diagnose_v<
                        !detail::returns_old_v<Conditions...>,
                        diagnostics::
                            return_old_cannot_be_asked_of_a_write_of_an_entity_with_unique_members<
                                T>>) {
        return write_unique<T>("erase", key, detail::has_conditions_v<Conditions...>,
                               [&](Transaction<B>& tx) { tx.erase_action(key, conditions...); });
      } else {
        return {};
      }
    }
    const detail::ScratchLease s;
    detail::format_keys(spec_, key, s->pk, s->sk, "erase");
    std::optional<backend::Condition> condition =
        detail::write_condition(spec_, key, conditions...);
    std::optional<T> old;
    // An entity with blob members reads the removed item's references (not its objects,
    // unless return_old asks for the item), to remove its objects once it is gone.
    std::vector<std::string> erased_objects;
    std::optional<detail::BlobKeysScope> blob_keys;
    if constexpr (detail::has_blob_members_v<T>) {
      if (!spec_.blob_store) detail::throw_no_blob_store(spec_.name, type_name_v<T>, "erase");
      blob_keys.emplace(&erased_objects, detail::returns_old_v<Conditions...>);
    }
    const auto keep_old = [&](const backend::ItemView& row) { decode_old(row, "erase", old); };
    const backend::ItemVisitor old_visitor(keep_old);
    std::optional<ConditionFailed>* const failure = detail::failure_report(conditions...);
    const backend::EraseRequest request{
        {s->pk, s->sk},
        condition ? &*condition : nullptr,
        backend::WriteReturns{detail::returns_old_v<Conditions...> || detail::has_blob_members_v<T>
                                  ? &old_visitor
                                  : nullptr,
                              detail::returns_stored_v<Conditions...>, failure}};
    bool removed = false;
    if constexpr (VersionedEntity<T>) {
      const auto versioned = detail::versioned_write(key, detail::has_conditions_v<Conditions...>);
      try {
        removed = backend_->erase(handle_, request);
      } catch (const ConditionFailed& failed) {
        detail::throw_stale_version(spec_.name, "erase", versioned, failed);
      }
      if (detail::reported(failure)) {
        ConditionFailed stale = detail::stale_version(spec_.name, "erase", versioned, **failure);
        failure->emplace(std::move(stale));
      }
    } else {
      removed = backend_->erase(handle_, request);
    }
    if constexpr (detail::has_blob_members_v<T>) {
      blob_keys.reset();
      remove_blobs(erased_objects);
    }
    if constexpr (detail::returns_old_v<Conditions...>) {
      return old;
    } else {
      return removed;
    }
  }

  // put, update, upsert and erase for writes whose condition may well fail: a stale version in an
  // optimistic-locking retry loop, a unique value another item holds, a condition racing
  // another writer. The ConditionFailed the write would throw is returned in the result, with
  // nothing written (and no version handed back); any other failure is still thrown. The
  // result's value is what put, update, upsert or erase returns. On SQLite and DynamoDB no
  // exception is thrown for the failure of an entity without unique, chunked or blob members.
  // Throws: what put throws, except the ConditionFailed, which is returned.
  // Exception safety: as put's; a returned ConditionFailed means nothing was written.
  template <class Item, class... Conditions>
    requires EntityType<std::remove_cvref_t<Item>>
  WriteResult<detail::old_item_result_t<std::remove_cvref_t<Item>, void, Conditions...>> try_put(
      Item&& item, const Conditions&... conditions) {
    return try_write<std::remove_cvref_t<Item>>([&](const auto&... report) {
      return put(std::forward<Item>(item), conditions..., report...);
    });
  }
  // update whose ConditionFailed is returned rather than thrown (see try_put).
  // Throws: what update throws, except the ConditionFailed, which is returned.
  // Exception safety: as update's; a returned ConditionFailed means nothing was written.
  template <EntityType T, class... Parts>
  WriteResult<T> try_update(const T& key, Parts&&... parts) {
    return try_write<T>([&](const auto&... report) {
      return update(key, std::forward<Parts>(parts)..., report...);
    });
  }
  // upsert whose ConditionFailed is returned rather than thrown (see try_put).
  // Throws: what upsert throws, except the ConditionFailed, which is returned.
  // Exception safety: as upsert's; a returned ConditionFailed means nothing was written.
  template <EntityType T, class... Conditions>
  WriteResult<T> try_upsert(const T& item, Conditions&&... conditions) {
    return try_write<T>([&](const auto&... report) {
      return upsert(item, std::forward<Conditions>(conditions)..., report...);
    });
  }
  // erase whose ConditionFailed is returned rather than thrown (see try_put).
  // Throws: what erase throws, except the ConditionFailed, which is returned.
  // Exception safety: as erase's; a returned ConditionFailed means nothing was written.
  template <EntityType T, class... Conditions>
  WriteResult<detail::old_item_result_t<T, bool, Conditions...>> try_erase(
      const T& key, const Conditions&... conditions) {
    return try_write<T>(
        [&](const auto&... report) { return erase(key, conditions..., report...); });
  }

  // All or nothing, up to 100 actions on distinct items: table.transact().put(...).commit().
  // Throws: only std::bad_alloc; the actions and commit() throw (transaction.hpp).
  // Exception safety: strong (nothing is written until commit).
  Transaction<B> transact() { return Transaction<B>(*this); }

  // The same calls on a type that is not an entity: one error saying why (no Entity
  // specialization, or one lacking `type` or `pk`), where an overload failure would name
  // neither. They do nothing else.
  // Throws: nothing (it does not compile).
  // Exception safety: nothrow.
  template <class Item, class... Conditions>
    requires(!EntityType<std::remove_cvref_t<Item>>)
  void put(Item&&, const Conditions&...) {
    static_assert(detail::report_not_an_entity<std::remove_cvref_t<Item>>() || true);
  }
  // As above, on a type that is not an entity: one error saying why.
  // Throws: nothing (it does not compile).
  // Exception safety: nothrow.
  template <class T>
    requires(!EntityType<T>)
  std::optional<T> get(const T&) {
    static_assert(detail::report_not_an_entity<T>() || true);
    return {};
  }
  // As above, on a type that is not an entity: one error saying why.
  // Throws: nothing (it does not compile).
  // Exception safety: nothrow.
  template <class T, class... Parts>
    requires(!EntityType<T>)
  T update(const T& key, Parts&&...) {
    static_assert(detail::report_not_an_entity<T>() || true);
    return key;
  }
  // As above, on a type that is not an entity: one error saying why.
  // Throws: nothing (it does not compile).
  // Exception safety: nothrow.
  template <class T, class... Conditions>
    requires(!EntityType<T>)
  T upsert(const T& item, Conditions&&...) {
    static_assert(detail::report_not_an_entity<T>() || true);
    return item;
  }
  // As above, on a type that is not an entity: one error saying why.
  // Throws: nothing (it does not compile).
  // Exception safety: nothrow.
  template <class T, class... Conditions>
    requires(!EntityType<T>)
  bool erase(const T&, const Conditions&...) {
    static_assert(detail::report_not_an_entity<T>() || true);
    return false;
  }
  // As above, on a type that is not an entity: one error saying why.
  // Throws: nothing (it does not compile).
  // Exception safety: nothrow.
  template <std::ranges::range Range>
    requires(!EntityType<std::ranges::range_value_t<Range>>)
  void put_all(const Range&) {
    static_assert(detail::report_not_an_entity<std::ranges::range_value_t<Range>>() || true);
  }
  // As above, on a type that is not an entity: one error saying why.
  // Throws: nothing (it does not compile).
  // Exception safety: nothrow.
  template <std::ranges::range Range>
    requires(!EntityType<std::ranges::range_value_t<Range>>)
  void erase_all(const Range&) {
    static_assert(detail::report_not_an_entity<std::ranges::range_value_t<Range>>() || true);
  }
  // As above, on a type that is not an entity: one error saying why.
  // Throws: nothing (it does not compile).
  // Exception safety: nothrow.
  template <std::ranges::range Range>
    requires(!EntityType<std::ranges::range_value_t<Range>>)
  std::vector<std::ranges::range_value_t<Range>> get_all(const Range&) {
    static_assert(detail::report_not_an_entity<std::ranges::range_value_t<Range>>() || true);
    return {};
  }

  // Writes every item (a batch write: not atomic as a whole; each group of 25 is refused with
  // ValidationError if two of its items share a key, as DynamoDB refuses such a request).
  // Items the backend hands back unprocessed are retried with backoff.
  // A versioned entity cannot be written so: a batch carries no conditions, so its version
  // would go unchecked (a compile error naming the entity; write it with put, or many at once
  // with a transaction).
  // Throws: KeyError if a key member's value cannot be part of a key, EncodeError, ItemTooLarge,
  // ValidationError if two items of a group of 25 share a key (or a value needs the blob store),
  // BackendError on a backend failure, and throttled when items are still unprocessed after the
  // retries (BatchRetry).
  // Exception safety: basic: the items go in slices of 1,000, each checked whole (keys, encoding,
  // sizes, duplicate keys) before any of it is sent; a failure leaves the slices before it written.
  // A backend failure within a slice leaves written those of its groups of 25 that the backend took
  // (on SQLite, a slice is one transaction: none of it).
  template <class Range>
    requires EntityType<std::ranges::range_value_t<Range>>
  void put_all(const Range& items) {
    using T = std::ranges::range_value_t<Range>;
    static_assert(
        detail::checked_v<detail::Diagnose<!detail::chunked_v<T>,
                                           diagnostics::a_batch_cannot_write_a_chunked_entity<T>>>);
    if constexpr (detail::diagnose_v<
                      !VersionedEntity<T>,
                      diagnostics::a_batch_cannot_check_the_version_of_a_versioned_entity<T>>) {
      if constexpr (detail::diagnose_v<
                        !detail::UniqueEntity<T>,
                        diagnostics::
                            a_batch_cannot_keep_the_guards_of_an_entity_with_unique_members<T>>) {
        if constexpr (detail::transforms_put_v<T>) {
          std::vector<T> written(std::ranges::begin(items), std::ranges::end(items));
          const WriteContext context = write_context(WriteOperation::batch_put);
          for (T& item : written) detail::extensions_t<T>::before_put(item, context);
          batch_write(written, /*erase=*/false, "put_all");
        } else {
          batch_write(items, /*erase=*/false, "put_all");
        }
      }
    }
  }

  // Removes the items with these keys, as put_all writes; not for a versioned entity either.
  // Throws: KeyError if a key member's value cannot be part of a key, ValidationError if two keys
  // of a group of 25 are one key, BackendError on a backend failure or items still unprocessed
  // after the retries.
  // Exception safety: basic, as put_all: the slices before a failure are removed.
  template <class Range>
    requires EntityType<std::ranges::range_value_t<Range>>
  void erase_all(const Range& keys) {
    using T = std::ranges::range_value_t<Range>;
    static_assert(
        detail::checked_v<detail::Diagnose<!detail::chunked_v<T>,
                                           diagnostics::a_batch_cannot_write_a_chunked_entity<T>>>);
    if constexpr (detail::diagnose_v<
                      !VersionedEntity<T>,
                      diagnostics::a_batch_cannot_check_the_version_of_a_versioned_entity<T>>) {
      if constexpr (detail::diagnose_v<
                        !detail::UniqueEntity<T>,
                        diagnostics::
                            a_batch_cannot_keep_the_guards_of_an_entity_with_unique_members<T>>) {
        batch_write(keys, /*erase=*/true, "erase_all");
      }
    }
  }

  // The items with these keys that exist, in the order of the keys (a batch get, 100 keys a
  // request, unprocessed keys retried).
  // Throws: KeyError if a key member's value cannot be part of a key, ValidationError if two keys
  // of a group of 100 are one key, DecodeError if an item is of another type or does not decode,
  // BackendError on a backend failure or keys still unprocessed after the retries.
  // Exception safety: strong (a read changes nothing).
  template <class Range>
    requires EntityType<std::ranges::range_value_t<Range>>
  std::vector<std::ranges::range_value_t<Range>> get_all(const Range& keys) {
    using T = std::ranges::range_value_t<Range>;
    std::vector<std::string> texts;
    std::vector<backend::ItemKey> all;
    format_all_keys(keys, texts, all, "get_all");
    std::vector<std::optional<T>> found(all.size());
    std::vector<detail::PendingHead> heads;
    const detail::ScratchLease s;
    for (std::size_t start = 0; start < all.size(); start += backend::max_batch_get_keys) {
      const std::span<const backend::ItemKey> group =
          std::span<const backend::ItemKey>(all).subspan(
              start, std::min(backend::max_batch_get_keys, all.size() - start));
      detail::refuse_duplicate_keys(spec_.name, group, "get_all");
      std::vector<std::size_t> pending(group.size());
      for (std::size_t i = 0; i < pending.size(); ++i) pending[i] = i;
      detail::retry_unprocessed(
          retry_, spec_.name, "get_all", pending,
          [&](std::span<const std::size_t> indexes, std::vector<std::size_t>& unprocessed) {
            std::vector<backend::ItemKey> asked;
            for (std::size_t i : indexes) asked.push_back(group[i]);
            backend_->batch_get(
                handle_, asked,
                [&](std::size_t at, const backend::ItemView& row) {
                  check_type<T>(row, "get_all");
                  if constexpr (detail::chunked_v<T>) {
                    const std::string_view text = detail::item_text(row.live, row.body);
                    if (detail::is_chunk_head(text)) {
                      heads.push_back({start + indexes[at], std::string(row.partition_key()),
                                       std::string(row.sort_key()), std::string(type_name_v<T>),
                                       detail::parse_chunk_head(text, format_now())});
                      return;
                    }
                    backend::ItemView plain = row;
                    plain.live = {};
                    plain.body = text;
                    detail::decode_row(body_format(), spec_, *s->decoder, plain,
                                       found[start + indexes[at]].emplace());
                  } else {
                    detail::decode_row(body_format(), spec_, *s->decoder, row,
                                       found[start + indexes[at]].emplace());
                  }
                },
                unprocessed);
            for (std::size_t& u : unprocessed) u = indexes[u];
          });
    }
    for (const detail::PendingHead& head : heads) {
      if (std::optional<std::string> body = read_chunks(head)) {
        decode_whole(*body, head, found[head.at].emplace());
      }
    }
    std::vector<T> out;
    for (auto& f : found) {
      if (f) out.push_back(std::move(*f));
    }
    return out;
  }

  // The items with these keys (only their key fields are read), all read as they were at one
  // moment (DynamoDB's TransactGetItems; on SQLite, one read transaction): std::nullopt for a
  // key with no item. 1 to 100 keys, no two naming one item (else ValidationError, as DynamoDB
  // refuses); an item of another type under a key is a DecodeError, as for get. On DynamoDB a
  // read canceled by a transaction writing one of the items is sent again as a conflict is,
  // then fails with TransactionCanceled. Needs a TransactGetBackend: a compile error naming
  // the backend otherwise.
  //   auto [customer, order] = table.transact_get(Customer{.id = "1"}, Order{...});
  // Throws: KeyError if a key member's value cannot be part of a key, ValidationError (no key, more
  // than 100, two naming one item), DecodeError if an item is of another type or does not decode,
  // TransactionCanceled if a concurrent transaction keeps canceling the read, BackendError on a
  // backend failure.
  // Exception safety: strong (a read changes nothing).
  template <EntityType... Ts>
    requires(sizeof...(Ts) > 0)
  std::tuple<std::optional<Ts>...> transact_get(const Ts&... keys) {
    static_assert(
        (detail::checked_v<detail::Diagnose<
             !detail::chunked_v<Ts>, diagnostics::transact_get_cannot_read_a_chunked_entity<Ts>>> &&
         ...));
    std::tuple<std::optional<Ts>...> found;
    if constexpr (detail::diagnose_v<TransactGetBackend<B>,
                                     diagnostics::backend_has_no_transact_get_operation<B>>) {
      std::array<std::string, 2 * sizeof...(Ts)> texts;
      std::array<backend::ItemKey, sizeof...(Ts)> all;
      std::size_t i = 0;
      ((detail::format_keys(spec_, keys, texts[2 * i], texts[2 * i + 1], "transact_get"),
        all[i] = backend::ItemKey{texts[2 * i], texts[2 * i + 1]}, ++i),
       ...);
      const detail::ScratchLease s;
      transact_get_keys(all, [&](std::size_t at, const backend::ItemView& row) {
        [&]<std::size_t... I>(std::index_sequence<I...>) {
          (void)((at == I && (read_into(row, *s->decoder, std::get<I>(found)), true)) || ...);
        }(std::index_sequence_for<Ts...>{});
      });
    }
    return found;
  }

  // The same for a range of keys of one entity: an optional per key, in the order of the keys
  // (an empty range reads nothing).
  // Throws: as transact_get of keys.
  // Exception safety: strong (a read changes nothing).
  template <class Range>
    requires EntityType<std::ranges::range_value_t<Range>>
  std::vector<std::optional<std::ranges::range_value_t<Range>>> transact_get(const Range& keys) {
    using T = std::ranges::range_value_t<Range>;
    std::vector<std::optional<T>> found;
    if constexpr (detail::diagnose_v<TransactGetBackend<B>,
                                     diagnostics::backend_has_no_transact_get_operation<B>>) {
      std::vector<std::string> texts;
      std::vector<backend::ItemKey> all;
      format_all_keys(keys, texts, all, "transact_get");
      found.resize(all.size());
      if (all.empty()) return found;
      const detail::ScratchLease s;
      transact_get_keys(all, [&](std::size_t at, const backend::ItemView& row) {
        read_into(row, *s->decoder, found[at]);
      });
    }
    return found;
  }

  // Every item of the partition that matches, all pages read: an ItemCollection, or for an
  // entity type T the items of type T (sort key beginning with T's literal prefix).
  // Throws: ValidationError for options the read cannot serve (a cursor of another table or index,
  // altered or unsigned; consistent on a global index; keep_undecodable on an entity read; a filter
  // or select on a chunked entity), DecodeError if an item does not decode, BackendError on a
  // backend failure.
  // Exception safety: strong (a read changes nothing).
  template <class R>
  query_result_t<R> query(const PartitionKey& pk, const BasicQueryOptions<R>& options = {}) {
    query_result_t<R> result;
    if constexpr (detail::table_read_checked_v<R>) {
      run_query<R>(pk, options, result, /*all_pages=*/true);
    }
    return result;
  }

  // How many items query<R>(pk, options) would return (for a collection, its size(): the items
  // of its members' types), every page read, no item decoded: DynamoDB's Select=COUNT, whose
  // answers carry no items; on SQLite, the rows are read and filtered but not decoded. An item
  // of R's types counts even if its body would not decode. `select` has no meaning here
  // (ValidationError); `limit` bounds the items evaluated, as in query().
  // Throws: ValidationError for `select` or options query() refuses, BackendError on a backend
  // failure.
  // Exception safety: strong (a read changes nothing).
  template <class R>
  std::size_t count(const PartitionKey& pk, const BasicQueryOptions<R>& options = {}) {
    if constexpr (detail::table_read_checked_v<R>) {
      return run_count<R>(pk, options);
    } else {
      return 0;  // reported by table_read_checked_v
    }
  }

  // One page: up to options.limit items evaluated, or 1 MB of data, as DynamoDB pages. With a
  // filter, a page may hold fewer items than were evaluated, or none, and still have a next.
  // Throws: as query().
  // Exception safety: strong (a read changes nothing).
  template <class R>
  Page<query_result_t<R>> query_page(const PartitionKey& pk,
                                     const BasicQueryOptions<R>& options = {}) {
    Page<query_result_t<R>> page;
    if constexpr (detail::table_read_checked_v<R>) {
      page.next = run_query<R>(pk, options, page.items, /*all_pages=*/false);
    }
    return page;
  }

  // Every item of the table (of type T for an entity T; of any type for a collection, the
  // others kept in unknown()), all pages read; or one segment of it (.segment, .segments).
  // Items come in the backend's scan order (on SQLite, by partition and sort key).
  // Throws: as query(), and ValidationError for a segment not below segments.
  // Exception safety: strong (a read changes nothing).
  template <class R>
  query_result_t<R> scan(const BasicQueryOptions<R>& options = {}) {
    query_result_t<R> result;
    run_scan<R>(options, result, /*all_pages=*/true);
    return result;
  }

  // One page of a scan (or of one segment), with a cursor to resume it.
  // Throws: as scan().
  // Exception safety: strong (a read changes nothing).
  template <class R>
  Page<query_result_t<R>> scan_page(const BasicQueryOptions<R>& options = {}) {
    Page<query_result_t<R>> page;
    page.next = run_scan<R>(options, page.items, /*all_pages=*/false);
    return page;
  }

  // The items of query<R>(pk, options) as a lazy input range: a page is read when the
  // iteration reaches it, and leaving the loop reads no more. `limit` here sizes each page
  // (items evaluated per backend request), as in query_page. Elements are T for an entity, the
  // collection's std::variant otherwise (unknown items are skipped). The range refers to this
  // Table, which must outlive it.
  // Throws: nothing here but std::bad_alloc; the range's begin() and increments throw what
  // query_page throws.
  // Exception safety: strong (nothing is read until the iteration starts).
  template <class R>
  Each<B, R> each(const PartitionKey& pk, const BasicQueryOptions<R>& options = {}) {
    static_assert(detail::table_read_checked_v<R>);
    return Each<B, R>(*this, pk, options);
  }

  // The items of an entity T whose partition key holds a time bucket ("DEVICE#{device}#
  // {at:month}"), over the buckets from the one holding `from` to the one holding `to`: every
  // item of T whose member lies in [from, to], from every bucket, merged in sort-key order (a
  // k-way merge of the buckets read lazily: a limit, the most items returned, stops the reads).
  // `proto` gives the partition key's other members. Options as for query<T>; `start` resumes
  // after a page of query_buckets_page. The spread member must be a field of the sort-key
  // template (compile error). `from` after `to`, or more buckets than options.max_partitions,
  // is a ValidationError before anything is read.
  // Throws: ValidationError as above; as query(), for each bucket read.
  // Exception safety: strong (a read changes nothing).
  template <EntityType T>
  std::vector<T> query_buckets(const T& proto, std::chrono::system_clock::time_point from,
                               std::chrono::system_clock::time_point to,
                               const BasicQueryOptions<T>& options = {}) {
    return std::move(buckets_page("query_buckets", proto, from, to, options).items);
  }
  // As query_buckets, one page of up to options.limit items (0: all of them), with the cursor
  // that resumes the whole fan-out after it (empty after the last page).
  // Throws: as query(), for each bucket read, and ValidationError for a cursor of another fan-out.
  // Exception safety: strong (a read changes nothing).
  template <EntityType T>
  Page<std::vector<T>> query_buckets_page(const T& proto,
                                          std::chrono::system_clock::time_point from,
                                          std::chrono::system_clock::time_point to,
                                          const BasicQueryOptions<T>& options = {}) {
    return buckets_page("query_buckets_page", proto, from, to, options);
  }

  // The items of an entity T whose partition key holds a shard ("PRODUCT#{sku}#
  // {order:shard(8)}"), from every shard, merged in sort-key order as query_buckets merges.
  // Throws: as query(), for each shard read.
  // Exception safety: strong (a read changes nothing).
  template <EntityType T>
  std::vector<T> query_shards(const T& proto, const BasicQueryOptions<T>& options = {}) {
    return std::move(shards_page("query_shards", proto, options).items);
  }
  // As query_shards, a page at a time, as query_buckets_page.
  // Throws: as query_buckets_page.
  // Exception safety: strong (a read changes nothing).
  template <EntityType T>
  Page<std::vector<T>> query_shards_page(const T& proto, const BasicQueryOptions<T>& options = {}) {
    return shards_page("query_shards_page", proto, options);
  }

  // The items of scan<R>(options) as a lazy range, as each() for a query.
  // Throws: as each(); the iteration throws what scan_page throws.
  // Exception safety: strong (nothing is read until the iteration starts).
  template <class R>
  Each<B, R> scan_each(const BasicQueryOptions<R>& options = {}) {
    return Each<B, R>(*this, std::nullopt, options);
  }

  // A secondary index of the table (TableOptions::indexes), to query: the same query, query_page
  // and each as the table's, in the index's key order. ValidationError for an index the table
  // does not have. The IndexRef refers to this Table, which must outlive it.
  // Throws: ValidationError for an index the table does not have.
  // Exception safety: strong.
  IndexRef<B> index(std::string_view index_name);

  // Statistics of the table's items: maintenance(table).stats(options) (maintenance.hpp),
  // kept here because it is the call users reach for first.
  // Throws: as Maintenance::stats (a scan of the table: BackendError on a backend failure).
  // Exception safety: strong (a read changes nothing).
  TableStats stats(const StatsOptions& options = {}) {
    return Maintenance<B>(*this).stats(options);
  }

 private:
  // put and update as they are once the entity's extensions have joined them.
  template <class Item, class... Conditions>
    requires EntityType<std::remove_cvref_t<Item>>
  detail::old_item_result_t<std::remove_cvref_t<Item>, void, Conditions...> put_item(
      Item&& item, const Conditions&... conditions) {
    using T = std::remove_cvref_t<Item>;
    if constexpr (detail::chunked_v<T>) {
      // Its own condition is on the version it replaces.
      if constexpr (detail::diagnose_v<
                        sizeof...(Conditions) == 0,
                        diagnostics::a_write_of_a_chunked_entity_takes_no_conditions<T>>) {
        put_chunked(item);
      }
      if constexpr (detail::returns_old_v<Conditions...>) {
        return std::optional<T>{};
      } else {
        return;
      }
    }
    if constexpr (detail::UniqueEntity<T>) {
      if constexpr (detail::diagnose_v<
                        !detail::returns_old_v<Conditions...>,
                        diagnostics::
                            return_old_cannot_be_asked_of_a_write_of_an_entity_with_unique_members<
                                T>>) {
        write_unique<T>("put", item, detail::has_conditions_v<Conditions...>,
                        [&](Transaction<B>& tx) { tx.put_action(item, conditions...); });
        return;
      } else {
        return {};
      }
    }
    if constexpr (detail::has_blob_members_v<T>) {
      if (detail::blob_writes_v<T> == nullptr) {
        return put_with_blobs(std::forward<Item>(item), conditions...);
      }
    }
    std::optional<backend::Condition> condition =
        detail::write_condition<T>(spec_, item, conditions...);
    const detail::ScratchLease s;
    const std::size_t size =
        detail::encode_versioned(body_format(), spec_, item, s->pk, s->sk, s->body, "put");
    std::optional<T> old;
    const auto keep_old = [&](const backend::ItemView& row) { decode_old(row, "put", old); };
    const backend::ItemVisitor old_visitor(keep_old);
    std::optional<ConditionFailed>* const failure = detail::failure_report(conditions...);
    const backend::PutRequest request{
        backend::ItemView{s->pk, s->sk, type_name_v<T>, s->body, size},
        condition ? &*condition : nullptr,
        backend::WriteReturns{detail::returns_old_v<Conditions...> || detail::has_blob_members_v<T>
                                  ? &old_visitor
                                  : nullptr,
                              detail::returns_stored_v<Conditions...>, failure}};
    if constexpr (VersionedEntity<T>) {
      const auto versioned = detail::versioned_write(item, detail::has_conditions_v<Conditions...>);
      try {
        backend_->put(handle_, request);
      } catch (const ConditionFailed& failed) {
        detail::throw_stale_version(spec_.name, "put", versioned, failed);
      }
      if (detail::reported(failure)) {
        ConditionFailed stale = detail::stale_version(spec_.name, "put", versioned, **failure);
        failure->emplace(std::move(stale));
      } else if constexpr (!std::is_const_v<std::remove_reference_t<Item>>) {
        ++get_field<detail::version_index_v<T>>(item);
      }
    } else {
      backend_->put(handle_, request);
    }
    if constexpr (detail::returns_old_v<Conditions...>) return old;
  }

  template <EntityType T, class... Parts>
  T update_item(const T& key, Parts&&... parts) {
    static_assert(
        detail::checked_v<
            detail::Diagnose<!detail::chunked_v<T>,
                             diagnostics::update_cannot_change_a_chunked_entity_put_it_whole<T>>>);
    if constexpr (detail::UniqueEntity<T>) {
      return update_unique(key, parts...);
    }
    // The item as written is read back: its blob members' objects are fetched.
    std::optional<detail::BlobReadScope> blobs;
    if constexpr (detail::has_blob_members_v<T>) blobs.emplace(spec_, type_name_v<T>, "update");
    const detail::ScratchLease s;
    std::vector<backend::UpdateAction>& actions = s->actions;
    actions.resize(detail::stored_key_members_v<T>.count);
    detail::assign_key_member_actions(key, actions);
    std::optional<detail::UnsetIndexMember> unset;
    // An add past an integer member's range fails its guard (detail/add_ranges.hpp); the stored
    // item the failure carries tells it from the caller's condition failing.
    constexpr bool guarded = detail::adds_integer_v<Parts...>;
    std::vector<detail::AddRange> ranges;
    if constexpr (guarded) ranges = detail::add_ranges(parts...);
    const bool ask_stored = detail::returns_stored_v<Parts...> || !ranges.empty();
    std::optional<backend::Condition> condition =
        detail::update_parts(spec_, key, actions, unset, std::forward<Parts>(parts)...);
    detail::format_keys(spec_, key, s->pk, s->sk, "update");
    T result{};
    // A backend that patches the stored plain JSON body (SQLite's) reads the result while it
    // splits the stored body and once the actions are applied (backend::UpdateReader): the
    // written body is decoded only when that was not done (an item created, a member that
    // did not decode, a backend that does not read this way).
    bool read = false;
    std::optional<ConditionFailed>* const failure = detail::failure_report(parts...);
    const auto run = [&](const backend::UpdateReader* reader) {
      backend_->update(handle_,
                       backend::UpdateRequest{{s->pk, s->sk},
                                              type_name_v<T>,
                                              actions,
                                              condition ? &*condition : nullptr,
                                              reader,
                                              {nullptr, ask_stored, failure}},
                       [&](const backend::ItemView& row) {
                         if (!read)
                           detail::decode_row(body_format(), spec_, *s->decoder, row, result);
                       });
    };
    const auto send = [&] {
      if constexpr (detail::may_be_format<decltype(body_format()), BodyFormat::json>) {
        typename EntityCode<T>::Mask seen;
        const auto split = [&](std::string_view body, std::span<const std::string_view> names,
                               backend::BodyPatch& patch) {
          read = EntityCode<T>::split_json(body, names, patch, result, seen);
        };
        const auto finish = [&](const AttributeValue& named) {
          read = read && EntityCode<T>::finish_json(named, result, seen);
          if (read) detail::complete_key_members(detail::KnownKeys{s->pk, s->sk}, result, seen);
        };
        const backend::UpdateReader reader{split, finish};
        run(&reader);
      } else {
        run(nullptr);
      }
    };
    static_assert(!detail::returns_old_v<Parts...>,
                  "pksk: update returns the item as written; return_old is for put and erase");
    constexpr bool own_conditions = detail::has_conditions_v<Parts...>;
    if constexpr (VersionedEntity<T> || index_count_v<T> != 0 || guarded) {
      // The caller's ConditionFailed for the one the store reported: a failed range guard or
      // the index's presence condition is a ValidationError (thrown either way), a versioned
      // write's failure says its version was stale.
      const auto callers_failure = [&](const ConditionFailed& caught) -> ConditionFailed {
        std::optional<ConditionFailed> unasked;
        if constexpr (guarded) {
          unasked = detail::failure_of_guarded_update<T>(spec_.name, ranges, caught,
                                                         detail::returns_stored_v<Parts...>);
        }
        const ConditionFailed& failed = unasked ? *unasked : caught;
        if (unset && !own_conditions && !VersionedEntity<T>) {
          detail::throw_update_would_create(spec_.name, type_name_v<T>, unset->index, unset->member,
                                            failed);
        }
        if constexpr (VersionedEntity<T>) {
          return detail::stale_version(
              spec_.name, "update", detail::versioned_write(key, own_conditions || unset), failed);
        }
        return failed;
      };
      try {
        send();
      } catch (const ConditionFailed& caught) {
        throw callers_failure(caught);
      }
      if (detail::reported(failure)) {
        ConditionFailed failed = callers_failure(**failure);
        failure->emplace(std::move(failed));
      }
    } else {
      send();
    }
    return result;
  }

  // A try_ write: `write(report...)` makes the write. An entity whose writes are one request
  // is given the part through which the backend reports its condition's failure in place; a
  // failure thrown is caught either way (a transaction's, a chunked write's, or a backend's
  // that does not report: the contract lets it throw).
  template <class T, class Write>
  auto try_write(Write&& write) -> WriteResult<decltype(write())> {
    using Result = decltype(write());
    constexpr bool reports =
        !detail::chunked_v<T> && !detail::UniqueEntity<T> && !detail::has_blob_members_v<T>;
    std::optional<ConditionFailed> failure;
    const auto run = [&]() -> Result {
      if constexpr (reports) {
        return write(detail::ReportFailure{&failure});
      } else {
        return write();
      }
    };
    try {
      if constexpr (std::is_void_v<Result>) {
        run();
        if (failure) return std::move(*failure);
        return {};
      } else {
        Result result = run();
        if (failure) return std::move(*failure);
        return result;
      }
    } catch (ConditionFailed& failed) {
      return std::move(failed);
    }
  }

  WriteContext write_context(WriteOperation operation) const noexcept {
    return WriteContext(spec_.name, operation, spec_.ttl_clock);
  }

  // A write of an entity with unique members (key/unique.hpp): one transaction of the item's
  // action, added by `act`, conditioned on the stored item being as it was read, with the guards
  // of the unique values that change claimed and released. A claim that finds its value taken is
  // a ConditionFailed naming the member and the value; a stored item that changed between the
  // read and the write is read again and the write tried again; a conflict is retried.
  // `changes(old)` gives the unique values after the write (the item's own for put; what the
  // update's actions make of old's for update; none for erase). `removed`: whether there was an
  // item (erase).
  template <detail::UniqueEntity T, class Act>
  bool write_unique(std::string_view operation, const T& key, bool own_conditions, Act&& act) {
    Transaction<B> tx(*this);
    tx.single_write_ = operation;
    act(tx);
    try {
      tx.commit();
      return tx.guarded_.front().present;
    } catch (const TransactionCanceled& canceled) {
      if (tx.taken_) {
        detail::throw_unique_taken(spec_.name, operation, type_name_v<T>, tx.taken_->member,
                                   tx.taken_->value, canceled);
      }
      const std::vector<CancellationReason>& reasons = canceled.reasons();
      if (reasons.empty() || reasons.front() != CancellationReason::condition_failed) throw;
      // The item's action is the transaction's first: the stored item it carries when the
      // write asked for it (return_stored_on_failure), as the item's condition saw it.
      const std::vector<std::shared_ptr<const RawItem>>& stored = canceled.stored_items();
      const ConditionFailed failed(
          detail::table_context(spec_.name, operation, type_name_v<T>) + "the condition failed",
          canceled.native(), std::current_exception(), stored.empty() ? nullptr : stored.front());
      if constexpr (VersionedEntity<T>) {
        detail::throw_stale_version(spec_.name, operation,
                                    detail::versioned_write(key, own_conditions), failed);
      }
      throw failed;
    }
  }

  // Whether the guard `key` is there; `owner`: whom it names (none for an older guard).
  bool read_guard(const std::string& key, std::optional<detail::GuardOwner>& owner) {
    return backend_->get(handle_, backend::ItemKey{key, key}, [&](const backend::ItemView& row) {
      owner = detail::parse_guard(detail::item_text(row.live, row.body), format_now());
    });
  }
  // A guard's owner as read now: whether it is there (and not expired), and its value of the
  // guard's member.
  detail::OwnerRead read_owner(const detail::GuardOwner& owner, std::int64_t now) {
    std::optional<std::string> text;
    backend_->get(handle_, backend::ItemKey{owner.pk, owner.sk}, [&](const backend::ItemView& row) {
      text.emplace(detail::item_text(row.live, row.body));
    });
    return detail::read_owner(spec_, text ? std::optional<std::string_view>(*text) : std::nullopt,
                              format_now(), owner, now);
  }

  // An update of an entity with unique members: a transaction with its guards, whose unique
  // values after it are the stored item's where no action names the member, a set's value, or
  // none after a remove. Returns the item as read after the write.
  template <EntityType T, class... Parts>
  T update_unique(const T& key, const Parts&... parts) {
    // upsert is an update of every member (EveryMember): its errors say upsert.
    constexpr std::string_view operation =
        (detail::is_every_member_v<Parts> || ...) ? "upsert" : "update";
    // An add past an integer member's range fails its guard, as in update_item: the action asks
    // for the stored item, which tells the guard's failure from the caller's condition.
    std::vector<detail::AddRange> ranges;
    if constexpr (detail::adds_integer_v<Parts...>) ranges = detail::add_ranges(parts...);
    try {
      write_unique(operation, key, detail::has_conditions_v<Parts...>, [&](Transaction<B>& tx) {
        if (ranges.empty()) {
          tx.update_action(key, parts...);
        } else {
          tx.update_action(key, parts..., return_stored_on_failure);
        }
      });
    } catch (const ConditionFailed& caught) {
      if (ranges.empty()) throw;
      if (std::optional<ConditionFailed> failure = detail::failure_of_guarded_update<T>(
              spec_.name, ranges, caught, detail::returns_stored_v<Parts...>))
        throw *std::move(failure);
      throw;
    }
    std::optional<T> written = get_for(key, operation);
    if (!written) {
      throw ConditionFailed(detail::table_context(spec_.name, operation, type_name_v<T>) +
                            "the item was removed right after the update");
    }
    return std::move(*written);
  }

  // get, the wrong type or an item that does not decode named as `operation`'s: the caller's
  // call that reads the item (an update of an entity with unique members reads it back).
  template <EntityType T>
  std::optional<T> get_for(const T& key, std::string_view operation) {
    const detail::ScratchLease s;
    // Counted as a read (TableOptions::count_access), whichever call reads.
    detail::format_keys(spec_, key, s->pk, s->sk, "get");
    std::optional<T> found;
    backend_->get(handle_, backend::ItemKey{s->pk, s->sk}, [&](const backend::ItemView& row) {
      check_type<T>(row, operation);
      detail::decode_row(body_format(), spec_, *s->decoder, row, found.emplace());
    });
    return found;
  }

  friend class Transaction<B>;
  template <Backend, class>
  friend class Each;
  friend class IndexRef<B>;
  friend class Maintenance<B>;

  // Opens the table on the backend after the checks every backend needs: index key attributes
  // distinct from the table's key attributes and from each other.
  static typename B::TableHandle open(B& backend, const backend::TableSpec& spec);

  std::string context(std::string_view operation, std::string_view type) const {
    return detail::table_context(spec_.name, operation, type);
  }

  detail::CursorSigner cursors() const noexcept { return {spec_.name, spec_.cursor_key}; }

  template <EntityType T>
  void check_type(const backend::ItemView& row, std::string_view operation) const {
    if (!detail::stored_as<T>(row)) [[unlikely]]
      detail::throw_wrong_type(spec_.name, row, type_name_v<T>, operation);
  }

  // A row of transact_get, into its key's slot.
  template <EntityType T>
  void read_into(const backend::ItemView& row, BodyDecoder& decoder, std::optional<T>& slot) {
    check_type<T>(row, "transact_get");
    detail::decode_row(body_format(), spec_, decoder, row, slot.emplace());
  }

  // The keys checked as DynamoDB checks a TransactGetItems request, then read by the backend.
  void transact_get_keys(std::span<const backend::ItemKey> keys, backend::IndexedItemVisitor visit)
    requires TransactGetBackend<B>;

  template <class Range>
  void format_all_keys(const Range& items, std::vector<std::string>& texts,
                       std::vector<backend::ItemKey>& keys, std::string_view operation) const {
    const std::size_t n = static_cast<std::size_t>(std::ranges::distance(items));
    texts.resize(2 * n);
    std::size_t i = 0;
    for (const auto& item : items) {
      detail::format_keys(spec_, item, texts[2 * i], texts[2 * i + 1], operation);
      ++i;
    }
    keys.resize(n);
    for (i = 0; i < n; ++i) keys[i] = backend::ItemKey{texts[2 * i], texts[2 * i + 1]};
  }

  template <class Range>
  void batch_write(const Range& items, bool erase, std::string_view operation) {
    using T = std::ranges::range_value_t<Range>;
    // A slice of items is encoded into one arena, then handed to the backend whole: bounded
    // memory for any input size, and one SQLite transaction per slice.
    constexpr std::size_t slice = 40 * backend::max_batch_write_items;
    std::vector<std::string> keys;
    std::vector<std::string> bodies;
    std::vector<backend::WriteRequest> writes;
    std::size_t body_room = 0;
    auto it = std::ranges::begin(items);
    const auto end = std::ranges::end(items);
    while (it != end) {
      // keys and bodies keep their strings from slice to slice: formatting into them reuses
      // their capacity, so a slice after the first allocates nothing per item.
      writes.clear();
      std::vector<backend::ItemKey> item_keys;
      std::size_t n = 0;
      for (auto at = it; at != end && n < slice; ++at) ++n;
      keys.resize(2 * n);
      bodies.resize(erase ? 0 : n);
      std::vector<std::size_t> sizes(n);
      for (std::size_t i = 0; i < n; ++i, ++it) {
        if (erase) {
          detail::format_keys(spec_, *it, keys[2 * i], keys[2 * i + 1], operation);
        } else {
          detail::format_keys(spec_, *it, keys[2 * i], keys[2 * i + 1], operation);
          // A body new to this slice starts with room for the largest so far, rather than
          // growing by doublings from empty (the first slice's).
          if (bodies[i].capacity() < body_room) bodies[i].reserve(body_room);
          sizes[i] = detail::encode_checked(body_format(), spec_, *it, keys[2 * i], keys[2 * i + 1],
                                            bodies[i], operation);
          body_room = std::max(body_room, bodies[i].size());
        }
      }
      for (std::size_t i = 0; i < n; ++i) item_keys.push_back({keys[2 * i], keys[2 * i + 1]});
      for (std::size_t start = 0; start < n; start += backend::max_batch_write_items) {
        detail::refuse_duplicate_keys(
            spec_.name,
            std::span<const backend::ItemKey>(item_keys).subspan(
                start, std::min(backend::max_batch_write_items, n - start)),
            operation);
      }
      for (std::size_t i = 0; i < n; ++i) {
        if (erase) {
          writes.emplace_back(backend::EraseRequest{item_keys[i], nullptr});
        } else {
          writes.emplace_back(
              backend::PutRequest{backend::ItemView{item_keys[i].pk, item_keys[i].sk,
                                                    type_name_v<T>, bodies[i], sizes[i]},
                                  nullptr});
        }
      }
      std::vector<std::size_t> all(n);
      for (std::size_t i = 0; i < n; ++i) all[i] = i;
      detail::retry_unprocessed(
          retry_, spec_.name, operation, std::move(all),
          [&](std::span<const std::size_t> indexes, std::vector<std::size_t>& unprocessed) {
            if (indexes.size() == writes.size()) {
              backend_->batch_write(handle_, writes, unprocessed);
              return;
            }
            // A key may be written twice in a slice (in two requests of 25); a retry sends
            // only the last write of each key, which also leaves the result of the slice that
            // of its last write: an earlier one handed back is dropped, not sent after it.
            std::vector<std::size_t> sent = detail::last_write_of_each_key(item_keys, indexes);
            std::vector<backend::WriteRequest> retry;
            for (std::size_t i : sent) retry.push_back(writes[i]);
            backend_->batch_write(handle_, retry, unprocessed);
            for (std::size_t& u : unprocessed) u = sent[u];
          });
    }
  }

  // The visitor that decodes each row handed over; a projection has its own, so that the plain
  // query's visitor is the same code as it was before projections existed. `index`: the index
  // read (its keys give members the items it projects lack), nullptr for the table.
  template <class R, bool Selected, class Result>
  auto row_visitor(Result& result, const detail::ReadPlan<R>& plan, BodyDecoder& decoder,
                   const TableIndex* index) {
    return [&, index](const backend::ItemView& row) {
      if constexpr (EntityType<R>) {
        if (!detail::stored_as<R>(row)) return;
        if constexpr (Selected) {
          push_selected(decoder, result, row, plan.mask, index);
        } else {
          push_decoded(decoder, result, row, index);
        }
      } else {
        detail::with_body_format(*backend_, handle_, [&]<BodyFormat Format>() {
          try {
            const detail::IndexedRow keys{row, Format, spec_, index};
            bool known;
            if constexpr (Selected) {
              known = backend::CollectionBuilder::append_member_selected<Format>(
                  result, row.type, row.body, decoder, plan.mask, row.live, keys);
            } else {
              known = backend::CollectionBuilder::append_member<Format>(result, row.type, row.body,
                                                                        decoder, row.live, keys);
            }
            if (!known) {
              backend::CollectionBuilder::append_unknown<Format>(
                  result, row.partition_key(), row.sort_key(), row.type, row.body, row.live);
            }
          } catch (const DecodeError& e) {
            if (!plan.keep_undecodable) detail::throw_decode_error(spec_.name, row, e);
            backend::CollectionBuilder::append_undecodable<Format>(
                result, row.partition_key(), row.sort_key(), row.type, row.body, row.live,
                detail::decode_error_message(spec_.name, row, e));
          }
        });
      }
    };
  }

  // Calls pages(backend::ItemVisitor) with the row visitor the plan needs. The visitor is the one
  // piece of a read's per-row code that depends on R; the page loops it is handed to do not.
  template <class R, class Result, class Pages>
  std::optional<Cursor> with_visitor(Result& result, const detail::ReadPlan<R>& plan,
                                     const TableIndex* index, Pages&& pages) {
    const detail::ScratchLease s;
    if constexpr (detail::reads_blobs_v<R>) {
      const detail::BlobReadScope blobs(spec_, detail::read_type_name<R>(), "read");
      if (plan.selected) return pages(row_visitor<R, true>(result, plan, *s->decoder, index));
      return pages(row_visitor<R, false>(result, plan, *s->decoder, index));
    }
    if (plan.selected) return pages(row_visitor<R, true>(result, plan, *s->decoder, index));
    return pages(row_visitor<R, false>(result, plan, *s->decoder, index));
  }

  // The sort-key condition of a query of R (options.sk, or for an entity its sort key's literal
  // prefix), once the partition key is checked against what R's template can produce.
  template <class R>
  const KeyCondition* query_condition(const PartitionKey& pk, const BasicQueryOptions<R>& options,
                                      const TableIndex* index) const {
    const KeyCondition* condition = options.sk ? &*options.sk : nullptr;
    if (index == nullptr) check_key_schema<R>(condition != nullptr);
    if constexpr (EntityType<R> || detail::entity_collection_v<R>) {
      if (condition) detail::check_sort_key_condition<R>(spec_.name, *condition, index);
    }
    if constexpr (EntityType<R>) {
      detail::check_partition_key<R>(spec_.name, pk, index);
      if (!condition) condition = detail::type_prefix_condition<R>(spec_.name, index);
    } else if constexpr (detail::entity_collection_v<R>) {
      if (index == nullptr) {
        detail::check_partition_key<typename detail::CollectionFirst<R>::type>(spec_.name, pk,
                                                                               nullptr);
      } else {
        detail::check_index_collection(spec_.name, pk, *index, std::type_identity<R>{});
      }
    }
    return condition;
  }

  // A read of the table (not an index) of R whose key shape is not the table's, or with a
  // sort-key condition on a table without a sort key: a ValidationError, as DynamoDB refuses it.
  template <class R>
  void check_key_schema(bool sort_key_condition) const {
    if constexpr (EntityType<R> || detail::entity_collection_v<R>) {
      using T = typename std::conditional_t<EntityType<R>, std::type_identity<R>,
                                            detail::CollectionFirst<R>>::type;
      detail::check_key_shape<T>(spec_, "query");
      if (sort_key_condition && spec_.sk_attribute.empty()) [[unlikely]]
        detail::throw_sort_key_condition_without_sort_key(spec_.name, type_name_v<T>);
    }
  }

  template <class R, class Result>
  std::optional<Cursor> run_query(const PartitionKey& pk, const BasicQueryOptions<R>& options,
                                  Result& result, bool all_pages,
                                  const TableIndex* index = nullptr) {
    if constexpr (!detail::readable_v<R>) {
      return std::nullopt;  // reported by detail::QueryResult<R>
    } else {
      const KeyCondition* condition = query_condition<R>(pk, options, index);
      const detail::ReadPlan<R> plan = detail::make_read_plan(spec_, options, /*scan=*/false);
      const detail::ReadShape shape = detail::read_shape(options);
      if constexpr (detail::reads_chunked_v<R>) {
        return with_chunked_visitor(result, options, plan, index, [&](backend::ItemVisitor visit) {
          return query_pages(pk, shape, condition, plan, all_pages, index, visit);
        });
      }
      return with_visitor(result, plan, index, [&](backend::ItemVisitor visit) {
        return query_pages(pk, shape, condition, plan, all_pages, index, visit);
      });
    }
  }

  // The pages of a query, each row handed to `visit`: every page up to the limit, or the first
  // page and the cursor after it. Not a template, so compiled once per Table<B> whatever the
  // entities read; run_query<R> only works out the plan and the row visitor. With `count`, the
  // pages are asked for a count only (RawQuery::count_only), each page's added to *count; a
  // backend that hands the items anyway hands them to `visit`, which then counts them.
  std::optional<Cursor> query_pages(const PartitionKey& pk, const detail::ReadShape& shape,
                                    const KeyCondition* condition, const detail::ReadPlanBase& plan,
                                    bool all_pages, const TableIndex* index,
                                    backend::ItemVisitor visit, std::size_t* count = nullptr);

  // count<R>: query<R>'s key condition and filter, narrowed to R's types (what query<R> keeps
  // while decoding), every page counted.
  template <class R>
  std::size_t run_count(const PartitionKey& pk, const BasicQueryOptions<R>& options,
                        const TableIndex* index = nullptr) {
    if constexpr (!detail::readable_v<R>) {
      return 0;  // reported by detail::QueryResult<R>
    } else {
      constexpr auto& types = detail::ReadTypes<R>::value;
      if (!options.select.empty()) {
        detail::throw_count_with_select(
            spec_.name, EntityType<R> ? types.front() : std::string_view("ItemCollection"));
      }
      if constexpr (detail::reads_chunked_v<R>) {
        if (EntityType<R> && !options.filter.empty())
          detail::throw_chunked_read_refused(spec_.name, "count");
        detail::check_chunked_collection_filter<R>(spec_.name, options.filter);
      }
      const KeyCondition* condition = query_condition<R>(pk, options, index);
      detail::ReadPlanBase plan = detail::make_read_plan(spec_, options, /*scan=*/false);
      std::size_t n = 0;
      if (spec_.type_attribute.empty() ||
          (index != nullptr && !index->projects(spec_.type_attribute))) {
        // No type to count by server-side (none stored, or an index that does not project it):
        // the items are read, and counted by their sort keys.
        query_pages(pk, detail::read_shape(options), condition, plan, /*all_pages=*/true, index,
                    [&](const backend::ItemView& row) {
                      if (detail::stored_as_one_of<R>(row)) ++n;
                    });
        return n;
      }
      detail::plan_type_filter(plan, spec_, types);
      query_pages(
          pk, detail::read_shape(options), condition, plan, /*all_pages=*/true, index,
          [&](const backend::ItemView&) { ++n; }, &n);
      return n;
    }
  }

  template <class R, class Result>
  std::optional<Cursor> run_scan(const BasicQueryOptions<R>& options, Result& result,
                                 bool all_pages) {
    if constexpr (!detail::readable_v<R>) {
      return std::nullopt;  // reported by detail::QueryResult<R>
    } else {
      const detail::ReadShape shape = detail::read_shape(options);
      check_scan(shape);
      check_key_schema<R>(false);
      const detail::ReadPlan<R> plan = detail::make_read_plan(spec_, options, /*scan=*/true);
      if constexpr (detail::reads_chunked_v<R>) {
        return with_chunked_visitor(
            result, options, plan, nullptr,
            [&](backend::ItemVisitor visit) { return scan_pages(shape, plan, all_pages, visit); });
      }
      return with_visitor(result, plan, nullptr, [&](backend::ItemVisitor visit) {
        return scan_pages(shape, plan, all_pages, visit);
      });
    }
  }

  // query_buckets and query_buckets_page, `call` naming which in an error.
  template <EntityType T>
  Page<std::vector<T>> buckets_page(std::string_view call, const T& proto,
                                    std::chrono::system_clock::time_point from,
                                    std::chrono::system_clock::time_point to,
                                    const BasicQueryOptions<T>& options) {
    using Field = detail::FanOutField<T, /*Bucket=*/true>;
    if constexpr (Field::ok) {
      constexpr auto unit = Field::segment.spec.spec;
      if (to < from) detail::throw_buckets_reversed(spec_.name, call, type_name_v<T>, from, to);
      detail::check_partition_count(spec_.name, call, type_name_v<T>,
                                    detail::bucket_count(unit, from, to), options.max_partitions);
      std::vector<PartitionKey> pks;
      T item = proto;
      for (const auto start : detail::bucket_starts(unit, from, to)) {
        get_field<Field::segment.field>(item) = start;
        pks.push_back(partition(item));
      }
      if (!options.forward) std::reverse(pks.begin(), pks.end());
      return fan_out_page(pks, options, [&](const T& t) {
        const auto& at = get_field<Field::segment.field>(t);
        return from <= at && at <= to;
      });
    } else {
      return {};
    }
  }

  // query_shards and query_shards_page, `call` naming which in an error.
  template <EntityType T>
  Page<std::vector<T>> shards_page(std::string_view call, const T& proto,
                                   const BasicQueryOptions<T>& options) {
    using Field = detail::FanOutField<T, /*Bucket=*/false>;
    if constexpr (Field::ok) {
      detail::check_partition_count(spec_.name, call, type_name_v<T>, Field::segment.spec.shards,
                                    options.max_partitions);
      std::vector<PartitionKey> pks;
      for (unsigned shard = 0; shard < Field::segment.spec.shards; ++shard) {
        pks.push_back(detail::shard_partition_key(proto, shard));
      }
      return fan_out_page(pks, options, [](const T&) { return true; });
    } else {
      return {};
    }
  }

  // One page of a fan-out read over the partitions `pks`. A page's cursor is a cursor of this
  // table that names the fan-out (detail::fan_out_cursor_pk) and the last sort key the merge
  // consumed: each partition resumes after that key, which no other partition holds (the spread
  // member is in the sort key), so the merge goes on where it stopped.
  template <EntityType T, class Keep>
  Page<std::vector<T>> fan_out_page(const std::vector<PartitionKey>& pks,
                                    const BasicQueryOptions<T>& options, Keep&& keep) {
    const std::string fan_out = detail::fan_out_cursor_pk<T>();
    if (options.start) {
      cursors().check_origin(*options.start);
      if (!options.start->index.empty() || options.start->pk != fan_out) {
        throw ValidationError("pksk table " + detail::quoted(spec_.name) +
                              ": the cursor is not one of this fan-out read (query_buckets, "
                              "query_shards) of " +
                              std::string(type_name_v<T>));
      }
    }
    BasicQueryOptions<T> each_options = options;
    const auto partition_options = [&](const PartitionKey& pk) -> const BasicQueryOptions<T>& {
      if (options.start) each_options.start = cursors().make({}, pk.value, options.start->sk);
      return each_options;
    };
    const BodyFormat format = body_format();
    const std::size_t width = detail::requests_observed_on_this_thread() > 0 ? 1
                              : options.parallel != 0                        ? options.parallel
                              : format == BodyFormat::json                   ? 1
                                                                             : 8;
    auto [items, resume] =
        detail::merge_partitions(*this, pks, options, keep, partition_options, *workers_, width);
    Page<std::vector<T>> page;
    page.items = std::move(items);
    if (resume) page.next = cursors().make({}, fan_out, std::move(*resume));
    return page;
  }

  // What DynamoDB refuses in a scan request, refused before the plan is worked out.
  void check_scan(const detail::ReadShape& shape) const;

  // The pages of a scan, as query_pages reads a query's.
  std::optional<Cursor> scan_pages(const detail::ReadShape& shape, const detail::ReadPlanBase& plan,
                                   bool all_pages, backend::ItemVisitor visit);

  template <class T>
  void push_selected(BodyDecoder& decoder, std::vector<T>& result, const backend::ItemView& row,
                     const std::bitset<field_count_v<T>>& mask, const TableIndex* index) {
    T& item = result.emplace_back();
    try {
      const auto seen =
          EntityCode<T>::decode_selected(body_format(), decoder, row.live, row.body, item, mask);
      detail::complete_key_members(detail::IndexedRow{row, body_format(), spec_, index}, item,
                                   seen | ~mask);
    } catch (const DecodeError& e) {
      result.pop_back();
      detail::throw_decode_error(spec_.name, row, e);
    }
  }

  // ---- chunked items (Entity<T>::chunked; detail/chunks.hpp has the protocol's pieces)

  BodyFormat format_now() const { return static_cast<BodyFormat>(body_format()); }

  template <EntityType T>
  static constexpr void check_chunked_entity() {
    static_assert(
        detail::checked_v<detail::Diagnose<
            !VersionedEntity<T> && index_count_v<T> == 0 && !detail::UniqueEntity<T> &&
                !detail::has_ttl_v<T>,
            diagnostics::a_chunked_entity_has_no_version_index_unique_members_or_ttl<T>>>);
    static_assert(
        detail::checked_v<
            detail::Diagnose<!detail::has_blob_members_v<T>,
                             diagnostics::a_chunked_entity_keeps_no_member_in_a_blob_store<T>>>);
  }

  template <EntityType T>
  void put_chunked(const T& item) {
    check_chunked_entity<T>();
    const detail::ScratchLease s;
    detail::format_keys(spec_, item, s->pk, s->sk, "put");
    const std::size_t size =
        detail::encode_sized(body_format(), spec_, item, s->pk, s->sk, s->body, "put");
    write_chunked(s->pk, s->sk, type_name_v<T>, s->body, size, detail::chunks_beside_parent_v<T>);
  }

  template <EntityType T>
  std::optional<T> get_chunked(const T& key) {
    check_chunked_entity<T>();
    const detail::ScratchLease s;
    detail::format_keys(spec_, key, s->pk, s->sk, "get");
    std::optional<T> found;
    std::optional<detail::ChunkHead> head;
    backend_->get(handle_, backend::ItemKey{s->pk, s->sk}, [&](const backend::ItemView& row) {
      check_type<T>(row, "get");
      const std::string_view text = detail::item_text(row.live, row.body);
      if (detail::is_chunk_head(text)) {
        head = detail::parse_chunk_head(text, format_now());
        return;
      }
      backend::ItemView plain = row;
      plain.live = {};
      plain.body = text;
      detail::decode_row(body_format(), spec_, *s->decoder, plain, found.emplace());
    });
    if (head) {
      const detail::PendingHead pending{0, s->pk, s->sk, std::string(type_name_v<T>),
                                        std::move(*head)};
      if (std::optional<std::string> body = read_chunks(pending))
        decode_whole(*body, pending, found.emplace());
    }
    return found;
  }

  template <EntityType T>
  bool erase_chunked(const T& key) {
    check_chunked_entity<T>();
    const detail::ScratchLease s;
    detail::format_keys(spec_, key, s->pk, s->sk, "erase");
    return erase_with_chunks(s->pk, s->sk);
  }

  // An item reassembled from its chunks (or read again plain), decoded as the T at head.at.
  template <class T>
  void decode_whole(std::string_view body, const detail::PendingHead& head, T& out) {
    const detail::ScratchLease s;
    const backend::ItemView row{head.pk, head.sk, head.type, body, body.size()};
    detail::decode_row(body_format(), spec_, *s->decoder, row, out);
  }

  // A read that may meet chunked items' heads: each head is kept in the result as a
  // placeholder while the pages are read (the backend's answer is still being read, so no
  // other request can be made), then its chunks are read and decoded in its place.
  template <class R, class Result, class Pages>
  std::optional<Cursor> with_chunked_visitor(Result& result, const BasicQueryOptions<R>& options,
                                             const detail::ReadPlan<R>& plan,
                                             const TableIndex* index, Pages&& pages) {
    if (!options.select.empty() || (EntityType<R> && !options.filter.empty())) {
      detail::throw_chunked_read_refused(
          spec_.name, EntityType<R> ? std::string_view(detail::ReadTypes<R>::value.front())
                                    : std::string_view("an ItemCollection"));
    }
    detail::check_chunked_collection_filter<R>(spec_.name, options.filter);
    const detail::ScratchLease s;
    // An item collection may hold an entity with blob members beside the chunked one.
    std::optional<detail::BlobReadScope> blobs;
    if constexpr (detail::reads_blobs_v<R>)
      blobs.emplace(spec_, detail::read_type_name<R>(), "read");
    std::vector<detail::PendingHead> heads;
    auto visit_plain = row_visitor<R, false>(result, plan, *s->decoder, index);
    const auto visit = [&](const backend::ItemView& row) {
      if (row.type == detail::chunk_type) return;  // chunks beside their parent
      if (!detail::stored_as_one_of<R>(row)) return visit_plain(row);
      const std::string_view text = detail::item_text(row.live, row.body);
      if (detail::is_chunk_head(text)) {
        detail::PendingHead head{0, std::string(row.partition_key()), std::string(row.sort_key()),
                                 std::string(row.type),
                                 detail::parse_chunk_head(text, format_now())};
        if constexpr (EntityType<R>) {
          result.emplace_back();
        } else {
          detail::with_body_format(*backend_, handle_, [&]<BodyFormat Format>() {
            backend::CollectionBuilder::append_member<Format>(result, row.type, "{}", *s->decoder,
                                                              ParsedItem{}, row);
          });
        }
        head.at = result.size() - 1;
        heads.push_back(std::move(head));
        return;
      }
      backend::ItemView plain = row;
      plain.live = {};
      plain.body = text;
      visit_plain(plain);
    };
    std::optional<Cursor> cursor = pages(backend::ItemVisitor(visit));
    // Back to front, so that an item gone meanwhile is dropped without moving those before it.
    for (auto head = heads.rbegin(); head != heads.rend(); ++head) {
      std::optional<std::string> body = read_chunks(*head);
      if constexpr (EntityType<R>) {
        if (body) {
          decode_whole(*body, *head, result[head->at]);
        } else {
          result.erase(result.begin() + static_cast<std::ptrdiff_t>(head->at));
        }
      } else {
        if (!body) {
          backend::CollectionBuilder::erase_member(result, head->at);
          continue;
        }
        const backend::ItemView row{head->pk, head->sk, head->type, *body, body->size()};
        detail::with_body_format(*backend_, handle_, [&]<BodyFormat Format>() {
          backend::CollectionBuilder::replace_member<Format>(result, head->at, head->type, *body,
                                                             *s->decoder, row);
        });
      }
    }
    return cursor;
  }

  // The protocol, whatever the entity (impl/table.hpp): a put of an encoded item (plain when
  // it fits, else chunks, then the head under a condition on the version it replaces, then
  // the old version's chunks removed), an erase with the chunks, the head stored under a key.
  void write_chunked(std::string_view pk, std::string_view sk, std::string_view type,
                     std::string_view body, std::size_t size, bool beside);
  bool erase_with_chunks(std::string_view pk, std::string_view sk);
  // Maintenance::sweep_chunks: chunks no head names any more, written min_age ago or earlier.
  std::size_t sweep_orphan_chunks(std::chrono::milliseconds min_age);
  std::optional<detail::ChunkHead> read_head(std::string_view pk, std::string_view sk);
  // The body the head names, reassembled; if a chunk is missing (a writer replaced the version
  // meanwhile), the item is read again: its new version's body, nullopt when it is gone.
  std::optional<std::string> read_chunks(const detail::PendingHead& head);
  // The body of the version `head` names, or nullopt with `missing` the first chunk absent.
  std::optional<std::string> fetch_chunks(std::string_view pk, const detail::ChunkHead& head,
                                          std::size_t& missing);
  void write_chunks(std::string_view pk, std::string_view sk, const detail::ChunkHead& head,
                    std::span<const std::string_view> pieces);
  void remove_chunks(std::vector<detail::ChunkKey> keys);
  // One batch write of at most 25 chunks (puts or erases), sent again for what comes back
  // unprocessed.
  void write_chunk_batch(std::span<const backend::WriteRequest> writes, std::string_view operation);
  void remove_chunks(std::string_view pk, const detail::ChunkHead& head);

  // Removes the objects of an item replaced or erased. The item write has succeeded: an object
  // that cannot be removed now is left for sweep_blobs.
  void remove_blobs(const std::vector<std::string>& keys) noexcept {
    for (const std::string& key : keys) {
      try {
        spec_.blob_store->remove(key);
      } catch (...) {
      }
    }
  }

  // put of an entity with blob members: its large values stored first, then the item; the
  // objects removed again if the item is not written, and those of the item it replaced
  // removed once it is.
  template <class Item, class... Conditions>
  auto put_with_blobs(Item&& item, const Conditions&... conditions) {
    using T = std::remove_cvref_t<Item>;
    if (!spec_.blob_store) detail::throw_no_blob_store(spec_.name, type_name_v<T>, "put");
    std::string pk, sk;
    detail::format_keys(spec_, item, pk, sk, "put");
    detail::BlobUploads<T> uploads(spec_, item, pk, sk);
    std::vector<std::string> replaced;
    const auto write = [&] {
      const detail::BlobKeysScope old_keys(&replaced, detail::returns_old_v<Conditions...>);
      return put(std::forward<Item>(item), conditions...);
    };
    const auto keep = [&] {
      uploads.release();
      std::erase_if(replaced, [&](const std::string& key) { return uploads.stored(key); });
      remove_blobs(replaced);
    };
    if constexpr (detail::returns_old_v<Conditions...>) {
      auto old = write();
      keep();
      return old;
    } else {
      write();
      keep();
    }
  }

  // The item a write replaced or removed (return_old), decoded as a T.
  template <class T>
  void decode_old(const backend::ItemView& row, std::string_view operation, std::optional<T>& old) {
    check_type<T>(row, operation);
    const detail::ScratchLease s;
    detail::decode_row(body_format(), spec_, *s->decoder, row, old.emplace());
  }

  template <class T>
  void push_decoded(BodyDecoder& decoder, std::vector<T>& result, const backend::ItemView& row,
                    const TableIndex* index) {
    T& item = result.emplace_back();
    try {
      detail::decode_row(body_format(), spec_, decoder, row, item, index);
    } catch (...) {
      result.pop_back();
      throw;
    }
  }

  // The format of this table's bodies: a std::integral_constant for a backend whose format is
  // a constant (body_format_arg).
  auto body_format() const { return detail::body_format_arg(*backend_, handle_); }

  B* backend_;
  detail::TableSpecOfTable spec_;  // the name and the options, as the backend was given them
  typename B::TableHandle handle_;
  BatchRetry retry_;
  // The threads of parallel fan-out reads, shared by copies of the Table.
  std::shared_ptr<detail::WorkerPool> workers_ = std::make_shared<detail::WorkerPool>();
};

}  // namespace pksk

#include "impl/table.hpp"
