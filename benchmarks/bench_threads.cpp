// SPDX-License-Identifier: BSL-1.0
// Throughput with 1 and 2 threads sharing one pksk::Table over one pksk::sqlite::Backend:
// - collection queries (issue 23): each thread queries whole customer collections (a customer
//   and its orders) through the same Table, on its own connection;
// - a parallel scan (issue 20): every Order of the table read as 4 segments, all 4 by one
//   thread, or 2 by each of 2 threads at once.
// Items per second are counted over wall-clock time, and the run ends with the ratio of 2
// threads to 1 for each, measured in the same process on the same data.

#include <benchmark/benchmark.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "model.hpp"
#include "options.hpp"
#include "pksk_side.hpp"
#include "setup.hpp"

namespace {

using namespace bench;

Options g_options;

// One dataset and one Table for every thread, made once (a magic static: thread-safe).
struct Shared {
  std::string path;
  CustomerStream stream;
  PkskSide pksk;
  std::vector<pksk::PartitionKey> pks;
  explicit Shared(int customers)
      : path(ensure_dataset(g_options.data_dir, customers)),
        stream(customers),
        pksk(path),
        pks(pksk_partitions(stream)) {}
};

// This thread's time on a CPU and waiting for one (run queue), in microseconds, from
// /proc/thread-self/schedstat; whatever else of the wall-clock time passed, it slept (on a
// lock, or on I/O).
struct Sched {
  double running = 0;
  double waiting = 0;
};
Sched thread_sched() {
  Sched out;
  if (std::FILE* f = std::fopen("/proc/thread-self/schedstat", "r")) {
    unsigned long long run_ns = 0, wait_ns = 0;
    if (std::fscanf(f, "%llu %llu", &run_ns, &wait_ns) == 2) {
      out.running = static_cast<double>(run_ns) / 1e3;
      out.waiting = static_cast<double>(wait_ns) / 1e3;
    }
    std::fclose(f);
  }
  return out;
}

double wall_us() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) / 1e3;
}

double thread_cpu_us() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) / 1e3;
}

Shared& shared() {
  static Shared s(g_options.customers);
  return s;
}

void collection_shared_table(benchmark::State& state) {
  Shared& s = shared();
  const std::size_t n = s.pks.size();
  // Each thread walks the stream from its own offset; the first query opens its connection.
  std::size_t i = (static_cast<std::size_t>(state.thread_index()) * n) / 2;
  std::size_t items = s.pksk.collection(s.pks[i]).size();
  items = 0;
  const double cpu_before = thread_cpu_us();
  const Sched sched_before = thread_sched();
  const double wall_before = wall_us();
  for (auto _ : state) {
    auto result = s.pksk.collection(s.pks[i]);
    items += result.size();
    benchmark::DoNotOptimize(result);
    if (++i == n) i = 0;
  }
  const double cpu_us = thread_cpu_us() - cpu_before;
  const double wall = wall_us() - wall_before;
  const Sched sched_after = thread_sched();
  const double asleep = wall - (sched_after.running - sched_before.running) -
                        (sched_after.waiting - sched_before.waiting);
  state.SetItemsProcessed(static_cast<std::int64_t>(items));
  // This thread's own CPU time per query, averaged over the threads: it does not count time
  // spent waiting for a core, so on a loaded machine it still shows whether sharing the Table
  // makes a query cost more (a lock, cache-line traffic); equal to 1 thread's means none.
  state.counters["thread_cpu_us_per_query"] = benchmark::Counter(
      state.iterations() != 0 ? cpu_us / static_cast<double>(state.iterations()) : 0.0,
      benchmark::Counter::kAvgThreads);
  // The share of the loop each thread spent asleep rather than running or waiting for a core:
  // near 0 means no thread waited on another (no lock serializes the queries), so throughput
  // is bounded by the cores the machine gives, not by pksk or SQLite.
  state.counters["asleep_share"] = benchmark::Counter(wall > 0 ? std::max(asleep, 0.0) / wall : 0.0,
                                                      benchmark::Counter::kAvgThreads);
}

constexpr std::size_t kScanSegments = 4;

// Per iteration, the threads together read the whole table once: thread t of n reads the
// segments t, t + n, ...
void parallel_scan(benchmark::State& state) {
  Shared& s = shared();
  const auto thread = static_cast<std::size_t>(state.thread_index());
  const auto threads = static_cast<std::size_t>(state.threads());
  std::size_t items = 0;
  for (auto _ : state) {
    for (std::size_t segment = thread; segment < kScanSegments; segment += threads) {
      auto part = s.pksk.scan_segment(segment, kScanSegments);
      items += part.size();
      benchmark::DoNotOptimize(part);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(items));
}

// Prints as the console reporter does, and keeps items/s per benchmark and thread count for
// the ratios.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, std::map<int, double>> items_per_second;  // by family, then threads
  std::map<std::string, std::map<int, double>> iteration_time;    // real time, likewise
  std::map<int, double> cpu_per_query;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration || run.error_occurred) continue;
      const int threads = static_cast<int>(run.threads);
      const std::string family = run.run_name.function_name;
      if (const auto it = run.counters.find("items_per_second"); it != run.counters.end()) {
        items_per_second[family][threads] = it->second;
      }
      iteration_time[family][threads] = run.GetAdjustedRealTime();
      if (const auto it = run.counters.find("thread_cpu_us_per_query"); it != run.counters.end()) {
        cpu_per_query[threads] = it->second;
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace

int main(int argc, char** argv) {
  g_options = parse_options(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RegisterBenchmark("collection_shared_table/pksk", collection_shared_table)
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime()
      ->Threads(1)
      ->Threads(2);
  benchmark::RegisterBenchmark("parallel_scan_4_segments/pksk", parallel_scan)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->Threads(1)
      ->Threads(2);
  benchmark::AddCustomContext("customers", std::to_string(g_options.customers));
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  // Queries: each thread runs whole queries, so items/s (summed by the library) compare.
  const auto& queries = reporter.items_per_second["collection_shared_table/pksk"];
  if (queries.count(1) != 0 && queries.count(2) != 0) {
    std::printf("threads ratio (items/s, 2 threads / 1 thread): %.2f\n",
                queries.at(2) / queries.at(1));
  }
  // The scan: an iteration is one read of the whole table however many threads share it, so
  // the speed-up is the ratio of iteration times.
  const auto& scan = reporter.iteration_time["parallel_scan_4_segments/pksk"];
  if (scan.count(1) != 0 && scan.count(2) != 0) {
    std::printf(
        "parallel scan, 4 segments: 2 threads are %.2fx as fast as 1 (%.1f ms / %.1f ms "
        "a table)\n",
        scan.at(1) / scan.at(2), scan.at(1), scan.at(2));
  }
  if (reporter.cpu_per_query.count(1) != 0 && reporter.cpu_per_query.count(2) != 0) {
    std::printf("CPU per query (each thread's own), 2 threads / 1 thread: %.2f\n",
                reporter.cpu_per_query[2] / reporter.cpu_per_query[1]);
  }
  double load[1] = {0};
  if (getloadavg(load, 1) == 1) std::printf("load average after the run: %.2f\n", load[0]);
  benchmark::Shutdown();
  return 0;
}
