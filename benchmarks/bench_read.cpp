// SPDX-License-Identifier: BSL-1.0
// The read path, pksk beside its hand-written baselines, in one binary on the same data.
// Case names are "<group>/<variant>": plot.py divides pksk's time by each other variant's in the
// same group. Every case also reports, from an untimed pass over the first kVerifyQueries of
// the customer stream: a checksum of what it decoded (equal between pksk and the floor when
// both did the same work), items per query, and heap allocations per query and per item.

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "alloc_counter.hpp"
#include "filter_floor.hpp"
#include "floor.hpp"
#include "index_side.hpp"
#include "model.hpp"
#include "nlohmann_decode.hpp"
#include "options.hpp"
#include "setup.hpp"

namespace {

using namespace bench;

constexpr std::size_t kVerifyQueries = 64;
// The date-range query: about one month of one customer's orders (7 or 8 items).
constexpr std::string_view kRangeLow = "#ORDER#2020-06";
constexpr std::string_view kRangeHigh = "#ORDER#2020-07";

Options g_options;

struct RowsResult {
  std::size_t rows = 0;
  Checksum sum;
};
std::size_t fold(const RowsResult& r, Checksum& cs) {
  cs.value += r.sum.value;
  return r.rows;
}
// One decoded body: decode cases return a Customer or an Order.
template <class A, class B>
std::size_t fold(const std::pair<std::optional<A>, std::optional<B>>& r, Checksum& cs) {
  if (r.first) cs.add(*r.first);
  if (r.second) cs.add(*r.second);
  return 1;
}

// One dataset (a file) and the readers opened on it, shared by the cases that read it.
struct Env {
  std::string path;
  CustomerStream stream;
  Floor floor;
  Normalised normalised;
  PkskSide pksk;
  PkskAnySide pksk_any;
  FilterFloor filter_floor;
  std::vector<pksk::PartitionKey> pksk_pks;

  explicit Env(int customers)
      : path(ensure_dataset(g_options.data_dir, customers)),
        stream(customers),
        floor(path),
        normalised(path),
        pksk(path),
        pksk_any(path),
        filter_floor(path),
        pksk_pks(pksk_partitions(stream)) {}
};

Env& env(int customers) {
  static std::map<int, std::unique_ptr<Env>> envs;
  auto& e = envs[customers];
  if (!e) e = std::make_unique<Env>(customers);
  return *e;
}

// Runs `query(i)` for the i-th pick of a fixed stream: once to warm up, kVerifyQueries times
// untimed to count allocations and fold the checksum, then in the timed loop.
template <class Query>
void measure(benchmark::State& state, std::size_t stream_size, Query&& query) {
  benchmark::DoNotOptimize(query(0));
  Checksum checksum;
  std::size_t items = 0;
  const std::size_t verify = std::min(kVerifyQueries, stream_size);
  const std::uint64_t allocs_before = allocation_count();
  for (std::size_t i = 0; i < verify; ++i) {
    auto result = query(i);
    items += fold(result, checksum);
  }
  const auto allocs = static_cast<double>(allocation_count() - allocs_before);

  std::size_t i = 0;
  for (auto _ : state) {
    auto result = query(i);
    benchmark::DoNotOptimize(result);
    if (++i == stream_size) i = 0;
  }

  const double per_query = static_cast<double>(items) / static_cast<double>(verify);
  state.SetItemsProcessed(
      static_cast<std::int64_t>(per_query * static_cast<double>(state.iterations())));
  state.counters["checksum"] = static_cast<double>(checksum.value);
  state.counters["items_per_query"] = per_query;
  state.counters["allocs_per_query"] = allocs / static_cast<double>(verify);
  state.counters["allocs_per_item"] = items ? allocs / static_cast<double>(items) : 0.0;
}

// ---- collection: every item of one customer's partition ---------------------------------------

void collection_rows_only(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(), [&](std::size_t i) {
    RowsResult r;
    r.rows = e.floor.rows_only(e.stream.pks[i], r.sum);
    return r;
  });
}

void collection_floor(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(),
          [&](std::size_t i) { return e.floor.collection(e.stream.pks[i]); });
}

