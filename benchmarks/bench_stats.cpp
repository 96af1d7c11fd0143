// SPDX-License-Identifier: BSL-1.0
// table.stats() on the read benchmarks' dataset (100 items a customer: 1,000 customers are
// 100,000 items), against the least a program could do on the same file in the same run: one
// SQL statement that groups the rows by partition key and type, counting them and summing the
// stored sizes (`stats_sql/baseline`). pksk's side scans the table through the backend, in one
// segment and in four (each a thread: SQLite's segments each walk the whole file), tallies
// every item, ranks the collections and judges them. The run ends with the ratios.

#include <benchmark/benchmark.h>
#include <sqlite3.h>

#include <cstdio>
#include <map>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

#include "options.hpp"
#include "setup.hpp"
#include "sqlite_util.hpp"

namespace {

using namespace bench;

Options g_options;

const std::string& dataset(int customers) {
  static std::map<int, std::string> paths;
  auto it = paths.find(customers);
  if (it == paths.end())
    it = paths.emplace(customers, ensure_dataset(g_options.data_dir, customers)).first;
  return it->second;
}

void stats_pksk(benchmark::State& state, std::size_t segments) {
  const auto customers = static_cast<int>(state.range(0));
  pksk::sqlite::Backend backend{dataset(customers)};
  pksk::Table table{backend, std::string(kTable)};
  std::size_t items = 0;
  for (auto _ : state) {
    const pksk::TableStats stats = table.stats({.segments = segments});
    items += stats.items;
    benchmark::DoNotOptimize(stats);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(items));
}

void stats_sql(benchmark::State& state) {
  const auto customers = static_cast<int>(state.range(0));
  Db db(dataset(customers));
  Stmt group(db, "SELECT pk, type, count(*), sum(size) FROM shop GROUP BY pk, type");
  std::size_t items = 0;
  for (auto _ : state) {
    std::map<std::string, std::pair<std::size_t, std::size_t>, std::less<>> collections;
    sqlite3_reset(group.get());
    while (sqlite3_step(group.get()) == SQLITE_ROW) {
      auto& c = collections[reinterpret_cast<const char*>(sqlite3_column_text(group.get(), 0))];
      const auto n = static_cast<std::size_t>(sqlite3_column_int64(group.get(), 2));
      c.first += n;
      c.second += static_cast<std::size_t>(sqlite3_column_int64(group.get(), 3));
      items += n;
    }
    benchmark::DoNotOptimize(collections);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(items));
}

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> time;  // by run name
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type == Run::RT_Iteration && !run.error_occurred)
        time[run.benchmark_name()] = run.GetAdjustedRealTime();
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace

int main(int argc, char** argv) {
  g_options = parse_options(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::vector<int> sizes{g_options.customers};
  for (const int s : g_options.scale) sizes.push_back(s);
  for (const int customers : sizes) {
    benchmark::RegisterBenchmark("stats_sql/baseline", stats_sql)
        ->Arg(customers)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark("stats/pksk_1_segment", stats_pksk, std::size_t{1})
        ->Arg(customers)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark("stats/pksk_4_segments", stats_pksk, std::size_t{4})
        ->Arg(customers)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  for (const int customers : sizes) {
    const std::string n = "/" + std::to_string(customers) + "/real_time";
    const auto base = reporter.time.find("stats_sql/baseline" + n);
    if (base == reporter.time.end()) continue;
    for (const char* side : {"stats/pksk_1_segment", "stats/pksk_4_segments"}) {
      const auto it = reporter.time.find(side + n);
      if (it == reporter.time.end()) continue;
      std::printf("%d customers: %s / SQL GROUP BY = %.2f (%.1f ms / %.1f ms)\n", customers, side,
                  it->second / base->second, it->second, base->second);
    }
  }
  benchmark::Shutdown();
  return 0;
}
