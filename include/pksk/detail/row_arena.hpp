// SPDX-License-Identifier: BSL-1.0
#pragma once
// A page of rows copied out of a store before any of them is decoded. Stepping a statement and
// decoding a body each need more code than a core's instruction cache holds beside the other:
// done row by row, each evicts the other, and a query paid for that in instruction-cache misses
// on every row (pksk's decoder is larger than a hand-written one, so more than hand-written
// code did). A backend that reads a page in two passes (step and copy, then hand each row
// over) keeps each pass's code in the cache. The copy is the one a decoder makes anyway, into
// simdjson's padded buffer (padded_buffer.hpp): a body in the arena is parsed where it lies.
//
// One arena per thread, leased by one page read at a time: a read that starts while the
// thread's arena is in use (a visitor that reads the store again) hands its rows over as it
// steps, as before.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include <simdjson.h>

namespace pksk::detail {

class RowArena {
 public:
  // One row's texts: views of the arena, valid until the next lease of it.
  struct Row {
    std::string_view type, sort_key, body;
    std::size_t size;
  };

  // Copies a row in: each text followed by a space (see PaddedBuffer::assign for why a space).
  void add(std::string_view type, std::string_view sort_key, std::string_view body,
           std::size_t size) {
    const std::size_t end = used_ + type.size() + sort_key.size() + body.size() + 3;
    if (end > capacity_) grow(end);
    const std::size_t type_at = used_;
    const std::size_t sort_key_at = append(type_at, type);
    const std::size_t body_at = append(sort_key_at, sort_key);
    used_ = append(body_at, body);
    rows_.push_back(
        {type_at, type.size(), sort_key_at, sort_key.size(), body_at, body.size(), size});
  }
  std::size_t size() const noexcept { return rows_.size(); }
  // The i-th row added, once the last is: views taken before an add may dangle after it.
  Row operator[](std::size_t i) const noexcept {
    const Offsets& r = rows_[i];
    const char* base = data_.get();
    return {{base + r.type_at, r.type_size},
            {base + r.sort_key_at, r.sort_key_size},
            {base + r.body_at, r.body_size},
            r.size};
  }
  // Whether `text` lies in the arena, and so is followed by a space and simdjson's padding.
  bool holds(std::string_view text) const noexcept {
    // As addresses: a view elsewhere is no element of the arena's array to compare with.
    const auto begin = reinterpret_cast<std::uintptr_t>(data_.get());
    const auto at = reinterpret_cast<std::uintptr_t>(text.data());
    return begin != 0 && at >= begin && at - begin + text.size() < used_;
  }
  void clear() noexcept {
    used_ = 0;
    rows_.clear();
  }

  // The calling thread's arena, if no read holds it; released by the lease's destructor.
  class Lease {
   public:
    Lease() noexcept : arena_(thread_arena().busy_ ? nullptr : &thread_arena()) {
      if (arena_ != nullptr) {
        arena_->busy_ = true;
        arena_->clear();
      }
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() {
      if (arena_ != nullptr) arena_->busy_ = false;
    }
    RowArena* get() const noexcept { return arena_; }

   private:
    RowArena* arena_;
  };

  static RowArena& thread_arena() noexcept {
    thread_local RowArena arena;
    return arena;
  }

 private:
  struct Offsets {
    std::size_t type_at, type_size, sort_key_at, sort_key_size, body_at, body_size, size;
  };

  // Copies text to `at`, a space after it; returns where the next text goes.
  std::size_t append(std::size_t at, std::string_view text) noexcept {
    if (!text.empty()) std::memcpy(data_.get() + at, text.data(), text.size());
    data_[at + text.size()] = ' ';
    return at + text.size() + 1;
  }

  // 64 KB to start: a typical page of a collection (a hundred items of a few hundred bytes)
  // fits, and the arena then only grows to the largest page the thread has read (a page stops
  // at its byte budget, DynamoDB's 1 MB by default, with the item that crossed it). Handing a
  // page over in slices of 16 to 64 rows, to keep the arena small, was measured slower than
  // whole pages: 0.98x the floor's time against 0.95x at 10M items.
  static constexpr std::size_t initial_capacity = 64 * 1024;

  void grow(std::size_t needed) {
    std::size_t next = capacity_ < initial_capacity ? initial_capacity : capacity_;
    while (next < needed) next *= 2;
    // Zeroed, as PaddedBuffer's, so that the padding simdjson reads is initialised memory.
    auto bigger = std::make_unique<char[]>(next + simdjson::SIMDJSON_PADDING);
    if (used_ != 0) std::memcpy(bigger.get(), data_.get(), used_);
    data_ = std::move(bigger);
    capacity_ = next;
  }

  std::unique_ptr<char[]> data_;
  std::size_t used_ = 0;
  std::size_t capacity_ = 0;
  std::vector<Offsets> rows_;
  bool busy_ = false;
};

}  // namespace pksk::detail
