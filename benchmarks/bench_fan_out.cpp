// SPDX-License-Identifier: BSL-1.0
// Fan-out reads over time buckets, read one bucket after another and in parallel, against one
// query of the same items kept in a single partition, in one run:
//
//   fan_out/<backend>/year_parallel<N>     query_buckets over twelve monthly buckets (all of a
//                                          year, `--items` items), N partitions at once (1:
//                                          one after another, the baseline)
//   fan_out/<backend>/newest20_parallel<N> the 20 newest of the year: the merge still needs
//                                          each bucket's first page before it can take one
//   fan_out/<backend>/one_partition        the same year as one query of an unbucketed entity
//                                          holding the same items (what the buckets cost)
//
// <backend> is sqlite (a file in --data-dir) and, when PKSK_DYNAMODB_ENDPOINT is set,
// dynamodb (DynamoDB Local, say: benchmarks/run_dynamodb.sh starts it). Each case checks the
// items it read (count and a checksum equal across the cases of a backend). Times are real
// (wall-clock) times: the calling thread's CPU time leaves out the pool's threads.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>
#include <string>
#include <string_view>
#include <vector>

#ifdef PKSK_BENCH_WITH_DYNAMODB
#include <pksk/dynamodb.hpp>
#endif

namespace bench_fan_out {

struct Reading {
  std::string device;
  std::chrono::system_clock::time_point at;
  int value{};
  std::string unit;
};
struct FlatReading {  // the same, in one partition per device
  std::string device;
  std::chrono::system_clock::time_point at;
  int value{};
  std::string unit;
};

}  // namespace bench_fan_out

template <>
struct pksk::Entity<bench_fan_out::Reading> {
  static constexpr std::string_view type = "Reading";
  static constexpr std::string_view pk = "DEVICE#{device}#{at:month}";
  static constexpr std::string_view sk = "{at}";
};
template <>
struct pksk::Entity<bench_fan_out::FlatReading> {
  static constexpr std::string_view type = "FlatReading";
  static constexpr std::string_view pk = "FLAT#{device}";
  static constexpr std::string_view sk = "{at}";
};

