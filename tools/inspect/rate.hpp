// SPDX-License-Identifier: BSL-1.0
#pragma once
// A write-rate limit: a token bucket refilled at `per_second` tokens a second, starting empty and
// holding at most one second's worth, so that a copy never writes faster than asked, from its
// first second on (and leaves a provisioned DynamoDB table's capacity to the programs using
// it). Callers ask for at most capacity() tokens at a time.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <thread>

namespace pksk::inspect {

class RateLimit {
 public:
  using Clock = std::chrono::steady_clock;

  // 0: no limit.
  explicit RateLimit(double per_second)
      : per_second_(per_second),
        capacity_(std::max(1.0, per_second)),
        tokens_(0.0),
        refilled_(Clock::now()) {}

  // The most one acquire() may ask for: a second's worth (at least one).
  std::size_t capacity() const { return static_cast<std::size_t>(capacity_); }

  // Waits until `n` items may be written, and takes their tokens.
  void acquire(std::size_t n) {
    if (per_second_ <= 0) return;
    const double wanted = static_cast<double>(n);
    for (;;) {
      refill();
      // A request larger than the bucket (capacity() says not to) waits for a full bucket and
      // runs it into debt.
      if (tokens_ >= std::min(wanted, capacity_)) {
        tokens_ -= wanted;
        return;
      }
      const double missing = std::min(wanted, capacity_) - tokens_;
      std::this_thread::sleep_for(std::chrono::duration<double>(missing / per_second_));
    }
  }

 private:
  void refill() {
    const Clock::time_point now = Clock::now();
    tokens_ = std::min(
        capacity_, tokens_ + std::chrono::duration<double>(now - refilled_).count() * per_second_);
    refilled_ = now;
  }

  double per_second_, capacity_, tokens_;
  Clock::time_point refilled_;
};

}  // namespace pksk::inspect
