// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of fan_out.hpp that are not templates: inline through it in header-only
// mode, compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <chrono>
#include <vector>

#include "../fan_out.hpp"

namespace pksk::detail {

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
