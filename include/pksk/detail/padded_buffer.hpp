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
  // SIMDJSON_PADDING bytes after it belong to the buffer and are zero.
  std::string_view assign(std::string_view text) {
    if (text.size() > capacity_ || !data_) grow(text.size());
    if (!text.empty()) std::memcpy(data_.get(), text.data(), text.size());
    // Zeroed padding: a truncated document then ends in NULs, never in a previous body's bytes.
    std::memset(data_.get() + text.size(), 0, simdjson::SIMDJSON_PADDING);
    return {data_.get(), text.size()};
  }

  // Usable bytes, not counting the padding.
  std::size_t capacity() const noexcept { return capacity_; }
  std::size_t padded_capacity() const noexcept { return capacity_ + simdjson::SIMDJSON_PADDING; }

 private:
  void grow(std::size_t needed) {
    std::size_t next = capacity_ < 256 ? 256 : capacity_;
    while (next < needed) next *= 2;
    // No value-initialisation: every byte that simdjson reads is written by assign().
    data_ = std::make_unique_for_overwrite<char[]>(next + simdjson::SIMDJSON_PADDING);
    capacity_ = next;
  }

  std::unique_ptr<char[]> data_;
  std::size_t capacity_ = 0;
};

}  // namespace pksk::detail
