// SPDX-License-Identifier: BSL-1.0
// Crash atomicity (issue 23, item 4): a child process runs transactions, batches and
// conditional updates on a file and is killed with SIGKILL at a random moment; the file then
// opens, passes PRAGMA integrity_check, and every operation is wholly present or wholly absent.
// Every operation the child reported as returned is present: a process crash loses nothing
// committed, whatever the synchronous level (docs/durability.md).
//
// PKSK_CRASH_TRIALS sets the number of trials (default 200; 1000 for the long mode).

#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/numbered.hpp"
#include "support/temp_dir.hpp"

namespace {

// Written by transactions, 8 a transaction, with the ledger's update.
struct Part {
  long long tx{};
  int j{};
};
// Written by put_all, 40 a batch.
struct Batched {
  long long batch{};
  int j{};
  std::string filler;
};
// Updated in every transaction under its version: counts the parts the transactions wrote.
struct Ledger {
  std::string id;
  long long version{};
  long long parts{};
  long long last{};
};
// Updated alone under its version (a conditional update): a and b are always set together.
struct Pair {
  std::string id;
  long long version{};
  long long a{};
  long long b{};
};

}  // namespace

template <>
struct pksk::Entity<Part> {
  static constexpr std::string_view type = "Part";
  static constexpr std::string_view pk = "TX#{tx}";
  static constexpr std::string_view sk = "P#{j}";
};
template <>
struct pksk::Entity<Batched> {
  static constexpr std::string_view type = "Batched";
  static constexpr std::string_view pk = "BATCH#{batch}";
  static constexpr std::string_view sk = "I#{j}";
};
template <>
struct pksk::Entity<Ledger> {
  static constexpr std::string_view type = "Ledger";
  static constexpr std::string_view pk = "LEDGER#{id}";
  static constexpr std::string_view sk = "L";
  static constexpr std::string_view version = "version";
};
template <>
struct pksk::Entity<Pair> {
  static constexpr std::string_view type = "Pair";
  static constexpr std::string_view pk = "PAIR#{id}";
  static constexpr std::string_view sk = "P";
  static constexpr std::string_view version = "version";
};

namespace {

using Table = pksk::Table<pksk::sqlite::Backend>;

constexpr int parts_per_tx = 8;
constexpr int items_per_batch = 40;

// Operation n is a transaction, a batch or a conditional update, by n % 3.
enum class Kind { transaction, batch, update };
Kind kind_of(long long n) {
  switch (n % 3) {
    case 1:
      return Kind::transaction;
    case 2:
      return Kind::batch;
    default:
      return Kind::update;
  }
}

int crash_trials() {
  const char* env = std::getenv("PKSK_CRASH_TRIALS");
  return env != nullptr && std::atoi(env) > 0 ? std::atoi(env) : 200;
}

// The child: operations 1, 2, 3, ... until killed, reporting each n on `out` once it returned.
[[noreturn]] void run_child(const std::string& path, pksk::sqlite::Synchronous sync, int out) {
  try {
    pksk::sqlite::Backend backend{path, {.synchronous = sync}};
    Table table{backend, "t"};
    const long long opened = 0;  // "the file is open": the parent may time the kill from here
    if (::write(out, &opened, sizeof opened) != static_cast<ssize_t>(sizeof opened)) ::_exit(3);
    for (long long n = 1;; ++n) {
      switch (kind_of(n)) {
        case Kind::transaction: {
          const Ledger ledger = *table.get(Ledger{.id = "L"});
          auto tx = table.transact();
          for (int j = 0; j < parts_per_tx; ++j) tx.put(Part{.tx = n, .j = j});
          tx.update(ledger, pksk::add(&Ledger::parts, static_cast<long long>(parts_per_tx)),
                    pksk::set(&Ledger::last, n));
          tx.commit();
          break;
        }
        case Kind::batch: {
          std::vector<Batched> items;
          for (int j = 0; j < items_per_batch; ++j) {
            items.push_back(Batched{.batch = n, .j = j, .filler = std::string(200, 'x')});
          }
          table.put_all(items);
          break;
        }
        case Kind::update: {
          const Pair pair = *table.get(Pair{.id = "P"});
          table.update(pair, pksk::set(&Pair::a, n), pksk::set(&Pair::b, n),
                       pksk::when(pksk::attr(&Pair::a) < n));
          break;
        }
      }
      if (::write(out, &n, sizeof n) != static_cast<ssize_t>(sizeof n)) ::_exit(3);
    }
  } catch (...) {
    ::_exit(2);  // an error before the kill: the parent fails the trial
  }
}

struct Trial {
  long long reported = 0;  // the last operation the child saw return
  bool ok = true;
  std::string failure;
  void fail(const std::string& what) {
    if (ok) failure = what;
    ok = false;
  }
};

// Checks the file after the kill against what the child reported.
void verify(const std::string& path, Trial& trial) {
  pksk::sqlite::Backend backend{path};
  std::string integrity;
  {
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(backend.native_handle(), "PRAGMA integrity_check", -1, &s, nullptr);
    while (sqlite3_step(s) == SQLITE_ROW) {
      integrity += reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
    }
    sqlite3_finalize(s);
  }
  if (integrity != "ok") trial.fail("integrity_check: " + integrity);
  Table table{backend, "t"};

  const long long r = trial.reported;
  long long tx_parts = 0, last_tx = 0, pair_ops = 0, last_pair = 0;
  // Operations up to r returned, so they are present; r + 1 may have committed before the
  // kill; r + 2 never started.
  for (long long n = 1; n <= r + 2; ++n) {
    const bool must = n <= r;
    const bool may = n <= r + 1;
    std::size_t found = 0;
    std::size_t expected = 0;
    switch (kind_of(n)) {
      case Kind::transaction:
        found = table.query<Part>(pksk::PartitionKey{support::numbered("TX#", n)}).size();
        expected = parts_per_tx;
        if (found == expected) {
          tx_parts += parts_per_tx;
          last_tx = n;
        }
        break;
      case Kind::batch:
        found = table.query<Batched>(pksk::PartitionKey{support::numbered("BATCH#", n)}).size();
        expected = items_per_batch;
        break;
      case Kind::update:
        if (may) {
          ++pair_ops;  // counted if present, judged below from the pair itself
          last_pair = n;
        }
        continue;
    }
    if (found != 0 && found != expected) {
      trial.fail(support::numbered("operation ", n) + support::numbered(" is half there: ", found) +
                 support::numbered(" of ", expected) + " items");
    } else if (must && found == 0) {
      trial.fail(support::numbered("operation ", n) + " returned but is absent");
    } else if (!may && found != 0) {
      trial.fail(support::numbered("operation ", n) + " is present but never started");
    }
  }
  const Ledger ledger = *table.get(Ledger{.id = "L"});
  if (ledger.parts != tx_parts || ledger.last != last_tx) {
    trial.fail(support::numbered("the ledger counts ", ledger.parts) + " parts up to tx " +
               std::to_string(ledger.last) + support::numbered(", the file holds ", tx_parts) +
               support::numbered(" up to ", last_tx));
  }
  const Pair pair = *table.get(Pair{.id = "P"});
  // The last pair update (r + 1 if it is one) may be there or not; every earlier one is.
  const bool last_uncertain = last_pair == r + 1;
  const long long certain_ops = last_uncertain ? pair_ops - 1 : pair_ops;
  const bool at_certain =
      pair.version == 1 + certain_ops &&
      pair.a == (certain_ops == 0 ? 0 : (last_uncertain ? last_pair - 3 : last_pair));
  const bool at_uncertain = last_uncertain && pair.version == 1 + pair_ops && pair.a == last_pair;
  if (pair.a != pair.b || !(at_certain || at_uncertain)) {
    trial.fail(support::numbered("the pair is a=", pair.a) + support::numbered(" b=", pair.b) +
               support::numbered(" version ", pair.version) +
               support::numbered(" after ", pair_ops) +
               support::numbered(" updates (last ", last_pair) + ")");
  }
}

}  // namespace

