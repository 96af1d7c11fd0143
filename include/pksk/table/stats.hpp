// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a table holds, per item collection (partition key) and per entity type, measured as
// DynamoDB measures items (codec/item_size.hpp), and the collections past DynamoDB's guidance:
//
//   pksk::TableStats stats = table.stats();
//   for (const pksk::CollectionStats& c : stats.largest) std::cout << c.pk << ' ' << c.bytes;
//
// Computed by a scan of the whole table in parallel segments, one thread each: on SQLite from
// the file (each row's stored size, no body parsed), on DynamoDB from its answers (each item
// measured as it comes, so a scan's read capacity is spent: a full table's worth).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "../backend/backend.hpp"
#include "../codec/body_format.hpp"
#include "../detail/config.hpp"
#include "../key/unique.hpp"
#include "access_counts.hpp"
#include "detail/chunks.hpp"

namespace pksk {

// DynamoDB's guidance on one item collection: past 10,000 items or 1 GB it is worth watching,
// and 10 GB is the limit of one with a local secondary index.
inline constexpr std::size_t collection_items_warning = 10'000;
// 1 GB: a collection this large is worth watching.
inline constexpr std::size_t collection_bytes_warning = std::size_t{1} << 30;
// 10 GB: the most one collection may hold on a table with a local secondary index.
inline constexpr std::size_t collection_bytes_limit = std::size_t{10} << 30;

// One item collection (partition key): its items and their bytes by DynamoDB's measure.
struct CollectionStats {
  // The partition key.
  std::string pk{};
  // How many items it holds.
  std::size_t items = 0;
  // Their size in all, by DynamoDB's measure (codec/item_size.hpp).
  std::size_t bytes = 0;
  friend bool operator==(const CollectionStats&, const CollectionStats&) = default;
};

// The items of one entity type (the type attribute's value; empty for items without one), and
// their sizes' spread (nearest-rank percentiles).
struct TypeStats {
  // The type attribute's value.
  std::string type{};
  // How many items of the type.
  std::size_t items = 0;
  // Their size in all, by DynamoDB's measure.
  std::size_t bytes = 0;
  // The smallest item's size.
  std::size_t min_bytes = 0;
  // The median item's size.
  std::size_t median_bytes = 0;
  // The 99th percentile's size.
  std::size_t p99_bytes = 0;
  // The largest item's size.
  std::size_t max_bytes = 0;
  friend bool operator==(const TypeStats&, const TypeStats&) = default;
};

// A collection past DynamoDB's guidance, and which of it.
struct CollectionWarning {
  // The collection warned about.
  CollectionStats collection{};
  bool many_items = false;  // collection_items_warning items or more
  bool large = false;       // collection_bytes_warning bytes or more
  bool near_limit = false;  // StatsOptions::warn_share of collection_bytes_limit or more
};

// How far Maintenance::stats has read, for StatsOptions::progress.
struct StatsProgress {
  std::size_t items = 0;          // read so far, every segment together
  std::size_t segments_done = 0;  // of `segments`
  // How many segments the scan reads in all.
  std::size_t segments = 0;
};

// What Maintenance::stats lists and how it reads the table.
struct StatsOptions {
  std::size_t largest = 10;  // the collections listed in TableStats::largest
  double warn_share = 0.5;   // of DynamoDB's 10 GB per collection, for near_limit
  // A parallel scan's segments, each read by a thread of its own. 0: 4 on DynamoDB, 1 on
  // SQLite (whose segments each walk the whole file, skipping the others' rows).
  std::size_t segments = 0;
  // Called after each page read, from the segments' threads one at a time.
  std::function<void(const StatsProgress&)> progress{};
};

// What Maintenance::stats found: totals, per type, the largest collections and warnings.
struct TableStats {
  // Every item of the table, of any type.
  std::size_t items = 0;
  // Their size in all, by DynamoDB's measure.
  std::size_t bytes = 0;
  // How many partition keys hold an item of the table's entities (pksk's own partitions, below,
  // are no collection: they are not in `collections`, `largest` or `warnings`).
  std::size_t collections = 0;
  std::vector<TypeStats> types{};          // by type name
  std::vector<CollectionStats> largest{};  // by bytes, then items, then pk
  // The collections past DynamoDB's guidance, largest first.
  std::vector<CollectionWarning> warnings{};
  // With TableOptions::count_access, the `largest` keys most accessed (Maintenance::hot_keys).
  std::vector<HotKey> hot_keys{};  // every collection judged, in the same order
  // pksk's own items, each in a partition of its own kind: the chunks of chunked items and the
  // guards of unique members. They count in `items`, `bytes` and `types` too.
  std::size_t own_items = 0;
  // Their size in all, by DynamoDB's measure.
  std::size_t own_bytes = 0;
};

namespace detail {

// Which of pksk's own items an item is, in a partition no entity's key makes: a chunk of a
// chunked item, or a unique member's guard; none for the user's items. Chunks beside their
// parent are in its collection: none.
enum class OwnItem { none, chunk, guard };
inline OwnItem own_item_kind(std::string_view pk, std::string_view type) noexcept {
  const auto in_own_partition = [&](std::string_view own_type) {
    return type == own_type && pk.size() > own_type.size() && pk.starts_with(own_type) &&
           pk[own_type.size()] == '#';
  };
  if (in_own_partition(chunk_type)) return OwnItem::chunk;
  if (in_own_partition(unique_guard_type)) return OwnItem::guard;
  return OwnItem::none;
}

// The counts of some of a table's items, to merge with others' (one per scan segment).
class StatsTally {
 public:
  void add(std::string_view pk, std::string_view type, std::size_t bytes) {
    sizes_[std::string(type)].push_back(static_cast<std::uint32_t>(bytes));
    if (own_item_kind(pk, type) != OwnItem::none) {
      ++own_.items;
      own_.bytes += bytes;
      return;
    }
    Counts& c = collections_[std::string(pk)];
    ++c.items;
    c.bytes += bytes;
  }
  PKSK_DECL void merge(StatsTally&& other);
  PKSK_DECL TableStats finish(const StatsOptions& options) &&;

