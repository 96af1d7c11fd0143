// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of access_counts.hpp that are not templates: inline through it in
// header-only mode, compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <algorithm>
#include <tuple>

#include "../access_counts.hpp"

namespace pksk::detail {

PKSK_DECL std::vector<HotKey> AccessCounters::top(std::size_t n) {
  std::vector<HotKey> all;
  for (Shard& shard : shards_) {
    const std::lock_guard lock(shard.mutex);
    for (const auto& [pk, c] : shard.counts) all.push_back({pk, c.reads, c.writes});
    for (const auto& [key, c] : shard.index_counts) {
      const std::size_t end = key.find('\0');
      all.push_back({key.substr(end + 1), c.reads, c.writes, key.substr(0, end)});
    }
  }
  const auto hotter = [](const HotKey& a, const HotKey& b) {
    return std::tuple(b.reads + b.writes, a.pk, a.index) <
           std::tuple(a.reads + a.writes, b.pk, b.index);
  };
  const std::size_t kept = std::min(n, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(kept), all.end(),
                    hotter);
  all.resize(kept);
  return all;
}

PKSK_DECL void AccessCounters::reset() {
  for (Shard& shard : shards_) {
    const std::lock_guard lock(shard.mutex);
    shard.counts.clear();
    shard.index_counts.clear();
  }
}

}  // namespace pksk::detail
