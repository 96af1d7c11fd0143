// SPDX-License-Identifier: BSL-1.0
#pragma once
// The connections of one pksk::sqlite::Backend: one SQLite connection per thread that uses the
// Backend, each with its own prepared statements, found through a thread_local cache.
//
// Why a connection per thread rather than a pool: a pool hands a connection out and takes it
// back on every call, a lock (or a lock-free queue) on every query, and the statements a thread
// prepared may be on another connection next time. A connection per thread costs one lookup
// per call (a thread_local compared with the Backend's id), keeps each thread's statements warm,
// and matches SQLite's model (a connection opened with SQLITE_OPEN_NOMUTEX is used by one thread
// at a time). Threads that exit give their connection back (a thread_local destructor), so
// short-lived threads do not pile connections up.
//
// An in-memory database (":memory:", or "" for a private temporary file) exists only on the
// connection that opened it: a second connection would see another, empty database. Such a
// Backend keeps its one connection for every thread and serializes calls with a mutex; it is
// correct from any thread, but does not read in parallel.

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "../../backend/backend.hpp"
#include "handle.hpp"
#include "sql.hpp"

namespace pksk::sqlite::detail {

struct CachedStatement {
  Statement stmt;
  bool in_use = false;
};

// What a table handle refers to, shared by every thread: the spec, immutable once opened, at a
// stable address owned by the Backend's shared state.
struct TableState {
  backend::TableSpec spec;
  const std::string& name = spec.name;
  std::size_t index = 0;        // where this table's statements are in each connection
  const void* owner = nullptr;  // the Backend's shared state, to refuse a foreign handle
};

// One table's statements on one connection. Prepared on first use: most tables only ever see
// a few of the shapes, and a thread may never touch some tables.
struct TableStatements {
  CachedStatement put;
  CachedStatement rewrite;  // an update of a row read in the same transaction
  CachedStatement get;
  CachedStatement erase;
  std::array<CachedStatement, query_variant_count> queries;
  // read_size_sql's, by the query variant they follow (the sized ones stay empty).
  std::array<CachedStatement, query_variant_count> read_sizes;
  std::array<CachedStatement, 2> scans;  // from the start, and after an exclusive start key
  // Per index of the spec, in its order: grown on the first query of an index.
  struct IndexStatements {
    std::array<CachedStatement, query_variant_count> queries;
    CachedStatement sort_key_of;  // an item's index sort key, for a page's cursor
  };
  std::vector<IndexStatements> indexes;
};

// One SQLite connection and everything prepared on it; used by one thread at a time.
struct ConnectionState {
  // Declared first, destroyed last: statements are finalized before their connection closes.
  Connection conn;
  std::array<Statement, 4> control;  // BEGIN IMMEDIATE, COMMIT, ROLLBACK, BEGIN (transaction.hpp)
  std::vector<std::unique_ptr<TableStatements>> tables;
  std::chrono::milliseconds busy_timeout{0};
  // The end of the current wait for a lock; zero while not waiting.
  std::chrono::steady_clock::time_point busy_deadline{};
  int busy_rounds = 0;
  bool in_step_first = false;  // step_first's retries share one wait

  sqlite3* db() const noexcept { return conn.get(); }

  TableStatements& statements(std::size_t index) {
    if (index >= tables.size()) tables.resize(index + 1);
    if (!tables[index]) tables[index] = std::make_unique<TableStatements>();
    return *tables[index];
  }

  // One bounded wait for a lock another connection holds: false once the busy timeout has
  // passed since the wait began. Backs off from 100 us to 10 ms: write transactions here are
  // tens of microseconds, so a short first sleep keeps contended writers moving.
  bool wait_busy() {
    const auto now = std::chrono::steady_clock::now();
    if (busy_deadline == std::chrono::steady_clock::time_point{}) {
      busy_deadline = now + busy_timeout;
      busy_rounds = 0;
    }
    if (now >= busy_deadline) return false;
    const auto delay = std::chrono::microseconds(100 << std::min(busy_rounds, 7));
    ++busy_rounds;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
        std::min(delay, std::chrono::microseconds(10000)), busy_deadline - now));
    return true;
  }

  // SQLite's busy handler: called when a lock is held by another connection, with count 0 at
  // the start of each statement's wait (a new wait, unless step_first is retrying).
  static int on_busy(void* self, int count) noexcept {
    try {
      auto* conn = static_cast<ConnectionState*>(self);
      if (count == 0 && !conn->in_step_first) conn->busy_deadline = {};
      return conn->wait_busy() ? 1 : 0;
    } catch (...) {
      return 0;
    }
  }

  // Steps a statement that starts an operation outside any transaction (BEGIN IMMEDIATE, an
  // autocommit write, the first step of a read). SQLite returns SQLITE_BUSY without asking the
  // busy handler in a few cases (a WAL snapshot gone stale, a connection recovering the WAL);
  // those are retried, reset and stepped again, within the same bounded wait. Not for later
  // steps of a scan: a reset would start it over.
  int step_first(sqlite3_stmt* stmt) {
    busy_deadline = {};
    in_step_first = true;
    int rc = sqlite3_step(stmt);
    while ((rc & 0xff) == SQLITE_BUSY && sqlite3_get_autocommit(db()) != 0 && wait_busy()) {
      sqlite3_reset(stmt);
      rc = sqlite3_step(stmt);
    }
    in_step_first = false;
    busy_deadline = {};
    return rc;
  }
};

// Identifies a Backend's shared state for the life of the process: never reused, unlike an
// address, so a thread's cached connection of a destroyed Backend can never match a new one.
inline std::uint64_t next_backend_id() noexcept {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// The calling thread's last used connection: the one lookup on the hot path.
struct ThreadCache {
  std::uint64_t backend_id = 0;
  ConnectionState* connection = nullptr;
};
inline thread_local ThreadCache thread_cache;

}  // namespace pksk::sqlite::detail