 private:
  struct Counts {
    std::size_t items = 0;
    std::size_t bytes = 0;
  };
  std::unordered_map<std::string, Counts> collections_;
  std::map<std::string, std::vector<std::uint32_t>> sizes_;  // per type
  Counts own_;                                               // own_item_kind's
};

// An item's size by DynamoDB's measure: the one its backend stored with it (SQLite), else
// measured on its attributes, keys and type included (DynamoDB's answers carry none).
PKSK_DECL std::size_t row_size(const backend::ItemView& row, BodyFormat format,
                               const backend::TableSpec& spec);

// One segment of a stats scan, page by page; after_page(items of the page) after each.
template <class B, class AfterPage>
void scan_stats_segment(B& backend, typename B::TableHandle& handle, const backend::TableSpec& spec,
                        BodyFormat format, std::size_t segment, std::size_t segments,
                        StatsTally& tally, AfterPage&& after_page) {
  backend::RawScan scan{.segment = segment, .segments = segments};
  std::string last_pk, last_sk;
  for (;;) {
    std::size_t items = 0;
    const backend::ScanOutcome page = backend.scan(handle, scan, [&](const backend::ItemView& row) {
      tally.add(row.partition_key(), row.type, row_size(row, format, spec));
      ++items;
    });
    after_page(items);
    if (!page.last_evaluated_pk) break;
    last_pk = *page.last_evaluated_pk;
    last_sk = *page.last_evaluated_sk;
    scan.exclusive_start = backend::ItemKey{last_pk, last_sk};
  }
}

}  // namespace detail
}  // namespace pksk

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/stats.ipp"
#endif
