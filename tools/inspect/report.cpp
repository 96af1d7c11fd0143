// SPDX-License-Identifier: BSL-1.0
#include "report.hpp"

#include <cstddef>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <pksk/codec/attribute_value_json.hpp>
#include <pksk/key/unique.hpp>
#include <pksk/table/detail/chunks.hpp>
#include <pksk/table/stats.hpp>

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

std::string shown_type(const std::string& type) {
  return type.empty() ? "(none)" : type;
}

// The items pksk writes for itself under partition keys of their own, which are no collection
// of the user's: a chunked item's chunks ("pksk:chunk#<version>#<n>", each alone in its
// partition; Entity<T>::chunked) and unique members' guards ("_unique#<type>#<member>#<value>";
// Entity<T>::unique). Chunks kept beside their parent (chunks_beside_parent) are in the
// parent's collection, and counted there, as DynamoDB counts them against its 10 GB.
constexpr std::string_view chunk_type = detail::chunk_type;
constexpr std::string_view guard_type = detail::unique_guard_type;

struct OwnItems {
  Tally chunks;
  std::set<std::string> chunk_versions;           // one per chunked item written (or left)
  std::map<std::string, Tally> guards_by_member;  // "<type>#<member>"
};

// "Type#member" of a guard's partition key "_unique#Type#member#value".
std::string guarded_member(std::string_view pk) {
  pk.remove_prefix(guard_type.size() + 1);
  const std::size_t type_end = pk.find('#');
  const std::size_t member_end =
      type_end == std::string_view::npos ? type_end : pk.find('#', type_end + 1);
  return std::string(pk.substr(0, member_end));
}

// Every item into `all` (the table's totals and types, and the user's collections, which the
// tally tells from pksk's own partitions); pksk's own partitions also into `own`, by kind. One
// sequential scan, as table.stats() reads a segment.
void scan(const Location& where, AnyBackend::TableHandle& handle, const backend::TableSpec& table,
          BodyFormat format, detail::StatsTally& all, OwnItems& own) {
  backend::RawScan request{.segment = 0, .segments = 1};
  std::string last_pk, last_sk;
  for (;;) {
    const backend::ScanOutcome page =
        where.backend.scan(handle, request, [&](const backend::ItemView& row) {
          const std::size_t size = detail::row_size(row, format, table);
          const std::string_view pk = row.partition_key();
          all.add(pk, row.type, size);
          switch (detail::own_item_kind(pk, row.type)) {
            case detail::OwnItem::chunk: {
              ++own.chunks.items;
              own.chunks.bytes += size;
              std::string_view version = pk.substr(chunk_type.size() + 1);
              own.chunk_versions.emplace(version.substr(0, version.rfind('#')));
              break;
            }
            case detail::OwnItem::guard: {
              Tally& t = own.guards_by_member[guarded_member(pk)];
              ++t.items;
              t.bytes += size;
              break;
            }
            case detail::OwnItem::none:
              break;
          }
        });
    if (!page.last_evaluated_pk) break;
    last_pk = *page.last_evaluated_pk;
    last_sk = *page.last_evaluated_sk;
    request.exclusive_start = backend::ItemKey{last_pk, last_sk};
  }
}

void report_table(std::ostream& out, const Location& where, const backend::TableSpec& table,
                  const ReportOptions& options) {
  auto handle = where.backend.open_table(table);
  const BodyFormat format = where.backend.body_format(handle);
  detail::StatsTally tally;
  OwnItems own;
  scan(where, handle, table, format, tally, own);
  const TableStats stats =
      std::move(tally).finish({.largest = options.top, .warn_share = options.warn_share});

  out << "table " << table.name << " (keys " << table.pk_attribute << ", " << table.sk_attribute
      << "; type attribute " << table.type_attribute << "): " << stats.items << " items, "
      << stats.bytes << " bytes (" << human(stats.bytes) << "), " << stats.collections
      << " collections\n";
  if (stats.items == 0) return;

  out << "\n  " << std::left << std::setw(24) << "type" << std::right << std::setw(10) << "items"
      << std::setw(14) << "bytes" << std::setw(9) << "min" << std::setw(9) << "median"
      << std::setw(9) << "p99" << std::setw(9) << "max" << '\n';
  for (const TypeStats& t : stats.types) {
    out << "  " << std::left << std::setw(24) << shown_type(t.type) << std::right << std::setw(10)
        << t.items << std::setw(14) << t.bytes << std::setw(9) << t.min_bytes << std::setw(9)
        << t.median_bytes << std::setw(9) << t.p99_bytes << std::setw(9) << t.max_bytes << '\n';
  }

  out << "\n  largest collections (by bytes)\n  " << std::left << std::setw(40) << "pk"
      << std::right << std::setw(10) << "items" << std::setw(14) << "bytes" << '\n';
  for (const CollectionStats& c : stats.largest) {
    out << "  " << std::left << std::setw(40) << c.pk << std::right << std::setw(10) << c.items
        << std::setw(14) << c.bytes << '\n';
  }

  if (own.chunks.items != 0 || !own.guards_by_member.empty()) {
    out << "\n  pksk's own partitions (not collections of the table's items)\n  " << std::left
        << std::setw(40) << "kind" << std::right << std::setw(10) << "items" << std::setw(14)
        << "bytes" << '\n';
    if (own.chunks.items != 0) {
      const std::string kind = "chunks of " + std::to_string(own.chunk_versions.size()) +
                               " chunked item" + (own.chunk_versions.size() == 1 ? "" : "s");
      out << "  " << std::left << std::setw(40) << kind << std::right << std::setw(10)
          << own.chunks.items << std::setw(14) << own.chunks.bytes << '\n';
    }
    for (const auto& [member, t] : own.guards_by_member) {
      out << "  " << std::left << std::setw(40) << "unique guards of " + member << std::right
          << std::setw(10) << t.items << std::setw(14) << t.bytes << '\n';
    }
  }

  // Every collection is judged, not only those listed.
  bool header = false;
  for (const CollectionWarning& w : stats.warnings) {
    const CollectionStats& c = w.collection;
    std::vector<std::string> reasons;
    if (w.many_items) reasons.push_back(std::to_string(c.items) + " items (10000 or more)");
    if (w.near_limit) {
      std::ostringstream s;
      s << human(c.bytes) << ", " << std::fixed << std::setprecision(0)
        << 100.0 * static_cast<double>(c.bytes) / static_cast<double>(collection_bytes_limit)
        << "% of DynamoDB's 10 GB per collection";
      reasons.push_back(s.str());
    } else if (w.large) {
      reasons.push_back(human(c.bytes) + " (1 GiB or more)");
    }
    if (!header) out << "\n  warnings\n";
    header = true;
    out << "  warning: collection " << c.pk << ": ";
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
