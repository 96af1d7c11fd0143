// SPDX-License-Identifier: BSL-1.0
#pragma once
// The Backend concept: what pksk::Table needs of a store, in raw items. A backend knows
// nothing of entities: it stores (pk, sk, type, body, size), answers key-condition queries in
// sort-key byte order with DynamoDB's paging rules, and carries out writes (write.hpp) with
// DynamoDB's conditions, updates, transactions and batches. Reads hand each row to a visitor
// as views into the store's own memory, valid only during the call: no vector of copies.
// The visitor is a FunctionRef, not a template parameter, so that a backend's read loops are
// compiled once per program rather than once per entity type that is read.

#include <concepts>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../codec/body_format.hpp"
#include "../config.hpp"
#include "../detail/function_ref.hpp"
#include "../expr/expression.hpp"
#include "../key/condition.hpp"
#include "body_format_of.hpp"
#include "write.hpp"

namespace pksk {

namespace backend {

// What a backend needs to create or check one pksk table: its name and its TableOptions, of
// which a backend reads the key and type attributes' names (DynamoDB's key schema; the SQLite
// backend's columns; no entity member may take one of them) and the secondary indexes (their
// key attributes are ordinary top-level attributes of the item: Table writes them into the
// body of each entity in the index, and an update sets them; an item is in an index when it
// has both, as in DynamoDB's sparse GSIs). cursor_key is Table's alone: the spec a backend is
// given has it empty.
struct TableSpec : TableOptions {
  // The table's name.
  std::string name{};

  TableSpec() = default;
  // The spec of the table `table_name` with `options`.
  // Throws: nothing (both are moved).
  // Exception safety: nothrow.
  explicit TableSpec(std::string table_name, TableOptions options = {})
      : TableOptions(std::move(options)), name(std::move(table_name)) {}

  // The index named `name`, or nullptr.
  // Throws: nothing.
  // Exception safety: nothrow.
  const TableIndex* find_index(std::string_view index_name) const noexcept {
    for (const TableIndex& index : indexes) {
      if (index.name == index_name) return &index;
    }
    return nullptr;
  }

  // The sort key `sk` as the attribute value an item holds: a number on a table whose sort key
  // is one (TableOptions::sk_type), a string otherwise.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  AttributeValue sort_key_value(std::string_view sk) const {
    return sk_type == KeyType::number ? AttributeValue::from_number(std::string(sk))
                                      : AttributeValue::from_string(std::string(sk));
  }

  // Whether index `i` keeps its keys in the same two attributes as an earlier index (the same
  // keys projected differently): a backend makes their attributes (SQLite: columns) once.
  // Throws: nothing.
  // Exception safety: nothrow.
  bool repeats_index_keys(std::size_t i) const noexcept {
    for (std::size_t j = 0; j < i; ++j) {
      if (indexes[j].pk_attribute == indexes[i].pk_attribute &&
          indexes[j].sk_attribute == indexes[i].sk_attribute)
        return true;
    }
    return false;
  }
};

// DynamoDB ends a query page at 1 MB of data read.
inline constexpr std::size_t max_page_bytes = 1024 * 1024;

// One page of a query, as Table asks a backend: DynamoDB's Query request in raw keys.
struct RawQuery {
  // The partition key (of the index, for an index query).
  std::string_view pk{};
  const KeyCondition* sk = nullptr;  // nullptr: every item of the partition
  // Sort-key order; false for descending (ScanIndexForward).
  bool forward = true;
  std::size_t limit = 0;  // items evaluated in this page; 0 = no limit but the page size
  // Resume after this sort key (ExclusiveStartKey); none: from the start.
  std::optional<std::string_view> exclusive_start_sk{};
  // The page ends once the items read reach this many bytes (1 MB, as DynamoDB).
  std::size_t page_bytes = max_page_bytes;
  // False when the caller stops at the limit whatever follows (a query that reads every page
  // up to `limit` items): a page ending at the limit then reports no last key, which saves
  // copying a key nobody reads. A page ending at the byte budget always reports it.
  bool last_key_at_limit = true;
  // Evaluated on each item read, after it counts toward limit and page_bytes and before the
  // visitor sees it: an item it rejects is not handed over (DynamoDB's FilterExpression, key
  // and type attributes named as in the TableSpec). nullptr: every item.
  const Condition* filter = nullptr;
  // The top-level attributes the caller will decode (DynamoDB's ProjectionExpression; the keys
  // and type always come back). Empty: all. A backend may hand over more.
  std::span<const std::string_view> projection{};
  // A secondary index to read instead of the table; empty: the table itself. `pk` and `sk`
  // then are the index's keys, items come in index sort-key order (then table key order, for
  // items that share one index key), and a page resumes after the full key of its last item.
  std::string_view index{};
  std::optional<ItemKey> exclusive_start_item{};  // index queries: the table key of that item
  // DynamoDB's ConsistentRead: the read sees every write answered before it began. On a
  // secondary index (only ever eventually consistent), a ValidationError.
  bool consistent = false;
  // DynamoDB's Select=COUNT: the caller wants only how many items pass the filter. A backend
  // that honours it hands no item to the visitor and sets QueryOutcome::count; the page ends
  // where it would end otherwise (limit, page_bytes), so that paging is the same. A backend
  // that ignores it hands the items over as usual, and Table counts them.
  bool count_only = false;
};

// A page of a scan: every item of the table in (pk, sk) order, or of one segment of a parallel
// scan. limit, page_bytes, last_key_at_limit, filter, projection and consistent are as in
// RawQuery.
struct RawScan {
  // Which segment of `segments` this page reads (0-based).
  std::size_t segment = 0;
  std::size_t segments = 0;  // 0 or 1: the whole table
  // Items evaluated in this page; 0: no limit but the page size.
  std::size_t limit = 0;
  // Resume after this key; none: from the start.
  std::optional<ItemKey> exclusive_start{};
  // As RawQuery::page_bytes.
  std::size_t page_bytes = max_page_bytes;
  // As RawQuery::last_key_at_limit.
  bool last_key_at_limit = true;
  // As RawQuery::filter.
  const Condition* filter = nullptr;
  // As RawQuery::projection.
  std::span<const std::string_view> projection{};
  // As RawQuery::consistent.
  bool consistent = false;
};

// How a scan page ended: items evaluated and the last key, when another page may follow.
struct ScanOutcome {
  // Items evaluated (read), before the filter.
  std::size_t evaluated = 0;
  std::optional<std::string> last_evaluated_pk{};  // both set, or neither
  // The last item's sort key (see last_evaluated_pk).
  std::optional<std::string> last_evaluated_sk{};
};

// How a page ended. As in DynamoDB, last_evaluated_sk is set whenever the page stopped at
// the limit (unless RawQuery::last_key_at_limit is false) or at the byte budget, even if no
// item follows; empty means the range is done.
struct QueryOutcome {
  // Items evaluated (read), before the filter.
  std::size_t evaluated = 0;
  // The last evaluated item's sort key: where the next page starts.
  std::optional<std::string> last_evaluated_sk{};
  // Index queries: the table key of the last item evaluated, set with last_evaluated_sk.
  std::optional<std::string> last_evaluated_item_pk{};
  // With last_evaluated_item_pk: the table key of that item.
  std::optional<std::string> last_evaluated_item_sk{};
  // RawQuery::count_only honoured: the items of the page that passed the filter (DynamoDB's
  // Count), none of them handed to the visitor. Empty: the items went to the visitor.
  std::optional<std::size_t> count{};
};

}  // namespace backend

