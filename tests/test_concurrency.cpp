// SPDX-License-Identifier: BSL-1.0
// Sharing (issue 23, items 1-3): one Backend and one Table used by many threads, several
// processes on one file, the bounded wait for another connection's lock, the durability
// settings. Every write here contends: optimistic updates (Entity<T>::version) and `add`
// increments on a few shared items, counted so that a lost update, a stale write that did
// not fail with ConditionFailed and a busy error that reached the caller each show.

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/temp_dir.hpp"

namespace {

// Versioned: every write checks the version read and writes the next one.
struct Tally {
  std::string id;
  long long version{};
  long long puts{};  // incremented by read-modify-put
  long long adds{};  // incremented by update(add) under the version read
};
// Not versioned: an unconditional `add` that the backend applies atomically.
struct Hits {
  std::string id;
  long long n{};
};

}  // namespace

template <>
struct pksk::Entity<Tally> {
  static constexpr std::string_view type = "Tally";
  static constexpr std::string_view pk = "TALLY#{id}";
  static constexpr std::string_view sk = "T";
  static constexpr std::string_view version = "version";
};
template <>
struct pksk::Entity<Hits> {
  static constexpr std::string_view type = "Hits";
  static constexpr std::string_view pk = "HITS#{id}";
  static constexpr std::string_view sk = "H";
};

namespace {

using Table = pksk::Table<pksk::sqlite::Backend>;
using Clock = std::chrono::steady_clock;

constexpr int shared_items = 4;  // every worker writes all of them: heavy contention

// What one worker did; plain data, so that a child process can send it through a pipe.
struct Stats {
  long long puts = 0;       // successful optimistic puts
  long long updates = 0;    // successful optimistic update(add)s
  long long adds = 0;       // successful unconditional adds
  long long stale = 0;      // ConditionFailed on an optimistic write (retried)
  long long not_stale = 0;  // ConditionFailed although the version read was still stored
  long long busy = 0;       // BackendError (a busy error that leaked)
  long long other = 0;      // any other error
  char error[256] = {};

  void add(const Stats& o) {
    puts += o.puts;
    updates += o.updates;
    adds += o.adds;
    stale += o.stale;
    not_stale += o.not_stale;
    busy += o.busy;
    other += o.other;
    if (error[0] == '\0') std::memcpy(error, o.error, sizeof error);
  }
};

std::string item_id(int i) {
  return std::string(1, static_cast<char>('a' + i % shared_items));
}

void seed(Table& table) {
  for (int i = 0; i < shared_items; ++i) {
    table.put(Tally{.id = item_id(i)});  // version 0 -> 1
    table.put(Hits{.id = item_id(i)});
  }
}

// `ops` optimistic writes (alternately a read-modify-put and an update(add), each retried on
// ConditionFailed until it goes through) and `ops` unconditional adds, on the shared items.
Stats work(Table& table, int worker, int ops) {
  Stats st;
  try {
    for (int i = 0; i < ops; ++i) {
      const std::string id = item_id(worker + i);
      for (int attempt = 1;; ++attempt) {
        // Each retry follows a write that went through, so every race ends; one that does not
        // is a failure (counted as `other`), not a hang until the TIMEOUT.
        if (attempt > 1000) throw std::runtime_error("no write went through in 1000 attempts");
        std::optional<Tally> t = table.get(Tally{.id = id});
        const long long read_version = t->version;
        try {
          if (i % 2 == 0) {
            ++t->puts;
            table.put(*t);
            ++st.puts;
          } else {
            table.update(*t, pksk::add(&Tally::adds, 1LL));
            ++st.updates;
          }
          break;
        } catch (const pksk::ConditionFailed&) {
          ++st.stale;
          // Versions only grow: if the one read is still stored, the write was not stale.
          if (table.get(Tally{.id = id})->version == read_version) ++st.not_stale;
        }
      }
      table.update(Hits{.id = id}, pksk::add(&Hits::n, 1LL));
      ++st.adds;
    }
  } catch (const pksk::BackendError& e) {
    ++st.busy;
    std::snprintf(st.error, sizeof st.error, "%s", e.what());
  } catch (const std::exception& e) {
    ++st.other;
    std::snprintf(st.error, sizeof st.error, "%s", e.what());
  }
  return st;
}

// The stored counters against the sum of the successful operations: nothing lost.
void check_totals(Table& table, const Stats& total) {
  long long versions = 0, puts = 0, adds = 0, hits = 0;
  for (int i = 0; i < shared_items; ++i) {
    const Tally t = *table.get(Tally{.id = item_id(i)});
    CHECK(t.version == 1 + t.puts + t.adds);  // each successful write moved it by one
    versions += t.version - 1;
    puts += t.puts;
    adds += t.adds;
    hits += table.get(Hits{.id = item_id(i)})->n;
  }
  CHECK(puts == total.puts);
  CHECK(adds == total.updates);
  CHECK(versions == total.puts + total.updates);
  CHECK(hits == total.adds);
}

void report(const char* what, const Stats& total, Clock::duration elapsed) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
  WARN(what << ": " << total.puts + total.updates << " optimistic writes, " << total.adds
            << " adds, " << total.stale << " stale writes retried, " << total.not_stale
            << " not stale, " << total.busy << " busy errors, " << total.other
            << " other errors, lost 0 if the checks pass, in " << ms << " ms");
}

}  // namespace