void collection_normalised_3q(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(),
          [&](std::size_t i) { return e.normalised.three_queries(e.stream.ids[i]); });
}

void collection_normalised_join(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(),
          [&](std::size_t i) { return e.normalised.join(e.stream.ids[i]); });
}

void collection_normalised_n1(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(),
          [&](std::size_t i) { return e.normalised.n_plus_one(e.stream.ids[i]); });
}

void collection_pksk(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(), [&](std::size_t i) { return e.pksk.collection(e.pksk_pks[i]); });
}

// The same query through Table<AnyBackend> (issue 35): within 2% of collection/pksk.
void collection_pksk_any(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(),
          [&](std::size_t i) { return e.pksk_any.collection(e.pksk_pks[i]); });
}

// ---- "A" + newest 10, and a date range ---------------------------------------------------------

void newest10_floor(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(),
          [&](std::size_t i) { return e.floor.newest(e.stream.pks[i], 11); });
}

void range_floor(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(),
          [&](std::size_t i) { return e.floor.range(e.stream.pks[i], kRangeLow, kRangeHigh); });
}

void newest10_pksk(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(), [&](std::size_t i) { return e.pksk.newest(e.pksk_pks[i]); });
}

void newest10_pksk_any(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(), [&](std::size_t i) { return e.pksk_any.newest(e.pksk_pks[i]); });
}

void range_pksk(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(),
          [&](std::size_t i) { return e.pksk.range(e.pksk_pks[i], kRangeLow, kRangeHigh); });
}

// ---- a filtered collection query, and a projection (issue 20) ---------------------------------

// About a third of the orders cost more than this.
constexpr double kTotalThreshold = 1000.0;

void filtered_floor(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(), [&](std::size_t i) {
    return e.filter_floor.collection_total_above(e.stream.pks[i], kTotalThreshold);
  });
}

void filtered_pksk(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(),
          [&](std::size_t i) { return e.pksk.total_above(e.pksk_pks[i], kTotalThreshold); });
}

// ---- an index query (issue 20): a customer's orders by status, through gsi1
// -----------------------

struct IndexEnv {
  std::string path;
  CustomerStream stream;
  IndexFloor floor;
  PkskIndexSide pksk;
  std::vector<pksk::PartitionKey> pksk_pks;

  explicit IndexEnv(int customers)
      : path(ensure_index_dataset(g_options.data_dir, customers)),
        stream(customers),
        floor(path),
        pksk(path),
        pksk_pks(pksk_partitions(stream)) {}
};

IndexEnv& index_env(int customers) {
  static std::map<int, std::unique_ptr<IndexEnv>> envs;
  auto& e = envs[customers];
  if (!e) e = std::make_unique<IndexEnv>(customers);
  return *e;
}

void index_floor(benchmark::State& state, int customers) {
  IndexEnv& e = index_env(customers);
  measure(state, e.stream.size(),
          [&](std::size_t i) { return e.floor.orders_by_status(e.stream.pks[i]); });
}

void index_pksk(benchmark::State& state, int customers) {
  IndexEnv& e = index_env(customers);
  measure(state, e.stream.size(),
          [&](std::size_t i) { return e.pksk.orders_by_status(e.pksk_pks[i]); });
}

void projection_full(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(), [&](std::size_t i) { return e.pksk.orders(e.pksk_pks[i]); });
}

void projection_two_members(benchmark::State& state, int customers) {
  Env& e = env(customers);
  measure(state, e.stream.size(),
          [&](std::size_t i) { return e.pksk.orders_projected(e.pksk_pks[i]); });
}

// ---- decode only, from the same bodies in memory -----------------------------------------------

struct Body {
  bool is_order;
  std::string json;
};

// The first items of the table in key order: the bytes every decoder reads are the stored ones.
const std::vector<Body>& corpus(int customers) {
  static std::map<int, std::vector<Body>> corpora;
  auto& c = corpora[customers];
  if (c.empty()) {
    Db db(env(customers).path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX);
    Stmt s(db,
           "SELECT \"type\", body FROM \"" + std::string(kTable) + "\" ORDER BY pk, sk LIMIT 5000");
    while (s.step()) c.push_back({s.text(0) == "Order", std::string(s.text(1))});
  }
  return c;
}