// The reads take their visitor as a backend::ItemVisitor (backend::IndexedItemVisitor for
// batch_get). A backend whose reads take a template visitor instead still satisfies the concept,
// but then compiles its read loops once per visitor type again.
template <class B>
concept Backend =
    requires(B& backend, const backend::TableSpec& spec, backend::ItemKey key,
             const backend::RawQuery& query, const backend::RawScan& scan,
             const backend::PutRequest& put, const backend::UpdateRequest& update,
             const backend::EraseRequest& erase, std::span<const backend::WriteRequest> writes,
             std::span<const backend::ItemKey> keys, std::vector<std::size_t>& unprocessed,
             backend::ItemVisitor visitor, backend::IndexedItemVisitor indexed_visitor) {
      typename B::TableHandle;
      // The bodies' format: a constant B::body_format, or backend.body_format(handle) for a
      // backend that knows it only at run time (AnyBackend); see body_format_of.hpp.
      requires detail::ConstantBodyFormat<B> || detail::RunTimeBodyFormat<B>;
      // Creates the table if absent, checks its schema if present (a mismatch throws).
      { backend.open_table(spec) } -> std::same_as<typename B::TableHandle>;
      requires requires(typename B::TableHandle& table) {
        // Calls the visitor with the item and returns true, or returns false when absent.
        { backend.get(table, key, visitor) } -> std::same_as<bool>;
        { backend.query(table, query, visitor) } -> std::same_as<backend::QueryOutcome>;
        // A page of a scan (of one segment), in an order that pages resume in.
        { backend.scan(table, scan, visitor) } -> std::same_as<backend::ScanOutcome>;
        // Writes: each throws ConditionFailed when its condition is false, writing nothing.
        { backend.put(table, put) } -> std::same_as<void>;
        // Upserts as DynamoDB's UpdateItem does and hands the item as written to the visitor.
        { backend.update(table, update, visitor) } -> std::same_as<void>;
        { backend.erase(table, erase) } -> std::same_as<bool>;  // true if an item was removed
        // All or nothing; TransactionCanceled with a reason per request.
        { backend.transact(table, writes) } -> std::same_as<void>;
        // Puts and erases, no conditions; the indexes of those not done go to `unprocessed`.
        { backend.batch_write(table, writes, unprocessed) } -> std::same_as<void>;
        // visitor(index of the key, item) for each key found; keys not read go to `unprocessed`.
        { backend.batch_get(table, keys, indexed_visitor, unprocessed) } -> std::same_as<void>;
      };
    };

// A Backend that also reads several items as of one moment (DynamoDB's TransactGetItems). An
// operation a backend may leave out: Table::transact_get needs it, and is a compile error
// naming the backend without it; AnyBackend has it, and throws BackendError (errc::misuse)
// when the backend it holds has not.
template <class B>
concept TransactGetBackend =
    Backend<B> && requires(B& backend, std::span<const backend::ItemKey> keys,
                           backend::IndexedItemVisitor indexed_visitor) {
      requires requires(typename B::TableHandle& table) {
        // visitor(index of the key, item) for each key found, every item as it was at one
        // moment, all or nothing; TransactionCanceled with a reason per key when the read
        // could not be made so (DynamoDB: a write of a transaction held one of the items).
        // Table hands over 1 to 100 distinct keys.
        { backend.transact_get(table, keys, indexed_visitor) } -> std::same_as<void>;
      };
    };

// A Backend that keeps expired items (past their TTL) until told to delete them, and deletes
// them on sweep_expired, returning how many (SQLite). A backend without it deletes them itself,
// as DynamoDB's TTL process does; Maintenance::sweep_expired is then 0. AnyBackend has it, and
// returns 0 when the backend it holds has not.
template <class B>
concept SweepExpiredBackend = Backend<B> && requires(B& backend) {
  requires requires(typename B::TableHandle& table) {
    { backend.sweep_expired(table) } -> std::same_as<std::size_t>;
  };
};

}  // namespace pksk
