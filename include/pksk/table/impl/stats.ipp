// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of stats.hpp that are not templates: inline through it in header-only mode,
// compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <algorithm>
#include <cmath>
#include <utility>

#include "../../codec/attribute_value.hpp"
#include "../../codec/attribute_value_read.hpp"
#include "../../codec/parsed_item.hpp"
#include "../stats.hpp"

namespace pksk::detail {

PKSK_DECL void StatsTally::merge(StatsTally&& other) {
  if (collections_.empty() && sizes_.empty()) {
    *this = std::move(other);
    return;
  }
  own_.items += other.own_.items;
  own_.bytes += other.own_.bytes;
  for (auto& [pk, counts] : other.collections_) {
    Counts& c = collections_[pk];
    c.items += counts.items;
    c.bytes += counts.bytes;
  }
  for (auto& [type, sizes] : other.sizes_) {
    std::vector<std::uint32_t>& mine = sizes_[type];
    mine.insert(mine.end(), sizes.begin(), sizes.end());
  }
}

PKSK_DECL TableStats StatsTally::finish(const StatsOptions& options) && {
  TableStats stats;
  stats.collections = collections_.size();
  stats.own_items = own_.items;
  stats.own_bytes = own_.bytes;
  for (auto& [type, sizes] : sizes_) {
    std::sort(sizes.begin(), sizes.end());
    TypeStats t{.type = type, .items = sizes.size()};
    for (const std::uint32_t s : sizes) t.bytes += s;
    const auto rank = [&](double p) {
      const auto r = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sizes.size())));
      return sizes[std::clamp<std::size_t>(r, 1, sizes.size()) - 1];
    };
    t.min_bytes = sizes.front();
    t.median_bytes = rank(0.5);
    t.p99_bytes = rank(0.99);
    t.max_bytes = sizes.back();
    stats.items += t.items;
    stats.bytes += t.bytes;
    stats.types.push_back(std::move(t));
  }
  std::vector<CollectionStats> all;
  all.reserve(collections_.size());
  for (auto& [pk, counts] : collections_) all.push_back({pk, counts.items, counts.bytes});
  const auto bigger = [](const CollectionStats& a, const CollectionStats& b) {
    if (a.bytes != b.bytes) return a.bytes > b.bytes;
    if (a.items != b.items) return a.items > b.items;
    return a.pk < b.pk;
  };
  std::sort(all.begin(), all.end(), bigger);
  const auto share_limit =
      static_cast<std::size_t>(options.warn_share * static_cast<double>(collection_bytes_limit));
  for (const CollectionStats& c : all) {
    const CollectionWarning w{c, c.items >= collection_items_warning,
                              c.bytes >= collection_bytes_warning, c.bytes >= share_limit};
    if (w.many_items || w.large || w.near_limit) stats.warnings.push_back(w);
  }
  all.resize(std::min(options.largest, all.size()));
  stats.largest = std::move(all);
  return stats;
}

PKSK_DECL std::size_t row_size(const backend::ItemView& row, BodyFormat format,
                               const backend::TableSpec& spec) {
  if (row.size != 0) return row.size;
  const AttributeValue body = parse_body(item_text(row.live, row.body), format);
  std::size_t size = 0;
  bool has_pk = false, has_sk = false, has_type = false;
  for (const auto& [name, value] : body.map) {
    has_pk = has_pk || name == spec.pk_attribute;
    has_sk = has_sk || name == spec.sk_attribute;
    has_type = has_type || name == spec.type_attribute;
    size += name.size() + attribute_size(value);
  }
  // A backend may hand the keys over inside the body (a DynamoDB answer's item) or beside it.
  if (!has_pk) size += spec.pk_attribute.size() + row.partition_key().size();
  if (!has_sk) size += spec.sk_attribute.size() + row.sort_key().size();
  if (!has_type && !row.type.empty()) size += spec.type_attribute.size() + row.type.size();
  return size;
}

}  // namespace pksk::detail
