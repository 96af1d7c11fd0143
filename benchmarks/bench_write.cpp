// SPDX-License-Identifier: BSL-1.0
// The write path, pksk beside hand-written sqlite3 code (hand_writer.hpp), in one binary, on
// file databases with pksk's pragmas (WAL, synchronous=NORMAL). Case names are
// "<group>/<variant>" as in bench_read.cpp: each group's pksk and hand variants do the same
// writes, and a `checksum` of the table afterwards (every column of every row) is equal when
// they stored the same rows.
//
//   put_all    N orders (default 100,000) into an empty table: table.put_all(orders) vs one
//              transaction of prepared INSERT OR REPLACE
//   put        one order, autocommit, replacing a stored one (its total changed: replacing()):
//              table.put(order) vs one insert
//   update     set status, add 1.0 to total: table.update(key, set, add) vs BEGIN IMMEDIATE,
//              SELECT body, simdjson decode, change, re-encode, write back, COMMIT
//   transact10 ten orders in one transaction: table.transact() with 10 puts vs BEGIN
//              IMMEDIATE; 10 inserts; COMMIT
//   (upsert: the same hand-written code with an upsert for a put and UPDATE for an update)
//
// Single-item cases write into a table that holds the first kResident orders and cycle over
// them, so every write replaces a stored item; each side has its own file.
//
// Two hand-written sides: `hand` as issue 19 wrote it (INSERT OR REPLACE for every write), and
// `upsert` (issue 42): puts as INSERT ... ON CONFLICT (pk, sk) DO UPDATE, an update's write as
// a plain UPDATE of the row just read. Every case also reports `wal_frames_per_item`, the WAL
// frames its commits appended (sqlite3_wal_hook, sqlite_util.hpp) per item written.

#include <benchmark/benchmark.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/sqlite.hpp>
#include "alloc_counter.hpp"
#include "hand_writer.hpp"
#include "model_entities.hpp"
#include "options.hpp"

namespace {

using namespace bench;

constexpr std::size_t kResident = 1000;  // items the single-item cases cycle over
constexpr std::array<std::string_view, 5> kStatuses{"pending", "paid", "shipped", "delivered",
                                                    "cancelled"};

Options g_options;
std::size_t g_orders = 100'000;

// The first g_orders orders of the dataset's generator, in key order.
const std::vector<Order>& orders() {
  static const std::vector<Order> all = [] {
    std::vector<Order> out;
    out.reserve(g_orders);
    for (int c = 0; out.size() < g_orders; ++c) {
      for (Order& o : generate_customer(c).orders) {
        if (out.size() == g_orders) break;
        out.push_back(std::move(o));
      }
    }
    return out;
  }();
  return all;
}

std::span<const Order> resident() {
  return std::span<const Order>(orders()).first(std::min(kResident, orders().size()));
}

// Order keys only: what a caller of update holds.
const std::vector<Order>& resident_keys() {
  static const std::vector<Order> keys = [] {
    std::vector<Order> out;
    for (const Order& o : resident())
      out.push_back({.customer_id = o.customer_id, .order_id = o.order_id});
    return out;
  }();
  return keys;
}

// A fresh file holding pksk's (empty) table, created through pksk so both sides get exactly
// its schema.
std::string fresh_file(std::string_view name) {
  std::filesystem::create_directories(g_options.data_dir);
  const std::string path = g_options.data_dir + "/" + std::string(name) + ".db";
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  pksk::sqlite::Backend backend{path};
  pksk::Table table{backend, std::string(kTable)};
  return path;
}

// Every column of every row, folded: equal on both sides when they stored the same rows.
double table_checksum(const std::string& path) {
  Db db(path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX);
  Stmt s(db, "SELECT pk, sk, \"type\", body, size FROM \"" + std::string(kTable) +
                 "\" ORDER BY pk, sk");
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a over the columns
  auto fold = [&](std::string_view text) {
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
    h = (h ^ 0xFF) * 1099511628211ULL;
  };
  while (s.step()) {
    for (int col = 0; col < 4; ++col) fold(s.text(col));
    fold(std::to_string(s.integer(4)));
  }
  // 52 bits: exact in the double a counter holds.
  return static_cast<double>(h >> 12);
}

void report(benchmark::State& state, const std::string& path, std::uint64_t allocs,
            std::size_t items_per_iteration, std::uint64_t wal_frames) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * items_per_iteration));
  state.counters["wal_frames_per_item"] =
      static_cast<double>(wal_frames) /
      static_cast<double>(state.iterations() * items_per_iteration);
  state.counters["checksum"] = table_checksum(path);
  state.counters["items_per_iteration"] = static_cast<double>(items_per_iteration);
  state.counters["allocs_per_item"] =
      static_cast<double>(allocs) / static_cast<double>(state.iterations() * items_per_iteration);
}

