// SPDX-License-Identifier: BSL-1.0
#pragma once
// system_clock::time_point <-> ISO 8601 UTC text, "2024-02-29T23:59:58.123456789Z", with as
// many fraction digits as the clock's period has, so that every value round-trips exactly and
// texts of one clock sort as their instants do.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <ratio>
#include <string_view>

namespace pksk::detail {

// Number of decimal fraction digits of a clock period 1/10^k, or -1 when it is not one.
template <class Period>
consteval int decimal_fraction_digits() {
  if constexpr (Period::num != 1) {
    return -1;
  } else {
    std::intmax_t den = Period::den;
    int digits = 0;
    while (den % 10 == 0) {
      den /= 10;
      ++digits;
    }
    return den == 1 ? digits : -1;
  }
}

using TimePoint = std::chrono::system_clock::time_point;
inline constexpr int kTimeFractionDigits =
    decimal_fraction_digits<std::chrono::system_clock::period>();
static_assert(kTimeFractionDigits >= 0,
              "pksk: system_clock's period must be a power of ten of a second to be stored as "
              "ISO 8601 text");

inline constexpr std::int64_t kTicksPerSecond = [] {
  std::int64_t p = 1;
  for (int i = 0; i < kTimeFractionDigits; ++i) p *= 10;
  return p;
}();

// Longest text: "YYYY-MM-DDTHH:MM:SS" + '.' + fraction + 'Z'.
inline constexpr std::size_t kIso8601MaxSize = 19 + 1 + kTimeFractionDigits + 1;

inline char* write_digits(char* out, std::int64_t value, int width) noexcept {
  for (int i = width - 1; i >= 0; --i) {
    out[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  return out + width;
}

// Writes the text of tp into buf (kIso8601MaxSize bytes) and returns a view of it. Tick
// arithmetic stays in int64 without multiplying, so even the clock's min() and max() are
// written.
inline std::string_view format_iso8601(TimePoint tp, char* buf) noexcept {
  std::int64_t ticks = tp.time_since_epoch().count();
  std::int64_t seconds = ticks / kTicksPerSecond;
  std::int64_t fraction = ticks % kTicksPerSecond;
  if (fraction < 0) {
    fraction += kTicksPerSecond;
    --seconds;
  }
  std::int64_t days = seconds / 86400;
  std::int64_t second_of_day = seconds % 86400;
  if (second_of_day < 0) {
    second_of_day += 86400;
    --days;
  }
  const std::chrono::year_month_day date{
      std::chrono::sys_days{std::chrono::days{static_cast<int>(days)}}};
  char* p = write_digits(buf, static_cast<int>(date.year()), 4);
  *p++ = '-';
  p = write_digits(p, static_cast<unsigned>(date.month()), 2);
  *p++ = '-';
  p = write_digits(p, static_cast<unsigned>(date.day()), 2);
  *p++ = 'T';
  p = write_digits(p, second_of_day / 3600, 2);
  *p++ = ':';
  p = write_digits(p, second_of_day / 60 % 60, 2);
  *p++ = ':';
  p = write_digits(p, second_of_day % 60, 2);
  if constexpr (kTimeFractionDigits > 0) {
    *p++ = '.';
    p = write_digits(p, fraction, kTimeFractionDigits);
  }
  *p++ = 'Z';
  return {buf, static_cast<std::size_t>(p - buf)};
}

// Whether a timestamp may end in an offset from UTC ("+02:00") as well as in Z.
enum class Iso8601Offset : bool { z_only, allowed };

// Parses "YYYY-MM-DDTHH:MM:SS[.f{1,N}]Z" (N = the clock's fraction digits), and with
// Iso8601Offset::allowed "...SS[.f]+HH:MM" or "-HH:MM" too, the instant that local time names
// (what other programs write into tables: a member's value reads back whoever wrote it). Keys
// keep Z only: their text must sort as the instants do. Anything else, a date that does not
// exist, or an instant the clock cannot hold, is rejected: a silently rounded timestamp would
// no longer round-trip.
inline bool parse_iso8601(std::string_view text, TimePoint& out,
                          Iso8601Offset offsets = Iso8601Offset::z_only) noexcept {
  auto digits = [&](std::size_t pos, std::size_t count, std::int64_t& value) {
    if (pos + count > text.size()) return false;
    value = 0;
    for (std::size_t i = pos; i < pos + count; ++i) {
      if (text[i] < '0' || text[i] > '9') return false;
      value = value * 10 + (text[i] - '0');
    }
    return true;
  };
  std::int64_t year, month, day, hour, minute, second;
  if (text.size() < 20 || !digits(0, 4, year) || text[4] != '-' || !digits(5, 2, month) ||
      text[7] != '-' || !digits(8, 2, day) || text[10] != 'T' || !digits(11, 2, hour) ||
      text[13] != ':' || !digits(14, 2, minute) || text[16] != ':' || !digits(17, 2, second)) {
    return false;
  }
  std::size_t pos = 19;
  std::int64_t fraction = 0;
  if (text[pos] == '.') {
    ++pos;
    int count = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (++count > kTimeFractionDigits) return false;
      fraction = fraction * 10 + (text[pos] - '0');
      ++pos;
    }
    if (count == 0) return false;
    for (; count < kTimeFractionDigits; ++count) fraction *= 10;
  }
  std::int64_t offset_seconds = 0;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-') &&
      offsets == Iso8601Offset::allowed) {
    std::int64_t offset_hours, offset_minutes;
    if (pos + 6 != text.size() || !digits(pos + 1, 2, offset_hours) || text[pos + 3] != ':' ||
        !digits(pos + 4, 2, offset_minutes) || offset_hours > 23 || offset_minutes > 59) {
      return false;
    }
    offset_seconds = (offset_hours * 3600 + offset_minutes * 60) * (text[pos] == '-' ? -1 : 1);
  } else if (pos + 1 != text.size() || text[pos] != 'Z') {
    return false;
  }
  if (hour > 23 || minute > 59 || second > 59) return false;
  const std::chrono::year_month_day date{std::chrono::year{static_cast<int>(year)},
                                         std::chrono::month{static_cast<unsigned>(month)},
                                         std::chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok()) return false;
  const std::int64_t days = std::chrono::sys_days{date}.time_since_epoch().count();
  const std::int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  // Before the epoch, seconds * ticks can overflow where the instant itself does not (the
  // clock's min()): step from the next whole second back towards the instant instead.
  const bool from_above = seconds < 0 && fraction > 0;
  std::int64_t ticks;
  if (__builtin_mul_overflow(from_above ? seconds + 1 : seconds, kTicksPerSecond, &ticks) ||
      __builtin_add_overflow(ticks, from_above ? fraction - kTicksPerSecond : fraction, &ticks)) {
    return false;
  }
  out = TimePoint{TimePoint::duration{ticks}};
  return true;
}

}  // namespace pksk::detail