TEST_CASE("8 threads share one Table: no lost update, every stale write fails", "[threads]") {
  support::TempDir dir;
  pksk::sqlite::Backend backend{dir.file("shared.db")};
  Table table{backend, "t"};
  seed(table);

  constexpr int threads = 8;
  constexpr int ops = 1000;
  std::vector<Stats> stats(threads);
  const auto start = Clock::now();
  {
    std::vector<std::thread> pool;
    for (int w = 0; w < threads; ++w) {
      pool.emplace_back([&, w] { stats[w] = work(table, w, ops); });
    }
    for (auto& t : pool) t.join();
  }
  Stats total;
  for (const Stats& s : stats) total.add(s);
  report("8 threads", total, Clock::now() - start);
  INFO(total.error);
  CHECK(total.busy == 0);
  CHECK(total.other == 0);
  CHECK(total.not_stale == 0);
  CHECK(total.puts + total.updates == threads * ops);
  CHECK(total.adds == threads * ops);
  CHECK(total.stale > 0);  // the items were contended, so some writes were stale
  check_totals(table, total);
}

TEST_CASE("4 processes share one file: no lost update, every stale write fails", "[processes]") {
  support::TempDir dir;
  const std::string path = dir.file("shared.db");
  {
    // Closed before the fork: SQLite's connections (and its per-process lock bookkeeping for
    // the file) must not cross a fork; each child opens its own Backend.
    pksk::sqlite::Backend backend{path};
    Table table{backend, "t"};
    seed(table);
  }

  constexpr int processes = 4;
  constexpr int ops = 1000;
  std::vector<pid_t> children;
  std::vector<int> pipes;
  const auto start = Clock::now();
  for (int p = 0; p < processes; ++p) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::close(fds[0]);
      Stats st;
      try {
        pksk::sqlite::Backend backend{path};
        Table table{backend, "t"};
        st = work(table, p, ops);
      } catch (const std::exception& e) {
        ++st.other;
        std::snprintf(st.error, sizeof st.error, "%s", e.what());
      }
      const bool sent = ::write(fds[1], &st, sizeof st) == static_cast<ssize_t>(sizeof st);
      ::_exit(sent ? 0 : 1);  // no atexit, no destructors of the parent's objects
    }
    ::close(fds[1]);
    children.push_back(pid);
    pipes.push_back(fds[0]);
  }
  Stats total;
  for (int p = 0; p < processes; ++p) {
    Stats st;
    std::size_t got = 0;
    while (got < sizeof st) {
      const ssize_t n = ::read(pipes[p], reinterpret_cast<char*>(&st) + got, sizeof st - got);
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    ::close(pipes[p]);
    int status = 0;
    REQUIRE(::waitpid(children[p], &status, 0) == children[p]);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    REQUIRE(got == sizeof st);
    total.add(st);
  }
  report("4 processes", total, Clock::now() - start);
  INFO(total.error);
  CHECK(total.busy == 0);
  CHECK(total.other == 0);
  CHECK(total.not_stale == 0);
  CHECK(total.puts + total.updates == processes * ops);
  CHECK(total.adds == processes * ops);
  CHECK(total.stale > 0);

  pksk::sqlite::Backend backend{path};
  Table table{backend, "t"};
  check_totals(table, total);
}

