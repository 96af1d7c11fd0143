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
  double warn_share = 0.5;  // of DynamoDB's 10 GB per collection (pksk::StatsOptions)
};

void report(std::ostream& out, const Location& where, const ReportOptions& options);

// The items of the collection `pk` in sort-key order: a header and a line per item (sort key,
// type, size, body as plain JSON), or with `json` each whole item as a plain JSON line.
void list_collection(std::ostream& out, const Location& where, const backend::TableSpec& table,
                     const std::string& pk, bool json);

}  // namespace pksk::inspect