namespace bench_fan_out {
namespace {

using namespace std::chrono;

int g_items = 1200;  // --items: over 2024, about 100 a month
std::string g_data_dir = "bench-data";

const sys_days kJan1{year{2024} / 1 / 1};
const system_clock::time_point kFrom = kJan1;
const system_clock::time_point kTo = sys_days{year{2024} / 12 / 31} + hours{23};

Reading reading(int i) {
  // Spread evenly over the 366 days of 2024, so every month holds about the same share.
  const auto step = duration_cast<system_clock::duration>(hours{24 * 366}) / g_items;
  return Reading{.device = "d1", .at = kFrom + step * i, .value = i, .unit = "kWh"};
}

std::uint64_t checksum(const std::vector<Reading>& items) {
  std::uint64_t sum = 0;
  for (const Reading& r : items) sum = sum * 31 + static_cast<std::uint64_t>(r.value);
  return sum;
}
std::uint64_t checksum(const std::vector<FlatReading>& items) {
  std::uint64_t sum = 0;
  for (const FlatReading& r : items) sum = sum * 31 + static_cast<std::uint64_t>(r.value);
  return sum;
}

template <class B>
void fill(pksk::Table<B>& table) {
  std::vector<Reading> readings;
  std::vector<FlatReading> flat;
  for (int i = 0; i < g_items; ++i) {
    readings.push_back(reading(i));
    const Reading& r = readings.back();
    flat.push_back(FlatReading{.device = r.device, .at = r.at, .value = r.value, .unit = r.unit});
  }
  table.put_all(readings);
  table.put_all(flat);
}

template <class B>
void year_case(benchmark::State& state, pksk::Table<B>& table, std::size_t parallel) {
  std::uint64_t sum = 0;
  for (auto _ : state) {
    const auto items = table.template query_buckets<Reading>(Reading{.device = "d1"}, kFrom, kTo,
                                                             {.parallel = parallel});
    if (items.size() != static_cast<std::size_t>(g_items)) state.SkipWithError("wrong item count");
    sum = checksum(items);
  }
  state.counters["checksum"] = static_cast<double>(sum % 1000000007);
  state.SetItemsProcessed(state.iterations() * g_items);
}

template <class B>
void newest_case(benchmark::State& state, pksk::Table<B>& table, std::size_t parallel) {
  std::uint64_t sum = 0;
  for (auto _ : state) {
    const auto items = table.template query_buckets<Reading>(
        Reading{.device = "d1"}, kFrom, kTo, {.forward = false, .limit = 20, .parallel = parallel});
    if (items.size() != 20 || items.front().value != g_items - 1)
      state.SkipWithError("wrong items");
    sum = checksum(items);
  }
  state.counters["checksum"] = static_cast<double>(sum % 1000000007);
  state.SetItemsProcessed(state.iterations() * 20);
}

template <class B>
void one_partition_case(benchmark::State& state, pksk::Table<B>& table) {
  std::uint64_t sum = 0;
  const pksk::PartitionKey pk = pksk::partition(FlatReading{.device = "d1"});
  for (auto _ : state) {
    const auto items = table.template query<FlatReading>(pk);
    if (items.size() != static_cast<std::size_t>(g_items)) state.SkipWithError("wrong item count");
    sum = checksum(items);
  }
  state.counters["checksum"] = static_cast<double>(sum % 1000000007);
  state.SetItemsProcessed(state.iterations() * g_items);
}

template <class B>
void register_cases(const std::string& backend, pksk::Table<B>& table) {
  for (const std::size_t parallel : {1, 4, 8, 12}) {
    benchmark::RegisterBenchmark(
        ("fan_out/" + backend + "/year_parallel" + std::to_string(parallel)).c_str(),
        [&table, parallel](benchmark::State& s) { year_case(s, table, parallel); })
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
  }
  for (const std::size_t parallel : {1, 8}) {
    benchmark::RegisterBenchmark(
        ("fan_out/" + backend + "/newest20_parallel" + std::to_string(parallel)).c_str(),
        [&table, parallel](benchmark::State& s) { newest_case(s, table, parallel); })
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
  }
  benchmark::RegisterBenchmark(("fan_out/" + backend + "/one_partition").c_str(),
                               [&table](benchmark::State& s) { one_partition_case(s, table); })
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime();
}

}  // namespace
}  // namespace bench_fan_out

int main(int argc, char** argv) {
  using namespace bench_fan_out;
  benchmark::Initialize(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--items=")) g_items = std::stoi(std::string(arg.substr(8)));
    if (arg.starts_with("--data-dir=")) g_data_dir = std::string(arg.substr(11));
  }
  std::filesystem::create_directories(g_data_dir);
  const std::string file =
      g_data_dir + "/fan_out_" + std::to_string(g_items) + "_" + std::to_string(::getpid()) + ".db";
  auto sqlite = std::make_unique<pksk::sqlite::Backend>(file);
  auto sqlite_table = std::make_unique<pksk::Table<pksk::sqlite::Backend>>(*sqlite, "fan_out");
  fill(*sqlite_table);
  register_cases("sqlite", *sqlite_table);
#ifdef PKSK_BENCH_WITH_DYNAMODB
  std::unique_ptr<pksk::dynamodb::Backend> ddb;
  std::unique_ptr<pksk::Table<pksk::dynamodb::Backend>> ddb_table;
  if (const char* endpoint = std::getenv("PKSK_DYNAMODB_ENDPOINT"); endpoint && *endpoint) {
    ddb = std::make_unique<pksk::dynamodb::Backend>(
        pksk::dynamodb::Options{.endpoint = endpoint,
                                .region = "us-east-1",
                                .credentials = pksk::dynamodb::Credentials{"pksk", "bench", ""},
                                .create_missing_tables = true});
    ddb_table = std::make_unique<pksk::Table<pksk::dynamodb::Backend>>(
        *ddb, "fan_out_" + std::to_string(::getpid()));
    fill(*ddb_table);
    register_cases("dynamodb", *ddb_table);
  }
#endif
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
#ifdef PKSK_BENCH_WITH_DYNAMODB
  ddb_table.reset();
#endif
  sqlite_table.reset();
  sqlite.reset();
  std::filesystem::remove(file);
  std::filesystem::remove(file + "-wal");
  std::filesystem::remove(file + "-shm");
  return 0;
}
