// SPDX-License-Identifier: BSL-1.0
#pragma once
// The expiration times credential sources write: ISO 8601 / RFC 3339 in UTC or with an offset
// ("2024-05-01T12:00:00Z", "2024-05-01T12:00:00.123Z", "2024-05-01T14:00:00+02:00"), as STS,
// the container endpoint, IMDS and credential_process give them.

#include <chrono>
#include <optional>
#include <string_view>

namespace pksk::dynamodb::detail {

// The time `text` names, or nullopt when it is not such a timestamp.
inline std::optional<std::chrono::system_clock::time_point> parse_iso8601(std::string_view text) {
  std::size_t at = 0;
  const auto number = [&](std::size_t digits, int& out) {
    if (at + digits > text.size()) return false;
    out = 0;
    for (std::size_t i = 0; i < digits; ++i) {
      const char c = text[at + i];
      if (c < '0' || c > '9') return false;
      out = out * 10 + (c - '0');
    }
    at += digits;
    return true;
  };
  const auto literal = [&](char c) {
    if (at >= text.size() || (text[at] != c && !(c == 'T' && (text[at] == 't' || text[at] == ' '))))
      return false;
    ++at;
    return true;
  };
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!number(4, year) || !literal('-') || !number(2, month) || !literal('-') || !number(2, day) ||
      !literal('T') || !number(2, hour) || !literal(':') || !number(2, minute) || !literal(':') ||
      !number(2, second)) {
    return std::nullopt;
  }
  const std::chrono::year_month_day date{std::chrono::year(year),
                                         std::chrono::month(static_cast<unsigned>(month)),
                                         std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok() || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  std::chrono::system_clock::duration fraction{};
  if (at < text.size() && text[at] == '.') {
    ++at;
    std::chrono::nanoseconds::rep nanos = 0;
    std::size_t digits = 0;
    for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, ++digits) {
      if (digits < 9) nanos = nanos * 10 + (text[at] - '0');
    }
    if (digits == 0) return std::nullopt;
    for (std::size_t i = digits; i < 9; ++i) nanos *= 10;
    fraction = std::chrono::duration_cast<std::chrono::system_clock::duration>(
        std::chrono::nanoseconds(nanos));
  }
  std::chrono::minutes offset{0};
  if (at < text.size() && (text[at] == 'Z' || text[at] == 'z')) {
    ++at;
  } else if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    const bool minus = text[at] == '-';
    ++at;
    int oh = 0, om = 0;
    if (!number(2, oh) || !literal(':') || !number(2, om) || oh > 23 || om > 59)
      return std::nullopt;
    offset = std::chrono::minutes(oh * 60 + om);
    if (minus) offset = -offset;
  } else {
    return std::nullopt;  // no zone: which time it names is unknown
  }
  if (at != text.size()) return std::nullopt;
  return std::chrono::sys_days(date) + std::chrono::hours(hour) + std::chrono::minutes(minute) +
         std::chrono::seconds(second) + fraction - offset;
}

}  // namespace pksk::dynamodb::detail
