// SPDX-License-Identifier: BSL-1.0
#pragma once
// A reusable input buffer with simdjson's padding. simdjson reads up to SIMDJSON_PADDING bytes
// past the end of its input, and a std::string_view from a database row gives no such
// guarantee; copying into one buffer that only grows keeps the hot read path allocation-free
// once the largest body has been seen.

#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>

#include <simdjson.h>

namespace pksk::detail {

class PaddedBuffer {
 public:
  // Copies text in (growing only when it does not fit) and returns a view of the copy; the
  // SIMDJSON_PADDING bytes after it belong to the buffer. simdjson never interprets bytes past
  // the length it is given, but it does look at the first one (see below).
  std::string_view assign(std::string_view text) {
    if (text.size() > capacity_ || !data_) grow(text.size());
    if (!text.empty()) std::memcpy(data_.get(), text.data(), text.size());
    // On-Demand scans the whole document for balance when the first byte after it is '}'
    // (github.com/simdjson/simdjson/issues/1834), and a reused buffer often holds a '}' of an
    // earlier, longer item there: a space makes that check a single comparison.
    data_[text.size()] = ' ';
    return {data_.get(), text.size()};
  }

  // Usable bytes, not counting the padding.
  std::size_t capacity() const noexcept { return capacity_; }
  std::size_t padded_capacity() const noexcept { return capacity_ + simdjson::SIMDJSON_PADDING; }

 private:
  // Starts at 4 KB, DynamoDB's read unit: most items fit, so a decoder usually allocates once
  // in its life instead of once per new largest item while a query warms up.
  static constexpr std::size_t initial_capacity = 4096;

  void grow(std::size_t needed) {
    std::size_t next = capacity_ < initial_capacity ? initial_capacity : capacity_;
    while (next < needed) next *= 2;
    // Zeroed once here, so that the padding simdjson reads is initialised memory (valgrind,
    // MSan) without a memset per document.
    data_ = std::make_unique<char[]>(next + simdjson::SIMDJSON_PADDING);
    capacity_ = next;
  }

  std::unique_ptr<char[]> data_;
  std::size_t capacity_ = 0;
};

}  // namespace pksk::detail
