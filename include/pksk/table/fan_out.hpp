// SPDX-License-Identifier: BSL-1.0
#pragma once
// Fan-out reads (Table::query_buckets, Table::query_shards): one entity's items spread over
// several partitions by a format spec in its partition-key template, a time bucket
// ("DEVICE#{device}#{at:month}") or a shard ("PRODUCT#{sku}#{order:shard(8)}"), read as one
// query. Each partition is read lazily, a page at a time (Each), and their items are merged in
// sort-key order by a k-way merge: only what the merge reaches is read, and a limit stops the
// reading of every partition. The spread member must be in the sort-key template too, so that
// two partitions never hold the same sort key and the merge order is the order of the keys.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <deque>
#include <optional>
#include <queue>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../detail/diagnose.hpp"
#include "../detail/worker_pool.hpp"
#include "../key/key.hpp"
#include "each.hpp"
#include "fwd.hpp"
#include "query.hpp"

namespace pksk {

namespace diagnostics {
// query_buckets<T> of an entity whose partition-key template has no time bucket
// ({member:year|month|day|hour}), or more than one.
template <class Entity, detail::fixed_string PartitionKey>
struct query_buckets_needs_one_time_bucket_in_the_partition_key;
// query_shards<T> of an entity whose partition-key template has no {member:shard(N)}, or more
// than one.
template <class Entity, detail::fixed_string PartitionKey>
struct query_shards_needs_one_shard_in_the_partition_key;
// The bucketed or sharded member must be a field of the sort-key template too: else two
// partitions could hold one sort key, and the merge could not order them.
template <class Entity, detail::fixed_string SortKey, detail::fixed_string Member>
struct fan_out_member_must_be_a_field_of_the_sort_key;
}  // namespace diagnostics

namespace detail {

// The one field of T's partition-key template with a time bucket (Bucket) or a shard spec.
template <EntityType T, bool Bucket>
struct FanOutField {
  static constexpr auto& segments = partition_key_template<T>::segments;
  static constexpr bool wanted(const CompiledSegment& s) noexcept {
    return s.kind == SegmentKind::field &&
           (Bucket ? is_time_bucket(s.spec.spec) : s.spec.spec == KeySpec::shard);
  }
  static constexpr std::size_t count = [] {
    std::size_t n = 0;
    for (const auto& s : segments) n += wanted(s) ? 1 : 0;
    return n;
  }();
  static constexpr CompiledSegment segment = [] {
    for (const auto& s : segments) {
      if (wanted(s)) return s;
    }
    return CompiledSegment{};
  }();
  static constexpr bool in_sort_key = [] {
    for (const auto& s : sort_key_template<T>::segments) {
      if (s.kind == SegmentKind::field && s.field == segment.field) return true;
    }
    return false;
  }();
  template <bool One, class Unused = void>
  struct InSortKey {
    static constexpr bool ok = true;  // the count is reported, not this
  };
  template <class Unused>
  struct InSortKey<true, Unused> {
    static constexpr bool ok =
        diagnose_v<in_sort_key, diagnostics::fan_out_member_must_be_a_field_of_the_sort_key<
                                    T, sk_text_v<T>, field_name_text_v<T, segment.field>>>;
  };
  static constexpr bool ok =
      diagnose_v<
          count == 1,
          std::conditional_t<
              Bucket,
              diagnostics::query_buckets_needs_one_time_bucket_in_the_partition_key<T,
                                                                                    pk_text_v<T>>,
              diagnostics::query_shards_needs_one_shard_in_the_partition_key<T, pk_text_v<T>>>> &&
      InSortKey<count == 1>::ok;
};

// The number of buckets of `unit` from the one holding `from` to the one holding `to`
// (from <= to), worked out without listing them: the bound on a read's partitions is checked
// before a range of centuries is laid out in memory.
PKSK_DECL std::size_t bucket_count(KeySpec unit, std::chrono::system_clock::time_point from,
                                   std::chrono::system_clock::time_point to);

// The start of each bucket of `unit` from the one holding `from` to the one holding `to`.
PKSK_DECL std::vector<std::chrono::system_clock::time_point> bucket_starts(
    KeySpec unit, std::chrono::system_clock::time_point from,
    std::chrono::system_clock::time_point to);

// ValidationError: `call` (query_buckets or query_buckets_page) of `type` with `from` after
// `to`, as a between with its bounds reversed is one.
[[noreturn]] PKSK_DECL void throw_buckets_reversed(std::string_view table, std::string_view call,
                                                   std::string_view type,
                                                   std::chrono::system_clock::time_point from,
                                                   std::chrono::system_clock::time_point to);

// ValidationError unless `partitions`, those `call` of `type` would read, are within
// options.max_partitions (0: no bound).
PKSK_DECL void check_partition_count(std::string_view table, std::string_view call,
                                     std::string_view type, std::size_t partitions,
                                     std::size_t max_partitions);

// The partition key of `proto` in shard `shard`: its template formatted with that number for
// the shard field, as a key of an item of that shard has it.
template <EntityType T>
PartitionKey shard_partition_key(const T& proto, unsigned shard) {
  using Template = partition_key_template<T>;
  PartitionKey key;
  const auto append = [&]<std::size_t I>(std::integral_constant<std::size_t, I>) {
    constexpr CompiledSegment s = Template::segments[I];
    if constexpr (s.kind == SegmentKind::literal) {
      Template::template append_literal<I>(key.value);
    } else if constexpr (s.spec.spec == KeySpec::shard) {
      key.value += std::to_string(shard);
    } else {
      Template::template append_field<I>(key.value, get_field<s.field>(proto));
    }
  };
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (append(std::integral_constant<std::size_t, I>{}), ...);
  }(std::make_index_sequence<Template::segments.size()>{});
  return key;
}

// What a fan-out page's cursor names instead of a partition: the fan-out of T's partition-key
// template, so that a cursor of one fan-out read resumes no other read.
template <EntityType T>
std::string fan_out_cursor_pk() {
  return "fan-out " + std::string(std::string_view(pk_text_v<T>));
}

// Merges the items of the partitions `pks` in sort-key order (reversed when !options.forward),
// up to options.limit items (0: all); `keep` drops an item from the result. `partition_options`
// gives each partition's read its options (the caller's, resumed after a page's last key).
// Returns the items and, when the limit stopped the merge before the end, the sort key of the
// last item it consumed (kept or not), from which a next page resumes.
//
// The merge needs every partition's first item before it can take one, so the first pages are
// read `width` at a time on `pool`; the same pages are read either way, so the result does not
// depend on the width. A later page is read when the merge reaches the end of the one before,
// on the calling thread: by then the merge needs that partition's next item and no other.
template <Backend B, EntityType T, class Keep, class PartitionOptions>
std::pair<std::vector<T>, std::optional<std::string>> merge_partitions(
    Table<B>& table, const std::vector<PartitionKey>& pks, const BasicQueryOptions<T>& options,
    Keep&& keep, PartitionOptions&& partition_options, WorkerPool& pool, std::size_t width) {
  std::deque<Each<B, T>> ranges;  // a deque: iterators keep pointing at their range
  for (const PartitionKey& pk : pks) ranges.push_back(table.each(pk, partition_options(pk)));
  std::vector<typename Each<B, T>::iterator> at(ranges.size());
  pool.run(ranges.size(), width, [&](std::size_t i) { at[i] = ranges[i].begin(); });
  struct Head {
    std::string sk;
    std::size_t range;
  };
  const bool forward = options.forward;
  const auto after = [forward](const Head& a, const Head& b) {
    // The heap's top is the head the merge takes next: the least key forwards, else the most.
    if (a.sk != b.sk) return forward ? a.sk > b.sk : a.sk < b.sk;
    return a.range > b.range;
  };
  std::priority_queue<Head, std::vector<Head>, decltype(after)> heads(after);
  for (std::size_t i = 0; i < at.size(); ++i) {
    if (at[i] != std::default_sentinel) heads.push({sort_key(*at[i]), i});
  }
  std::vector<T> out;
  std::string last;
  while (!heads.empty() && (options.limit == 0 || out.size() < options.limit)) {
    const std::size_t i = heads.top().range;
    last = heads.top().sk;
    heads.pop();
    if (keep(*at[i])) out.push_back(*at[i]);
    ++at[i];
    if (at[i] != std::default_sentinel) heads.push({sort_key(*at[i]), i});
  }
  std::optional<std::string> resume;
  if (!heads.empty()) resume = std::move(last);
  return {std::move(out), std::move(resume)};
}

}  // namespace detail
}  // namespace pksk

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/fan_out.ipp"
#endif