template <class Decode>
void decode_case(benchmark::State& state, int customers, Decode&& decode) {
  const std::vector<Body>& bodies = corpus(customers);
  std::size_t bytes = 0;
  for (const Body& b : bodies) bytes += b.json.size();
  // One "query" is one item here: allocations per query and per item coincide.
  measure(state, bodies.size(), [&](std::size_t i) {
    std::pair<std::optional<Customer>, std::optional<Order>> r;
    if (bodies[i].is_order) {
      decode(bodies[i].json, r.second.emplace());
    } else {
      decode(bodies[i].json, r.first.emplace());
    }
    return r;
  });
  const double mean_body = static_cast<double>(bytes) / static_cast<double>(bodies.size());
  state.SetBytesProcessed(
      static_cast<std::int64_t>(mean_body * static_cast<double>(state.iterations())));
  state.counters["mean_body_bytes"] = mean_body;
}

void decode_simdjson(benchmark::State& state, int customers) {
  HandDecoder decoder;
  decode_case(state, customers,
              [&](std::string_view body, auto& out) { decoder.decode(body, out); });
}

void decode_nlohmann(benchmark::State& state, int customers) {
  decode_case(state, customers,
              [](std::string_view body, auto& out) { nlohmann_decode(body, out); });
}

void decode_pksk(benchmark::State& state, int customers) {
  pksk::BodyDecoder decoder;
  decode_case(state, customers,
              [&](std::string_view body, auto& out) { decoder.decode(body, out); });
}

void register_all() {
  const int n = g_options.customers;
  auto reg = [](const std::string& name, void (*fn)(benchmark::State&, int), int customers) {
    benchmark::RegisterBenchmark(name.c_str(), fn, customers)->Unit(benchmark::kMicrosecond);
  };
  reg("collection/rows_only", collection_rows_only, n);
  reg("collection/floor", collection_floor, n);
  reg("collection/pksk", collection_pksk, n);
  reg("collection/pksk_any", collection_pksk_any, n);
  reg("newest10/pksk", newest10_pksk, n);
  reg("newest10/pksk_any", newest10_pksk_any, n);
  reg("range/pksk", range_pksk, n);
  reg("decode/pksk", decode_pksk, n);
  reg("collection/normalised_3q", collection_normalised_3q, n);
  reg("collection/normalised_join", collection_normalised_join, n);
  reg("collection/normalised_n+1", collection_normalised_n1, n);
  reg("newest10/floor", newest10_floor, n);
  reg("range/floor", range_floor, n);
  reg("decode/simdjson", decode_simdjson, n);
  reg("decode/nlohmann", decode_nlohmann, n);
  reg("filtered/pksk", filtered_pksk, n);
  reg("filtered/floor", filtered_floor, n);
  reg("index/pksk", index_pksk, n);
  reg("index/floor", index_floor, n);
  reg("projection/pksk", projection_two_members, n);
  reg("projection/full", projection_full, n);
  for (int customers : g_options.scale) {
    const std::string items = std::to_string(customers * (kOrdersPerCustomer + 1));
    reg("scale_" + items + "/floor", collection_floor, customers);
    reg("scale_" + items + "/pksk", collection_pksk, customers);
  }
}

}  // namespace

int main(int argc, char** argv) {
  g_options = parse_options(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_all();
  // On-Demand code is the implementation compiled in, not the one simdjson dispatches to.
  // (simdjson::builtin_implementation() would name the shared library's, not this binary's.)
#define PKSK_BENCH_STR2(x) #x
#define PKSK_BENCH_STR(x) PKSK_BENCH_STR2(x)
  benchmark::AddCustomContext("simdjson_builtin", PKSK_BENCH_STR(SIMDJSON_BUILTIN_IMPLEMENTATION));
  benchmark::AddCustomContext("customers", std::to_string(g_options.customers));
  benchmark::AddCustomContext("items",
                              std::to_string(g_options.customers * (kOrdersPerCustomer + 1)));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
