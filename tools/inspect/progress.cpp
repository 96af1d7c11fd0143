// SPDX-License-Identifier: BSL-1.0
#include "progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace pksk::inspect {

namespace {

constexpr auto bar_interval = std::chrono::milliseconds(100);  // redraws a person can follow
constexpr auto line_interval = std::chrono::seconds(2);
constexpr std::size_t bar_width = 30;

std::size_t percent(std::size_t done, std::size_t total) {
  return total == 0 ? 100 : std::min<std::size_t>(100, done * 100 / total);
}

std::string duration(double seconds) {
  const auto s = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  char text[32];
  if (s >= 3600) {
    std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  } else {
    std::snprintf(text, sizeof text, "%lld:%02lld", s / 60, s % 60);
  }
  return text;
}

}  // namespace

Progress::Progress(std::ostream& out, ProgressStyle style, std::size_t total, std::size_t done)
    : out_(out),
      style_(style),
      total_(total),
      first_(done),
      start_(Clock::now()),
      shown_at_(start_),
      shown_tenth_(total == 0 ? 10 : done * 10 / total) {}

double Progress::per_second(std::size_t done, Clock::time_point now) const {
  const double seconds = std::chrono::duration<double>(now - start_).count();
  return seconds > 0 ? static_cast<double>(done - first_) / seconds : 0.0;
}

std::string Progress::bar(std::size_t done, std::size_t total, double per_second) {
  const std::size_t filled = total == 0 ? bar_width : std::min(bar_width, done * bar_width / total);
  // Appended piece by piece: g++ 12 at -O3 warns (-Wrestrict) of the chain of operator+.
  std::string text;
  text.reserve(bar_width + 96);
  text += '[';
  text.append(filled, '#');
  text.append(bar_width - filled, '.');
  text += "] ";
  char figures[160];
  const std::string eta = per_second > 0 && total > done
                              ? duration(static_cast<double>(total - done) / per_second)
                              : std::string(total > done ? "--:--" : "0:00");
  std::snprintf(figures, sizeof figures, "%zu/%zu %3zu%%  %.0f items/s  ETA %s", done, total,
                percent(done, total), per_second, eta.c_str());
  text += figures;
  return text;
}

void Progress::show(std::size_t done, Clock::time_point now) {
  const double rate = per_second(done, now);
  if (style_ == ProgressStyle::bar) {
    // Padded so that a shorter line covers the longer one before it.
    std::string text = bar(done, total_, rate);
    text.resize(std::max<std::size_t>(text.size(), 79), ' ');
    out_ << '\r' << text << std::flush;
    drawn_ = true;
  } else {
    char line[160];
    std::snprintf(line, sizeof line, "copied %zu of %zu items (%zu%%), %.0f items/s\n", done,
                  total_, percent(done, total_), rate);
    out_ << line << std::flush;
  }
  shown_at_ = now;
  shown_done_ = done;
}

void Progress::update(std::size_t done) {
  if (style_ == ProgressStyle::quiet) return;
  const Clock::time_point now = Clock::now();
  if (style_ == ProgressStyle::bar) {
    if (now - shown_at_ >= bar_interval || !drawn_) show(done, now);
    return;
  }
  const std::size_t tenth = total_ == 0 ? 10 : done * 10 / total_;
  if (tenth > shown_tenth_ || now - shown_at_ >= line_interval) {
    shown_tenth_ = tenth;
    show(done, now);
  }
}

void Progress::finish(std::size_t done) {
  if (style_ == ProgressStyle::quiet) return;
  if (style_ == ProgressStyle::bar) {
    show(done, Clock::now());
    out_ << '\n' << std::flush;
  } else if (shown_done_ != done) {
    show(done, Clock::now());
  }
}

}  // namespace pksk::inspect
