// SPDX-License-Identifier: BSL-1.0
#pragma once
// Batches: what put_all, erase_all and get_all share. DynamoDB takes 25 writes or 100 keys a
// request, refuses a request that names one item twice, and may hand back part of a request
// unprocessed (throttling); the library, not the caller, sends those again, with backoff, for
// every backend. How often and how long it waits is a BatchRetry, which tests replace so as not
// to sleep.

#include <chrono>
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "../backend/backend.hpp"
#include "../detail/config.hpp"
#include "../error.hpp"
#include "detail/messages.hpp"

namespace pksk {

// How a Table retries the items or keys a batch request hands back unprocessed: up to
// `retries` more requests, the first after `first_delay`, each wait `backoff_factor` times the
// last; then BackendError. `sleep` does the waiting (a test's fake records the delays instead).
struct BatchRetry {
  // How many more requests after the first, for what is still unprocessed.
  int retries = 8;
  // The wait before the first retry.
  std::chrono::milliseconds first_delay{25};
  // Each wait is this many times the one before.
  int backoff_factor = 2;
  // Waits the delay given; a test passes one that only records it.
  std::function<void(std::chrono::milliseconds)> sleep = [](std::chrono::milliseconds delay) {
    std::this_thread::sleep_for(delay);
  };
};

namespace detail {

// Calls `attempt(indexes, unprocessed)` until nothing is handed back, waiting between attempts
// as `retry` says; the one retry loop for every backend.
template <class Attempt>
void retry_unprocessed(const BatchRetry& retry, std::string_view table, std::string_view operation,
                       std::vector<std::size_t> pending, Attempt&& attempt) {
  std::vector<std::size_t> unprocessed;
  std::chrono::milliseconds delay = retry.first_delay;
  for (int round = 0;; ++round) {
    attempt(std::span<const std::size_t>(pending), unprocessed);
    if (unprocessed.empty()) return;
    if (round == retry.retries) {
      throw BackendError(errc::throttled, "pksk table " + detail::quoted(table) + ", " +
                                              std::string(operation) + ": " +
                                              std::to_string(unprocessed.size()) +
                                              " items still unprocessed after " +
                                              std::to_string(retry.retries) + " retries");
    }
    retry.sleep(delay);
    delay *= retry.backoff_factor;
    pending = unprocessed;
  }
}

// Of `pending` (indexes into `keys`, increasing), those whose key no later entry of `keys`
// has: what a retry of a batch write sends, so that no request names one item twice and no
// earlier write lands after a later one of the same item.
PKSK_DECL std::vector<std::size_t> last_write_of_each_key(std::span<const backend::ItemKey> keys,
                                                          std::span<const std::size_t> pending);

// DynamoDB refuses a batch request that names one item twice.
PKSK_DECL void refuse_duplicate_keys(std::string_view table,
                                     std::span<const backend::ItemKey> group,
                                     std::string_view operation);

}  // namespace detail
}  // namespace pksk

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/batch.ipp"
#endif