struct PkskWriter {
  pksk::sqlite::Backend backend;
  pksk::Table<pksk::sqlite::Backend> table;
  explicit PkskWriter(const std::string& path)
      : backend{path}, table{backend, std::string(kTable)} {}
};

// The hand-written writer that upserts (HandSql::upsert).
struct UpsertWriter : HandWriter {
  explicit UpsertWriter(const std::string& path) : HandWriter(path, HandSql::upsert) {}
};

// The connection a side writes on (pksk's: this thread's).
sqlite3* connection(PkskWriter& w) {
  return w.backend.native_handle();
}
sqlite3* connection(HandWriter& w) {
  return w.db().get();
}

// ---- put_all: the whole set into an empty table -----------------------------------------------

// The timed part of one put_all iteration, never inlined: callgrind counts it with
// --toggle-collect='*write_all*'.
template <class Writer, class Side>
[[gnu::noinline]] void write_all(Writer& write, Side& side, const std::vector<Order>& all) {
  write(side, all);
}

template <class Writer, class Open>
void put_all_case(benchmark::State& state, std::string_view name, Open&& open, Writer&& write) {
  const std::vector<Order>& all = orders();
  std::string path;
  std::uint64_t allocs = 0, frames = 0;
  for (auto _ : state) {
    state.PauseTiming();
    path = fresh_file(name);
    {
      auto side = open(path);
      const WalFrames wal(connection(*side));
      state.ResumeTiming();
      const std::uint64_t before = allocation_count();
      write_all(write, *side, all);
      allocs += allocation_count() - before;
      state.PauseTiming();
      frames += wal.frames();
    }  // closed untimed: the last checkpoint is the same on both sides and not measured
    state.ResumeTiming();
  }
  report(state, path, allocs, all.size(), frames);
}

void put_all_pksk(benchmark::State& state) {
  put_all_case(
      state, "write-put_all-pksk",
      [](const std::string& path) { return std::make_unique<PkskWriter>(path); },
      [](PkskWriter& w, const std::vector<Order>& all) { w.table.put_all(all); });
}

void put_all_hand(benchmark::State& state) {
  put_all_case(
      state, "write-put_all-hand",
      [](const std::string& path) { return std::make_unique<HandWriter>(path); },
      [](HandWriter& w, const std::vector<Order>& all) { w.put_all(all); });
}

void put_all_upsert(benchmark::State& state) {
  put_all_case(
      state, "write-put_all-upsert",
      [](const std::string& path) { return std::make_unique<UpsertWriter>(path); },
      [](UpsertWriter& w, const std::vector<Order>& all) { w.put_all(all); });
}

// ---- single writes on a table holding the resident orders ------------------------------------

// A file holding the resident orders, written by the side under test.
template <class Side, class Fill>
std::unique_ptr<Side> resident_side(std::string_view name, std::string& path, Fill&& fill) {
  path = fresh_file(name);
  auto side = std::make_unique<Side>(path);
  fill(*side);
  return side;
}

// One write, never inlined: callgrind counts a write's instructions with
// --toggle-collect='*write_once*' (instructions / calls).
template <class Write>
[[gnu::noinline]] void write_once(Write& write, std::size_t i) {
  write(i);
}

