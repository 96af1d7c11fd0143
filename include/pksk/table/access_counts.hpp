// SPDX-License-Identifier: BSL-1.0
#pragma once
// Reads and writes per partition key, counted by a Table whose TableOptions::count_access is
// set, to find hot keys (DynamoDB throttles a partition past 3,000 reads or 1,000 writes a
// second, whatever the table's capacity):
//
//   pksk::Table table{backend, "shop", {.count_access = true}};
//   for (const pksk::HotKey& k : pksk::maintenance(table).hot_keys(5)) std::cout << k.pk << ' ' << k.reads;
//
// A get, and each item of a batch or transactional get, is a read of its partition; each page
// of a query is one, of the table's partition or, for a query of a secondary index, of the
// index's (HotKey::index names it: an index's partitions are throttled on their own); each page
// of a scan (Table::scan, scan_page, scan_each) is one read of every partition it holds items
// of; a put, update or erase, alone, in a batch or in a transaction, is a write. Table::stats()
// is not counted, and neither are the index entries a write updates. The counters are sharded
// by a hash of the key, each shard behind its own mutex, so that threads meet only when their
// keys share a shard; off (the default), a counted operation costs one test of a null pointer.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "../detail/config.hpp"

namespace pksk {

// A partition key and how often it was read and written (Maintenance::hot_keys).
struct HotKey {
  // The partition key.
  std::string pk{};
  // Reads counted against it since counting began (what counts: this header's description).
  std::uint64_t reads = 0;
  // Writes counted against it since counting began.
  std::uint64_t writes = 0;
  std::string index{};  // empty: a partition of the table; else of this secondary index
  friend bool operator==(const HotKey&, const HotKey&) = default;
};

namespace detail {

class AccessCounters {
 public:
  void count(std::string_view pk, bool write) {
    Shard& shard = shards_[std::hash<std::string_view>{}(pk) % shard_count];
    const std::lock_guard lock(shard.mutex);
    auto it = shard.counts.find(pk);
    if (it == shard.counts.end()) it = shard.counts.emplace(std::string(pk), Counts{}).first;
    ++(write ? it->second.writes : it->second.reads);
  }
  // A read of partition `pk` of the secondary index `index`.
  void count_index_read(std::string_view index, std::string_view pk) {
    // Index names hold no NUL (DynamoDB allows letters, digits, '_', '-' and '.'), so the first
    // one ends the name.
    // Reused, so that only the first count of a key allocates (the map's copy of it).
    thread_local std::string key;
    key.assign(index).push_back('\0');
    key.append(pk);
    Shard& shard = shards_[std::hash<std::string_view>{}(key) % shard_count];
    const std::lock_guard lock(shard.mutex);
    auto it = shard.index_counts.find(std::string_view(key));
    if (it == shard.index_counts.end()) it = shard.index_counts.emplace(key, Counts{}).first;
    ++it->second.reads;
  }
  // The n keys with the most accesses (reads plus writes), most first, then by key.
  PKSK_DECL std::vector<HotKey> top(std::size_t n);
  PKSK_DECL void reset();

 private:
  struct Counts {
    std::uint64_t reads = 0;
    std::uint64_t writes = 0;
  };
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept {
      return std::hash<std::string_view>{}(s);
    }
  };
  struct alignas(64) Shard {
    std::mutex mutex;
    std::unordered_map<std::string, Counts, Hash, std::equal_to<>> counts;
    std::unordered_map<std::string, Counts, Hash, std::equal_to<>> index_counts;  // "index\0pk"
  };
  static constexpr std::size_t shard_count = 64;
  std::array<Shard, shard_count> shards_;
};

}  // namespace detail
}  // namespace pksk

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/access_counts.ipp"
#endif