TEST_CASE("an in-memory Backend is one connection that every thread shares", "[threads]") {
  // ":memory:" exists only in the connection that opened it: the Backend keeps that one for
  // every thread and serializes their calls, so all threads see one database.
  pksk::sqlite::Backend backend{":memory:"};
  Table table{backend, "t"};
  seed(table);
  constexpr int threads = 4;
  constexpr int ops = 200;
  std::vector<Stats> stats(threads);
  {
    std::vector<std::thread> pool;
    for (int w = 0; w < threads; ++w) {
      pool.emplace_back([&, w] { stats[w] = work(table, w, ops); });
    }
    for (auto& t : pool) t.join();
  }
  Stats total;
  for (const Stats& s : stats) total.add(s);
  INFO(total.error);
  CHECK(total.busy == 0);
  CHECK(total.other == 0);
  CHECK(total.not_stale == 0);
  CHECK(total.puts + total.updates == threads * ops);
  check_totals(table, total);
  // And the data is that of the one database, whichever thread looks.
  long long from_thread = -1;
  std::thread([&] { from_thread = table.get(Hits{.id = "b"})->n; }).join();
  CHECK(from_thread == table.get(Hits{.id = "b"})->n);
}

TEST_CASE("a thread's connection sees the other threads' commits and its own tables", "[threads]") {
  support::TempDir dir;
  pksk::sqlite::Backend backend{dir.file("t.db")};
  Table first{backend, "first"};
  first.put(Hits{.id = "x", .n = 7});
  // A table opened on another thread, used here; a table opened here, used on another thread.
  std::optional<Table> second;
  long long seen = 0;
  std::thread([&] {
    second.emplace(backend, "second");
    second->put(Hits{.id = "y", .n = 8});
    seen = first.get(Hits{.id = "x"})->n;
  }).join();
  CHECK(seen == 7);
  CHECK(second->get(Hits{.id = "y"})->n == 8);
  // Threads that exit give their connection back; many short-lived threads then work as one.
  for (int i = 0; i < 50; ++i) {
    std::thread([&] { first.update(Hits{.id = "x"}, pksk::add(&Hits::n, 1LL)); }).join();
  }
  CHECK(first.get(Hits{.id = "x"})->n == 57);
}

TEST_CASE("transact_get reads one snapshot while another thread writes", "[threads]") {
  support::TempDir dir;
  pksk::sqlite::Backend backend{dir.file("t.db")};
  Table table{backend, "pairs"};
  table.put(Hits{.id = "x", .n = 0});
  table.put(Hits{.id = "y", .n = 0});
  // The writer moves both items to the next value in one transaction, again and again: any
  // state committed has them equal.
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (long long n = 1; !done.load(); ++n) {
      table.transact().put(Hits{.id = "x", .n = n}).put(Hits{.id = "y", .n = n}).commit();
    }
  });
  // At least 1000 reads, and on until they have met 100 states (a read is faster than a
  // commit, and the threads share the cores with whatever else runs).
  int reads = 0;
  int mixed = 0;
  std::set<long long> seen;
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  while ((reads < 1000 || seen.size() <= 100) && Clock::now() < deadline) {
    const auto [x, y] = table.transact_get(Hits{.id = "x"}, Hits{.id = "y"});
    ++reads;
    if (x->n != y->n) ++mixed;
    seen.insert(x->n);
  }
  done.store(true);
  writer.join();
  CHECK(mixed == 0);
  CHECK(reads >= 1000);
  CHECK(seen.size() > 100);  // the reads did meet the writes, state after state
}

TEST_CASE("a thread that used a destroyed Backend uses a new one at the same place", "[threads]") {
  support::TempDir dir;
  std::atomic<int> step{0};
  std::optional<pksk::sqlite::Backend> backend;
  std::optional<Table> table;
  backend.emplace(dir.file("a.db"));
  table.emplace(*backend, "t");
  table->put(Hits{.id = "a", .n = 1});
  long long seen_first = 0, seen_second = 0;
  std::thread worker([&] {
    seen_first = table->get(Hits{.id = "a"})->n;  // caches this thread's connection to a.db
    step = 1;
    while (step != 2) std::this_thread::yield();
    seen_second = table->get(Hits{.id = "a"})->n;  // the cache must not hand a.db back
  });
  while (step != 1) std::this_thread::yield();
  table.reset();
  backend.reset();
  backend.emplace(dir.file("b.db"));  // quite possibly at the same address
  table.emplace(*backend, "t");
  table->put(Hits{.id = "a", .n = 2});
  step = 2;
  worker.join();
  CHECK(seen_first == 1);
  CHECK(seen_second == 2);
}

