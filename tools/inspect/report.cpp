// SPDX-License-Identifier: BSL-1.0
#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>
#include <unordered_map>
#include <vector>

#include <pksk/codec/attribute_value_json.hpp>

#include "items.hpp"

namespace pksk::inspect {

namespace {

struct Tally {
  std::size_t items = 0;
  std::size_t bytes = 0;
};

// 1536 -> "1.5 KiB": for people; the exact figures stand beside it.
std::string human(std::size_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  std::ostringstream s;
  if (unit == 0) {
    s << bytes << " B";
  } else {
    s << std::fixed << std::setprecision(1) << value << ' ' << units[unit];
  }
  return s.str();
}

// The nearest-rank percentile of sorted values.
std::size_t percentile(const std::vector<std::uint32_t>& sorted, double p) {
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

std::string shown_type(const std::string& type) {
  return type.empty() ? "(none)" : type;
}

void report_table(std::ostream& out, const Location& where, const backend::TableSpec& table,
                  const ReportOptions& options) {
  const auto handle = where.backend.open_table(table);
  const BodyFormat format = where.backend.body_format(handle);
  std::map<std::string, std::vector<std::uint32_t>> sizes;  // per type, in name order
  std::unordered_map<std::string, Tally> collections;
  Tally total;
  std::string last_pk, last_sk;
  backend::RawScan scan;
  for (;;) {
    const backend::ScanOutcome page =
        where.backend.scan(handle, scan, [&](const backend::ItemView& row) {
          const std::size_t size = item_size(row, format, table);
          sizes[std::string(row.type)].push_back(static_cast<std::uint32_t>(size));
          Tally& c = collections[std::string(row.partition_key())];
          ++c.items;
          c.bytes += size;
          ++total.items;
          total.bytes += size;
        });
    if (!page.last_evaluated_pk) break;
    last_pk = *page.last_evaluated_pk;
    last_sk = *page.last_evaluated_sk;
    scan.exclusive_start = backend::ItemKey{last_pk, last_sk};
  }

  out << "table " << table.name << " (keys " << table.pk_attribute << ", " << table.sk_attribute
      << "; type attribute " << table.type_attribute << "): " << total.items << " items, "
      << total.bytes << " bytes (" << human(total.bytes) << "), " << collections.size()
      << " collections\n";
  if (total.items == 0) return;

  out << "\n  " << std::left << std::setw(24) << "type" << std::right << std::setw(10) << "items"
      << std::setw(14) << "bytes" << std::setw(9) << "min" << std::setw(9) << "median"
      << std::setw(9) << "p99" << std::setw(9) << "max" << '\n';
  for (auto& [type, values] : sizes) {
    std::sort(values.begin(), values.end());
    std::size_t bytes = 0;
    for (const auto v : values) bytes += v;
    out << "  " << std::left << std::setw(24) << shown_type(type) << std::right << std::setw(10)
        << values.size() << std::setw(14) << bytes << std::setw(9) << values.front() << std::setw(9)
        << percentile(values, 0.5) << std::setw(9) << percentile(values, 0.99) << std::setw(9)
        << values.back() << '\n';
  }

  std::vector<std::pair<const std::string*, Tally>> largest;
  largest.reserve(collections.size());
  for (const auto& [pk, tally] : collections) largest.emplace_back(&pk, tally);
  const auto bigger = [](const auto& a, const auto& b) {
    if (a.second.bytes != b.second.bytes) return a.second.bytes > b.second.bytes;
    if (a.second.items != b.second.items) return a.second.items > b.second.items;
    return *a.first < *b.first;
  };
  const std::size_t shown = std::min(options.top, largest.size());
  std::partial_sort(largest.begin(), largest.begin() + static_cast<std::ptrdiff_t>(shown),
                    largest.end(), bigger);
  out << "\n  largest collections (by bytes)\n  " << std::left << std::setw(40) << "pk"
      << std::right << std::setw(10) << "items" << std::setw(14) << "bytes" << '\n';
  for (std::size_t i = 0; i < shown; ++i) {
    out << "  " << std::left << std::setw(40) << *largest[i].first << std::right << std::setw(10)
        << largest[i].second.items << std::setw(14) << largest[i].second.bytes << '\n';
  }

  // Every collection is judged, not only those listed.
  const auto share_limit =
      static_cast<std::size_t>(options.warn_share * static_cast<double>(collection_bytes_limit));
  std::sort(largest.begin(), largest.end(), bigger);
  bool header = false;
  for (const auto& [pk, tally] : largest) {
    std::vector<std::string> reasons;
    if (tally.items >= collection_items_warning)
      reasons.push_back(std::to_string(tally.items) + " items (10000 or more)");
    if (tally.bytes >= share_limit) {
      std::ostringstream s;
      s << human(tally.bytes) << ", " << std::fixed << std::setprecision(0)
        << 100.0 * static_cast<double>(tally.bytes) / static_cast<double>(collection_bytes_limit)
        << "% of DynamoDB's 10 GB per collection";
      reasons.push_back(s.str());
    } else if (tally.bytes >= collection_bytes_warning) {
      reasons.push_back(human(tally.bytes) + " (1 GiB or more)");
    }
    if (reasons.empty()) continue;
    if (!header) out << "\n  warnings\n";
    header = true;
    out << "  warning: collection " << *pk << ": ";
    for (std::size_t i = 0; i < reasons.size(); ++i) out << (i ? "; " : "") << reasons[i];
    out << '\n';
  }
}

}  // namespace

void report(std::ostream& out, const Location& where, const ReportOptions& options) {
  out << where.text << ": " << where.kind << ", " << where.tables.size()
      << (where.tables.size() == 1 ? " table\n" : " tables\n");
  for (const std::string& name : where.foreign)
    out << "  (table " << name << " is not laid out as a pksk table: left out)\n";
  for (const backend::TableSpec& table : where.tables) {
    out << '\n';
    report_table(out, where, table, options);
  }
}

void list_collection(std::ostream& out, const Location& where, const backend::TableSpec& table,
                     const std::string& pk, bool json) {
  const auto handle = where.backend.open_table(table);
  const BodyFormat format = where.backend.body_format(handle);
  Tally tally;
  std::string text, last_sk;
  backend::RawQuery query;
  query.pk = pk;
  query.consistent = true;
  std::vector<std::string> lines;
  for (;;) {
    const backend::QueryOutcome page =
        where.backend.query(handle, query, [&](const backend::ItemView& row) {
          const AttributeValue item = whole_item(row, format, table);
          const std::size_t size = item_size(row, item);
          text.clear();
          if (json) {
            append_plain_json(text, item);
          } else {
            text += row.sort_key();
            text += '\t';
            text += shown_type(std::string(row.type));
            text += '\t';
            text += std::to_string(size);
            text += '\t';
            append_plain_json_members(text, item, [&](std::string_view name) {
              return name == table.pk_attribute || name == table.sk_attribute ||
                     name == table.type_attribute;
            });
          }
          lines.push_back(text);
          ++tally.items;
          tally.bytes += size;
        });
    if (!page.last_evaluated_sk) break;
    last_sk = *page.last_evaluated_sk;
    query.exclusive_start_sk = last_sk;
  }
  if (!json) {
    out << "collection " << pk << " in table " << table.name << ": " << tally.items << " items, "
        << tally.bytes << " bytes\n"
        << table.sk_attribute << "\ttype\tsize\tattributes\n";
  }
  for (const std::string& line : lines) out << line << '\n';
}

}  // namespace pksk::inspect