// Runs `write(step)` for steps 0, 1, 2, ...: a warm-up of 64, then the timed loop, which goes
// on from there; counts allocations and WAL frames over the timed loop. Then `settle()`,
// untimed, brings the table to a state that does not depend on how many steps ran, so that
// the checksum compares the sides.
template <class Write, class Settle>
void single_case(benchmark::State& state, const std::string& path, sqlite3* db,
                 std::size_t per_iteration, Write&& write, Settle&& settle) {
  std::size_t step = 0;
  for (; step < std::min<std::size_t>(resident().size(), 64); ++step) write_once(write, step);
  const WalFrames wal(db);
  const std::uint64_t before = allocation_count();
  for (auto _ : state) write_once(write, step++);
  const std::uint64_t allocs = allocation_count() - before, frames = wal.frames();
  settle();
  report(state, path, allocs, per_iteration, frames);
}

template <class Write>
void single_case(benchmark::State& state, const std::string& path, sqlite3* db,
                 std::size_t per_iteration, Write&& write) {
  single_case(state, path, db, per_iteration, std::forward<Write>(write), [] {});
}

// A replacing put changes the stored item, as a put that replaces one does in use (a put of
// the very bytes stored is a no-op for an upsert: SQLite leaves a cell it would overwrite with
// the same bytes alone, and the commit writes no WAL frame). Step `step` of a cycle over the
// resident orders writes its order as stored (even passes) or with 1.0 added to its total (odd
// passes), so each write changes what the previous one of that order wrote.
const Order& replacing(std::size_t step) {
  static const std::vector<Order> changed = [] {
    std::vector<Order> out(resident().begin(), resident().end());
    for (Order& o : out) o.total += 1.0;
    return out;
  }();
  const std::size_t cycle = resident().size(), i = step % cycle;
  return (step / cycle) % 2 == 0 ? resident()[i] : changed[i];
}

void put_pksk(benchmark::State& state) {
  std::string path;
  auto w = resident_side<PkskWriter>("write-put-pksk", path,
                                     [](PkskWriter& s) { s.table.put_all(resident()); });
  single_case(
      state, path, connection(*w), 1, [&](std::size_t step) { w->table.put(replacing(step)); },
      [&] {
        for (const Order& o : resident()) w->table.put(o);
      });
}

void put_hand(benchmark::State& state) {
  std::string path;
  auto w = resident_side<HandWriter>("write-put-hand", path,
                                     [](HandWriter& s) { s.put_all(resident()); });
  single_case(
      state, path, connection(*w), 1, [&](std::size_t step) { w->put(replacing(step)); },
      [&] {
        for (const Order& o : resident()) w->put(o);
      });
}

void put_upsert(benchmark::State& state) {
  std::string path;
  auto w = resident_side<UpsertWriter>("write-put-upsert", path,
                                       [](UpsertWriter& s) { s.put_all(resident()); });
  single_case(
      state, path, connection(*w), 1, [&](std::size_t step) { w->put(replacing(step)); },
      [&] {
        for (const Order& o : resident()) w->put(o);
      });
}

void update_pksk(benchmark::State& state) {
  std::string path;
  auto w = resident_side<PkskWriter>("write-update-pksk", path,
                                     [](PkskWriter& s) { s.table.put_all(resident()); });
  const std::vector<Order>& keys = resident_keys();
  single_case(state, path, connection(*w), 1, [&](std::size_t step) {
    const std::size_t i = step % keys.size();
    Order o = w->table.update(keys[i], pksk::set(&Order::status, std::string(kStatuses[i % 5])),
                              pksk::add(&Order::total, 1.0));
    benchmark::DoNotOptimize(o);
  });
}

void update_hand(benchmark::State& state) {
  std::string path;
  auto w = resident_side<HandWriter>("write-update-hand", path,
                                     [](HandWriter& s) { s.put_all(resident()); });
  const std::vector<Order>& keys = resident_keys();
  single_case(state, path, connection(*w), 1, [&](std::size_t step) {
    const std::size_t i = step % keys.size();
    Order o = w->update(keys[i], kStatuses[i % 5], 1.0);
    benchmark::DoNotOptimize(o);
  });
}