TEST_CASE("a write waits for another connection's lock, within a bound", "[threads][busy]") {
  support::TempDir dir;
  const std::string path = dir.file("locked.db");
  sqlite3* other = nullptr;
  {
    pksk::sqlite::Backend backend{path, {.busy_timeout = std::chrono::milliseconds(5000)}};
    Table table{backend, "shop"};
    table.put(Hits{.id = "a"});
    REQUIRE(sqlite3_open(path.c_str(), &other) == SQLITE_OK);
    REQUIRE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);

    // Released after 200 ms: the writes wait and then go through. That they waited is held
    // by order, not by a clock (an elapsed-time bound failed on a loaded machine): the flag is
    // set before the COMMIT, and a write could only return after it.
    std::atomic<bool> releasing{false};
    std::thread release([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      releasing = true;
      sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr);
    });
    table.update(Hits{.id = "a"}, pksk::add(&Hits::n, 1LL));  // BEGIN IMMEDIATE
    CHECK(releasing);
    table.put(Hits{.id = "b", .n = 1});  // an autocommit write
    release.join();
    CHECK(table.get(Hits{.id = "a"})->n == 1);
  }
  {
    // Held past the bound: a BackendError that names the table, after about the bound.
    pksk::sqlite::Backend backend{path, {.busy_timeout = std::chrono::milliseconds(100)}};
    Table table{backend, "shop"};
    REQUIRE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
    for (int which = 0; which < 2; ++which) {
      const auto start = Clock::now();
      std::string msg;
      try {
        if (which == 0) {
          table.update(Hits{.id = "a"}, pksk::add(&Hits::n, 1LL));
        } else {
          table.put(Hits{.id = "c"});
        }
      } catch (const pksk::BackendError& e) {
        msg = e.what();
      }
      const auto waited = Clock::now() - start;
      CAPTURE(msg);
      CHECK(msg.find("pksk table 'shop' (sqlite)") != std::string::npos);
      CHECK(msg.find("database is locked") != std::string::npos);
      // That SQLite waited at all: a lower bound a slow machine cannot break (no upper bound,
      // which did break; a wait that never ends meets ctest's TIMEOUT).
      CHECK(waited >= std::chrono::milliseconds(90));
    }
    // Reads are not blocked by the writer (WAL).
    CHECK(table.get(Hits{.id = "a"})->n == 1);
    sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  sqlite3_close(other);
}

TEST_CASE("the synchronous level and WAL hold on every thread's connection", "[durability]") {
  support::TempDir dir;
  using S = pksk::sqlite::Synchronous;
  const auto level = [](pksk::sqlite::Backend& b, const char* pragma) {
    std::string value;
    sqlite3_stmt* s = nullptr;
    REQUIRE(sqlite3_prepare_v2(b.native_handle(), pragma, -1, &s, nullptr) == SQLITE_OK);
    if (sqlite3_step(s) == SQLITE_ROW)
      value = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    return value;
  };
  const std::pair<S, const char*> cases[] = {{S::normal, "1"}, {S::full, "2"}, {S::extra, "3"}};
  for (const auto& [sync, expected] : cases) {
    pksk::sqlite::Backend b{dir.file("sync.db"), {.synchronous = sync}};
    CHECK(level(b, "PRAGMA synchronous") == expected);
    std::string on_thread, mode_on_thread;
    std::thread([&] {
      on_thread = level(b, "PRAGMA synchronous");
      mode_on_thread = level(b, "PRAGMA journal_mode");
    }).join();
    CHECK(on_thread == expected);
    CHECK(mode_on_thread == "wal");
  }
  // The default is NORMAL, SQLite's recommendation for WAL (docs/durability.md).
  pksk::sqlite::Backend b{dir.file("default.db")};
  CHECK(level(b, "PRAGMA synchronous") == "1");
}
