// SPDX-License-Identifier: BSL-1.0
#pragma once
// Each<B, R>: a query's or a scan's items as a lazy input range (Table::each, Table::scan_each,
// IndexRef::each): a page is read when the iteration reaches it, and leaving the loop reads no
// more. It reads through its Table's page loop, which it reaches as the Table's friend.

#include <cstddef>
#include <iterator>
#include <optional>
#include <utility>
#include <variant>

#include "../config.hpp"
#include "../model/collection.hpp"
#include "fwd.hpp"
#include "query.hpp"
#include "read_plan.hpp"

namespace pksk {

// A lazy input range over a query's or a scan's items (Table::each, Table::scan_each).
template <Backend B, class R>
class Each {
  template <class C>
  struct ElementOf {
    using type = C;
  };
  template <class... Ts>
  struct ElementOf<ItemCollection<Ts...>> {
    using type = std::variant<Ts...>;
  };

 public:
  // What the range yields: T for an entity, the collection's std::variant for an ItemCollection.
  using element_type = typename ElementOf<R>::type;

  // The range's input iterator; compares equal to std::default_sentinel once the items are read. It
  // refers to the Each, which must outlive it.
  class iterator {
   public:
    // An input range: each item is read once.
    using iterator_concept = std::input_iterator_tag;
    // Each item, as element_type.
    using value_type = element_type;
    // As std::input_iterator requires.
    using difference_type = std::ptrdiff_t;

    iterator() = default;
    // The current item, valid until the iterator is advanced.
    // Throws: nothing.
    // Exception safety: nothrow.
    const element_type& operator*() const { return owner_->current(); }
    // The current item's address, valid until the iterator is advanced.
    // Throws: nothing.
    // Exception safety: nothrow.
    const element_type* operator->() const { return &owner_->current(); }
    // The next item, reading the next page when this one is done.
    // Throws: what Table::query_page (scan_page for a scan) throws, when it reads a page.
    // Exception safety: basic: the range is left valid but its current page may be partly read;
    // iterate no further, and start a new each() to read on.
    iterator& operator++() {
      owner_->advance();
      return *this;
    }
    // As ++it (an input iterator's post-increment returns nothing).
    // Throws: as ++it.
    // Exception safety: basic, as ++it.
    void operator++(int) { owner_->advance(); }
    friend bool operator==(const iterator& it, std::default_sentinel_t) noexcept {
      return it.owner_ == nullptr || it.owner_->done();
    }

   private:
    friend class Each;
    explicit iterator(Each* owner) : owner_(owner) {}
    Each* owner_ = nullptr;
  };

  // What Table::each, scan_each and IndexRef::each make: `pk` empty for a scan, `index` null for
  // the table. Reads nothing until begin().
  // Throws: only std::bad_alloc (copying the options).
  // Exception safety: strong.
  Each(Table<B>& table, std::optional<PartitionKey> pk, const BasicQueryOptions<R>& options,
       const TableIndex* index = nullptr)
      : table_(&table), pk_(std::move(pk)), options_(options), index_(index) {}
  Each(const Each&) = delete;
  Each& operator=(const Each&) = delete;
  // Moves the range and where it stands.
  // Throws: nothing.
  // Exception safety: nothrow.
  Each(Each&&) noexcept = default;
  // Moves the range and where it stands.
  // Throws: nothing.
  // Exception safety: nothrow.
  Each& operator=(Each&&) noexcept = default;

  // Reads the first page (once); an iteration begun again goes on where the last one stopped.
  // Throws: what Table::query_page (scan_page) throws, on the first call.
  // Exception safety: basic, as ++it.
  iterator begin() {
    if (!started_) {
      started_ = true;
      fetch();
    }
    return iterator(this);
  }
  // The end: an iterator equals it once every item is read.
  // Throws: nothing.
  // Exception safety: nothrow.
  std::default_sentinel_t end() const noexcept { return {}; }
  // Whether every item has been read.
  // Throws: nothing.
  // Exception safety: nothrow.
  bool done() const noexcept { return done_; }

 private:
  // The typed items of the page; a collection's unknown ones are not iterated.
  std::size_t page_size() const noexcept { return page_.size(); }

  const element_type& current() const {
    return *(page_.begin() + static_cast<std::ptrdiff_t>(at_));
  }

  // Reads pages until one holds an item or none is left.
  void fetch() {
    for (;;) {
      page_.clear();
      at_ = 0;
      std::optional<Cursor> next =
          pk_ ? table_->template run_query<R>(*pk_, options_, page_, /*all_pages=*/false, index_)
              : table_->template run_scan<R>(options_, page_, /*all_pages=*/false);
      options_.start = std::move(next);
      if (page_size() != 0) return;
      if (!options_.start) {
        done_ = true;
        return;
      }
    }
  }

  void advance() {
    if (++at_ < page_size()) return;
    if (!options_.start) {
      done_ = true;
      return;
    }
    fetch();
  }

  Table<B>* table_;
  std::optional<PartitionKey> pk_;  // none: a scan
  BasicQueryOptions<R> options_;
  const TableIndex* index_;  // a query of this index; nullptr: of the table
  query_result_t<R> page_;
  std::size_t at_ = 0;
  bool started_ = false;
  bool done_ = false;
};

}  // namespace pksk
