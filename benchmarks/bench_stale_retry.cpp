// SPDX-License-Identifier: BSL-1.0
// A stale-version write as an optimistic-locking retry loop meets it, thrown and caught
// (`stale_put/throw`: table.put in a try block) against returned (`stale_put/try`:
// table.try_put), on an in-memory SQLite table, and the same for an update. Each iteration is
// one failed write of a copy read at an older version: the work of the failure alone, with the
// store's condition check, and no write. The ratio try/throw is what an application saves on
// each lost race; `bench.stale_retry_tiny` runs every case once in the tests.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

namespace {

struct Account {
  std::string id;
  std::int64_t balance = 0;
  std::int64_t rev = 0;
};

}  // namespace

template <>
struct pksk::Entity<Account> {
  static constexpr std::string_view type = "Account";
  static constexpr std::string_view pk = "ACCOUNT#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::string_view version = "rev";
};

namespace {

struct Stale {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table<pksk::sqlite::Backend> table{backend, "accounts"};
  Account old;

  Stale() {
    Account account{.id = "a1", .balance = 10};
    table.put(account);
    old = account;       // read at version 1
    table.put(account);  // another write: now at version 2
  }
};

void stale_put_throw(benchmark::State& state) {
  Stale s;
  std::int64_t failures = 0;
  for (auto _ : state) {
    try {
      s.table.put(s.old);
    } catch (const pksk::ConditionFailed&) {
      ++failures;
    }
  }
  state.counters["failures"] = static_cast<double>(failures);
}

void stale_put_try(benchmark::State& state) {
  Stale s;
  std::int64_t failures = 0;
  for (auto _ : state) {
    const pksk::WriteResult<void> written = s.table.try_put(s.old);
    if (!written) ++failures;
  }
  state.counters["failures"] = static_cast<double>(failures);
}

void stale_update_throw(benchmark::State& state) {
  Stale s;
  std::int64_t failures = 0;
  for (auto _ : state) {
    try {
      benchmark::DoNotOptimize(
          s.table.update(s.old, pksk::add(&Account::balance, std::int64_t{1})));
    } catch (const pksk::ConditionFailed&) {
      ++failures;
    }
  }
  state.counters["failures"] = static_cast<double>(failures);
}

void stale_update_try(benchmark::State& state) {
  Stale s;
  std::int64_t failures = 0;
  for (auto _ : state) {
    const pksk::WriteResult<Account> updated =
        s.table.try_update(s.old, pksk::add(&Account::balance, std::int64_t{1}));
    if (!updated) ++failures;
  }
  state.counters["failures"] = static_cast<double>(failures);
}

BENCHMARK(stale_put_throw)->Name("stale_put/throw");
BENCHMARK(stale_put_try)->Name("stale_put/try");
BENCHMARK(stale_update_throw)->Name("stale_update/throw");
BENCHMARK(stale_update_try)->Name("stale_update/try");

}  // namespace

BENCHMARK_MAIN();
