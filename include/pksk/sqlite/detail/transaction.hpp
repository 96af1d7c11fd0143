// SPDX-License-Identifier: BSL-1.0
#pragma once
// Transactions on one connection: BEGIN IMMEDIATE, BEGIN, COMMIT and ROLLBACK as statements
// prepared once; WriteTransaction, which rolls back whatever leaves its scope uncommitted, and
// ReadTransaction, whose reads all see the database as it was at the first of them.

#include <sqlite3.h>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "connections.hpp"
#include "handle.hpp"

namespace pksk::sqlite::detail {

// BEGIN IMMEDIATE, COMMIT and ROLLBACK, prepared once per connection on first use: every
// conditional write, update, transaction and batch runs two of them, and sqlite3_exec would
// parse and prepare each again (a few microseconds a write). BEGIN (deferred) starts a read.
enum class Control : unsigned char { begin, commit, rollback, begin_read };
inline constexpr std::array<const char*, 4> control_sql{"BEGIN IMMEDIATE", "COMMIT", "ROLLBACK",
                                                        "BEGIN"};

inline sqlite3_stmt* control(ConnectionState& c, Control which, std::string_view table,
                             std::string_view operation) {
  Statement& stmt = c.control[static_cast<std::size_t>(which)];
  if (!stmt) {
    const char* sql = control_sql[static_cast<std::size_t>(which)];
    stmt = prepare(c.db(), sql, table, std::string(operation) + " (" + sql + ")");
  }
  return stmt.get();
}

// BEGIN IMMEDIATE waits for the write lock (busy handler) and is retried where SQLite answers
// SQLITE_BUSY without waiting; past Options::busy_timeout, BackendError names the table.
inline void run_control(ConnectionState& c, Control which, std::string_view table,
                        std::string_view operation) {
  sqlite3_stmt* s = control(c, which, table, operation);
  const int rc = which == Control::begin ? c.step_first(s) : sqlite3_step(s);
  sqlite3_reset(s);
  if (rc != SQLITE_DONE) {
    throw_failure(
        c.db(), rc, table,
        std::string(operation) + " (" + control_sql[static_cast<std::size_t>(which)] + ")");
  }
}

// Never throws: a failed write's scope is being left, and there may be no transaction left
// to roll back (SQLite rolls some failures back itself).
inline void rollback(ConnectionState& c) noexcept {
  try {
    sqlite3_stmt* s = control(c, Control::rollback, {}, "rollback");
    sqlite3_step(s);
    sqlite3_reset(s);
  } catch (...) {
    sqlite3_exec(c.db(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
}

// A transaction begun by `begin`, rolled back unless committed: what a scope started, the
// scope ends, however it is left.
class ScopedTransaction {
 public:
  ScopedTransaction(ConnectionState& conn, Control begin, std::string_view table,
                    std::string_view what)
      : conn_(conn), table_(table), what_(what) {
    run_control(conn_, begin, table_, what_);
  }
  ScopedTransaction(const ScopedTransaction&) = delete;
  ScopedTransaction& operator=(const ScopedTransaction&) = delete;
  void commit() {
    run_control(conn_, Control::commit, table_, what_);
    done_ = true;
  }
  ~ScopedTransaction() {
    if (!done_) rollback(conn_);
  }

 private:
  ConnectionState& conn_;
  std::string_view table_;
  std::string_view what_;
  bool done_ = false;
};

// One write transaction (BEGIN IMMEDIATE): a failed write leaves no trace.
class WriteTransaction : public ScopedTransaction {
 public:
  WriteTransaction(ConnectionState& conn, std::string_view table, std::string_view what)
      : ScopedTransaction(conn, Control::begin, table, what) {}
};

// One read transaction (a deferred BEGIN): SQLite takes its snapshot at the first read and
// keeps it to the end, so that the reads in its scope see no write committed between them
// (with WAL, writers go on meanwhile). Ended by end(), or when its scope is left.
class ReadTransaction : public ScopedTransaction {
 public:
  ReadTransaction(ConnectionState& conn, std::string_view table, std::string_view what)
      : ScopedTransaction(conn, Control::begin_read, table, what) {}
  void end() { commit(); }
};

}  // namespace pksk::sqlite::detail