TEST_CASE("SIGKILL at a random moment leaves every operation whole", "[crash]") {
  const int trials = crash_trials();
  std::mt19937 rng(20261123);
  support::TempDir dir;
  int survived = 0;
  long long operations = 0;
  int before_first = 0;  // trials killed before the first operation returned
  std::vector<std::string> failures;
  for (int i = 0; i < trials; ++i) {
    const std::string path = dir.file(support::numbered("crash", i) + ".db");
    const auto sync =
        i % 2 == 0 ? pksk::sqlite::Synchronous::normal : pksk::sqlite::Synchronous::full;
    {
      pksk::sqlite::Backend backend{path};
      Table table{backend, "t"};
      table.put(Ledger{.id = "L"});  // version 1
      table.put(Pair{.id = "P"});
    }  // closed before the fork: connections must not cross it

    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::close(fds[0]);
      run_child(path, sync, fds[1]);
    }
    ::close(fds[1]);
    // Half the trials from the fork (the kill may land while the child opens the file), half
    // from the child's "opened" (a slow build, a sanitizer, still reaches the operations);
    // then anywhere up to some tens of operations in.
    long long n = -1;
    if (i % 4 >= 2) {
      pollfd ready{fds[0], POLLIN, 0};
      if (::poll(&ready, 1, 10000) == 1) (void)!::read(fds[0], &n, sizeof n);
    }
    std::this_thread::sleep_for(
        std::chrono::microseconds(std::uniform_int_distribution<int>(0, 30000)(rng)));
    ::kill(pid, SIGKILL);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);

    Trial trial;
    while (::read(fds[0], &n, sizeof n) == static_cast<ssize_t>(sizeof n)) trial.reported = n;
    ::close(fds[0]);
    if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)) {
      trial.fail(support::numbered("the child ended before the kill, status ", status));
    }
    try {
      verify(path, trial);
    } catch (const std::exception& e) {
      trial.fail(std::string("reopening failed: ") + e.what());
    }
    operations += trial.reported;
    if (trial.reported == 0) ++before_first;
    if (trial.ok) {
      ++survived;
    } else {
      failures.push_back(support::numbered("trial ", i) + ": " + trial.failure);
    }
    for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
  }
  WARN("crash trials: " << trials << " run, " << survived << " survived, " << operations
                        << " operations returned before the kills, " << before_first
                        << " trials killed before the first returned");
  for (const std::string& f : failures) FAIL_CHECK(f);
  CHECK(survived == trials);
}
