// SPDX-License-Identifier: BSL-1.0
#pragma once
// What pksk-inspect prints about a table: the report (items and bytes per type, the largest
// collections, their sizes against DynamoDB's guidance) and one collection's items.

#include <cstddef>
#include <iosfwd>
#include <string>

#include "location.hpp"

namespace pksk::inspect {

struct ReportOptions {
  std::size_t top = 10;     // the largest collections listed
  double warn_share = 0.5;  // of DynamoDB's 10 GB per collection
};

// DynamoDB's guidance on one item collection (a partition key's items): past 10,000 items or
// 1 GB a collection is worth watching, and 10 GB is the limit of one with a local index.
inline constexpr std::size_t collection_items_warning = 10'000;
inline constexpr std::size_t collection_bytes_warning = std::size_t{1} << 30;
inline constexpr std::size_t collection_bytes_limit = std::size_t{10} << 30;

void report(std::ostream& out, const Location& where, const ReportOptions& options);

// The items of the collection `pk` in sort-key order: a header and a line per item (sort key,
// type, size, body as plain JSON), or with `json` each whole item as a plain JSON line.
void list_collection(std::ostream& out, const Location& where, const backend::TableSpec& table,
                     const std::string& pk, bool json);

}  // namespace pksk::inspect
