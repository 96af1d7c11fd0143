// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of fan_out.hpp that are not templates: inline through it in header-only
// mode, compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../../detail/iso8601.hpp"
#include "../../error.hpp"
#include "../detail/messages.hpp"
#include "../fan_out.hpp"

namespace pksk::detail {

PKSK_DECL std::size_t bucket_count(KeySpec unit, std::chrono::system_clock::time_point from,
                                   std::chrono::system_clock::time_point to) {
  using namespace std::chrono;
  const year_month_day a{floor<days>(from)};
  const year_month_day b{floor<days>(to)};
  std::int64_t n = 0;
  switch (unit) {
    case KeySpec::year:
      n = static_cast<int>(b.year()) - static_cast<int>(a.year());
      break;
    case KeySpec::month:
      n = (static_cast<int>(b.year()) - static_cast<int>(a.year())) * std::int64_t{12} +
          (static_cast<int>(static_cast<unsigned>(b.month())) -
           static_cast<int>(static_cast<unsigned>(a.month())));
      break;
    case KeySpec::day:
      n = (floor<days>(to) - floor<days>(from)).count();
      break;
    default:
      n = (floor<hours>(to) - floor<hours>(from)).count();
      break;
  }
  return static_cast<std::size_t>(n) + 1;
}

PKSK_DECL void throw_buckets_reversed(std::string_view table, std::string_view call,
                                      std::string_view type,
                                      std::chrono::system_clock::time_point from,
                                      std::chrono::system_clock::time_point to) {
  char from_text[kIso8601MaxSize];
  char to_text[kIso8601MaxSize];
  throw ValidationError(table_context(table, call, type) + "from (" +
                        std::string(format_iso8601(from, from_text)) + ") is after to (" +
                        std::string(format_iso8601(to, to_text)) +
                        "), as a between with its bounds reversed: pass the earlier time first");
}

PKSK_DECL void check_partition_count(std::string_view table, std::string_view call,
                                     std::string_view type, std::size_t partitions,
                                     std::size_t max_partitions) {
  if (max_partitions == 0 || partitions <= max_partitions) return;
  throw ValidationError(table_context(table, call, type) + "the read would touch " +
                        std::to_string(partitions) + " partitions, more than max_partitions (" +
                        std::to_string(max_partitions) +
                        "), a read each at least: read a shorter range, or raise "
                        "QueryOptions::max_partitions (0: no bound)");
}

PKSK_DECL std::vector<std::chrono::system_clock::time_point> bucket_starts(
    KeySpec unit, std::chrono::system_clock::time_point from,
    std::chrono::system_clock::time_point to) {
  using namespace std::chrono;
  std::vector<system_clock::time_point> out;
  if (to < from) return out;
  const auto start_of = [unit](system_clock::time_point t) -> system_clock::time_point {
    const sys_days day = floor<days>(t);
    const year_month_day ymd{day};
    switch (unit) {
      case KeySpec::year:
        return sys_days{ymd.year() / January / 1};
      case KeySpec::month:
        return sys_days{ymd.year() / ymd.month() / 1};
      case KeySpec::day:
        return day;
      default:
        return floor<hours>(t);
    }
  };
  const auto next = [unit](system_clock::time_point t) -> system_clock::time_point {
    const year_month_day ymd{floor<days>(t)};
    switch (unit) {
      case KeySpec::year:
        return sys_days{(ymd.year() + years{1}) / January / 1};
      case KeySpec::month:
        return sys_days{year_month_day{ymd.year() / ymd.month() / 1} + months{1}};
      case KeySpec::day:
        return t + days{1};
      default:
        return t + hours{1};
    }
  };
  for (system_clock::time_point t = start_of(from); t <= to; t = next(t)) out.push_back(t);
  return out;
}

}  // namespace pksk::detail
