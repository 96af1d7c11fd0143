// SPDX-License-Identifier: BSL-1.0
// detail::WorkerPool, the threads of parallel fan-out reads: every index runs once, no more
// than the width at once, failures come back as a loop would have thrown them, and callers on
// several threads share one pool.

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <pksk/detail/worker_pool.hpp>

TEST_CASE("a worker pool runs every index once, at most width at once") {
  pksk::detail::WorkerPool pool;
  for (const std::size_t width : {std::size_t{1}, std::size_t{3}, std::size_t{8}}) {
    std::vector<std::atomic<int>> runs(20);
    std::atomic<int> running{0}, most{0};
    pool.run(runs.size(), width, [&](std::size_t i) {
      const int now = ++running;
      int seen = most.load();
      while (now > seen && !most.compare_exchange_weak(seen, now)) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      ++runs[i];
      --running;
    });
    for (const auto& r : runs) CHECK(r.load() == 1);
    CHECK(most.load() <= static_cast<int>(width));
    if (width > 1) CHECK(most.load() > 1);  // 20 sleeps of 2 ms overlap when threads are free
  }
}

TEST_CASE("a worker pool runs width 1 in order on the calling thread") {
  pksk::detail::WorkerPool pool;
  std::vector<std::size_t> order;
  const auto caller = std::this_thread::get_id();
  pool.run(5, 1, [&](std::size_t i) {
    CHECK(std::this_thread::get_id() == caller);
    order.push_back(i);
  });
  CHECK(order == std::vector<std::size_t>{0, 1, 2, 3, 4});
}

TEST_CASE("a worker pool rethrows the failure of the lowest index, after every call returned") {
  pksk::detail::WorkerPool pool;
  std::atomic<int> returned{0};
  try {
    pool.run(10, 4, [&](std::size_t i) {
      ++returned;
      if (i == 7) throw std::runtime_error("seven");
      if (i == 3) throw std::invalid_argument("three");
    });
    FAIL("nothing was thrown");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "three");
  }
  CHECK(returned.load() == 10);
}

TEST_CASE("a worker pool serves callers on several threads at once") {
  pksk::detail::WorkerPool pool;
  std::vector<std::thread> callers;
  std::vector<std::size_t> sums(4);
  for (std::size_t c = 0; c < sums.size(); ++c) {
    callers.emplace_back([&, c] {
      std::vector<std::size_t> values(50);
      pool.run(values.size(), 3, [&](std::size_t i) { values[i] = i * (c + 1); });
      for (const std::size_t v : values) sums[c] += v;
    });
  }
  for (std::thread& t : callers) t.join();
  for (std::size_t c = 0; c < sums.size(); ++c) CHECK(sums[c] == 1225 * (c + 1));
}