void update_upsert(benchmark::State& state) {
  std::string path;
  auto w = resident_side<UpsertWriter>("write-update-upsert", path,
                                       [](UpsertWriter& s) { s.put_all(resident()); });
  const std::vector<Order>& keys = resident_keys();
  single_case(state, path, connection(*w), 1, [&](std::size_t step) {
    const std::size_t i = step % keys.size();
    Order o = w->update(keys[i], kStatuses[i % 5], 1.0);
    benchmark::DoNotOptimize(o);
  });
}

constexpr std::size_t kTransact = 10;

// Step `step`'s group of ten resident orders (wrapping), as replacing() has them: each write
// of a group changes what the previous one wrote.
std::span<const Order> ten(std::size_t step) {
  const std::size_t groups = resident().size() / kTransact, first = (step % groups) * kTransact;
  const std::size_t as_step = ((step / groups) % 2) * resident().size() + first;
  return std::span<const Order>(&replacing(as_step), kTransact);
}

// Every group of ten as stored (ten()'s even passes).
template <class Write>
void settle_tens(Write&& write) {
  for (std::size_t g = 0; g < resident().size() / kTransact; ++g) write(ten(g));
}

void transact10_pksk(benchmark::State& state) {
  std::string path;
  auto w = resident_side<PkskWriter>("write-transact-pksk", path,
                                     [](PkskWriter& s) { s.table.put_all(resident()); });
  const auto write = [&](std::span<const Order> orders) {
    auto t = w->table.transact();
    for (const Order& o : orders) t.put(o);
    t.commit();
  };
  single_case(
      state, path, connection(*w), kTransact, [&](std::size_t step) { write(ten(step)); },
      [&] { settle_tens(write); });
}

void transact10_hand(benchmark::State& state) {
  std::string path;
  auto w = resident_side<HandWriter>("write-transact-hand", path,
                                     [](HandWriter& s) { s.put_all(resident()); });
  single_case(
      state, path, connection(*w), kTransact, [&](std::size_t step) { w->put_all(ten(step)); },
      [&] { settle_tens([&](std::span<const Order> orders) { w->put_all(orders); }); });
}

void transact10_upsert(benchmark::State& state) {
  std::string path;
  auto w = resident_side<UpsertWriter>("write-transact-upsert", path,
                                       [](UpsertWriter& s) { s.put_all(resident()); });
  single_case(
      state, path, connection(*w), kTransact, [&](std::size_t step) { w->put_all(ten(step)); },
      [&] { settle_tens([&](std::span<const Order> orders) { w->put_all(orders); }); });
}

bool g_min_time_given = false;  // --benchmark_min_time on the command line: it rules

void register_all() {
  const bool flag_rules = g_orders < 10'000 || g_min_time_given;  // tiny runs: as the flag says
  auto reg = [&](const char* name, void (*fn)(benchmark::State&), double min_time) {
    auto* b = benchmark::RegisterBenchmark(name, fn)->Unit(benchmark::kMicrosecond);
    if (!flag_rules) b->MinTime(min_time);
  };
  reg("put_all/hand", put_all_hand, 2.0);
  reg("put_all/upsert", put_all_upsert, 2.0);
  reg("put_all/pksk", put_all_pksk, 2.0);
  reg("put/hand", put_hand, 1.0);
  reg("put/upsert", put_upsert, 1.0);
  reg("put/pksk", put_pksk, 1.0);
  reg("update/hand", update_hand, 1.0);
  reg("update/upsert", update_upsert, 1.0);
  reg("update/pksk", update_pksk, 1.0);
  reg("transact10/hand", transact10_hand, 1.0);
  reg("transact10/upsert", transact10_upsert, 1.0);
  reg("transact10/pksk", transact10_pksk, 1.0);
}

}  // namespace

int main(int argc, char** argv) {
  // --orders=N (or PKSK_BENCH_ORDERS): the put_all set; the rest as bench_read takes them.
  if (const char* v = std::getenv("PKSK_BENCH_ORDERS")) g_orders = std::stoul(v);
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.starts_with("--benchmark_min_time")) g_min_time_given = true;
    if (a.starts_with("--orders=")) {
      g_orders = std::stoul(std::string(a.substr(9)));
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  g_options = parse_options(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_all();
  benchmark::AddCustomContext("orders", std::to_string(g_orders));
  benchmark::AddCustomContext("sqlite", sqlite3_libversion());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
