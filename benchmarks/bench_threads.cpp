// Collection-query throughput with 1 and 2 threads sharing one pksk::Table over one
// pksk::sqlite::Backend (issue 23): each thread queries whole customer collections (a customer
// and its orders) through the same Table, on its own connection. Items per second are counted
// over wall-clock time, and the run ends with the ratio of 2 threads to 1, measured in the
// same process on the same data.

#include <benchmark/benchmark.h>

#include <cstdio>
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
  for (auto _ : state) {
    auto result = s.pksk.collection(s.pks[i]);
    items += result.size();
    benchmark::DoNotOptimize(result);
    if (++i == n) i = 0;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(items));
}

// Prints as the console reporter does, and keeps items/s per thread count for the ratio.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  std::map<int, double> items_per_second;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration || run.error_occurred) continue;
      const auto it = run.counters.find("items_per_second");
      if (it != run.counters.end()) items_per_second[static_cast<int>(run.threads)] = it->second;
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
  benchmark::AddCustomContext("customers", std::to_string(g_options.customers));
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  if (reporter.items_per_second.count(1) != 0 && reporter.items_per_second.count(2) != 0) {
    std::printf("threads ratio (items/s, 2 threads / 1 thread): %.2f\n",
                reporter.items_per_second[2] / reporter.items_per_second[1]);
  }
  benchmark::Shutdown();
  return 0;
}
