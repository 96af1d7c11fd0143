// SPDX-License-Identifier: BSL-1.0
#pragma once
// How a long command (copy) shows how far it is: on a terminal one line redrawn in place (a bar,
// items done of the total, percent, items per second, time left); elsewhere (a pipe, a log
// file) a plain line every tenth of the way or every 2 seconds, which reads well afterwards.

#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>

namespace pksk::inspect {

enum class ProgressStyle { quiet, lines, bar };

class Progress {
 public:
  using Clock = std::chrono::steady_clock;

  // `done` items were done before this run (a resumed copy), of `total`.
  Progress(std::ostream& out, ProgressStyle style, std::size_t total, std::size_t done);

  // `done` items are done now (counting those before this run).
  void update(std::size_t done);
  // The last figures, and on a terminal the newline that ends the bar.
  void finish(std::size_t done);

  // The bar's text, without the carriage return: "[####......] 40/100  40%  12 items/s  ETA 0:05".
  static std::string bar(std::size_t done, std::size_t total, double per_second);

 private:
  void show(std::size_t done, Clock::time_point now);
  double per_second(std::size_t done, Clock::time_point now) const;

  std::ostream& out_;
  ProgressStyle style_;
  std::size_t total_, first_;
  Clock::time_point start_, shown_at_;
  std::size_t shown_tenth_ = 0;
  std::optional<std::size_t> shown_done_{};  // the figure of the last line or bar
  bool drawn_ = false;
};

}  // namespace pksk::inspect
