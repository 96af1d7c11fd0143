// SPDX-License-Identifier: BSL-1.0
#pragma once
// IndexRef<B>: a handle on one secondary index of a Table (Table::index), whose queries read
// the index through the Table's own query loop.

#include <cstddef>
#include <optional>
#include <string>

#include "../config.hpp"
#include "../key/key.hpp"
#include "each.hpp"
#include "fwd.hpp"
#include "query.hpp"
#include "read_plan.hpp"

namespace pksk {

// A secondary index of a Table (Table::index): its queries take the index's partition key and
// the same options as the table's, and return the items in index sort-key order, then table key
// order. For an entity T, a query without a key condition keeps to T's items by the literal
// prefix of T's index sort-key template, as a table query does. Cheap to copy; refers to the
// Table, which must outlive it.
template <Backend B>
class IndexRef {
 public:
  // The index's name (TableIndex::name).
  // Throws: nothing.
  // Exception safety: nothrow.
  const std::string& name() const noexcept { return index_->name; }

  // Every item under the index partition key `pk` that matches, all pages read, as Table::query.
  // Throws: as Table::query; ValidationError also for a consistent read of a global index.
  // Exception safety: strong (a read changes nothing).
  template <class R>
  query_result_t<R> query(const PartitionKey& pk, const BasicQueryOptions<R>& options = {}) {
    query_result_t<R> result;
    table_->template run_query<R>(pk, options, result, /*all_pages=*/true, index_);
    return result;
  }

  // One page, as Table::query_page; its cursor holds the index key and the table key.
  // Throws: as query.
  // Exception safety: strong (a read changes nothing).
  template <class R>
  Page<query_result_t<R>> query_page(const PartitionKey& pk,
                                     const BasicQueryOptions<R>& options = {}) {
    Page<query_result_t<R>> page;
    page.next = table_->template run_query<R>(pk, options, page.items, /*all_pages=*/false, index_);
    return page;
  }

  // How many items query<R>(pk, options) would return, as Table::count counts a table query.
  // Throws: as Table::count.
  // Exception safety: strong (a read changes nothing).
  template <class R>
  std::size_t count(const PartitionKey& pk, const BasicQueryOptions<R>& options = {}) {
    return table_->template run_count<R>(pk, options, index_);
  }

  // The items of query<R>(pk, options) as a lazy range, as Table::each; it refers to the Table.
  // Throws: only std::bad_alloc; the iteration throws what query_page throws.
  // Exception safety: strong (nothing is read until the iteration starts).
  template <class R>
  Each<B, R> each(const PartitionKey& pk, const BasicQueryOptions<R>& options = {}) {
    return Each<B, R>(*table_, pk, options, index_);
  }

 private:
  friend class Table<B>;
  IndexRef(Table<B>& table, const TableIndex& index) : table_(&table), index_(&index) {}
  Table<B>* table_;
  const TableIndex* index_;  // in the Table's spec
};

}  // namespace pksk
