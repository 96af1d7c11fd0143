// SPDX-License-Identifier: BSL-1.0
#pragma once
// The few RAII wrappers over the sqlite3 C API that the baselines and the data generator share.
// Errors throw: a benchmark that silently reads nothing would report nonsense.

#include <sqlite3.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace bench {

[[noreturn]] inline void sqlite_fail(sqlite3* db, std::string_view what) {
  throw std::runtime_error(std::string(what) + ": " + (db ? sqlite3_errmsg(db) : "no connection"));
}

class Db {
 public:
  Db() = default;
  // SQLITE_OPEN_NOMUTEX: one connection per thread, as a careful hand-written reader opens it.
  explicit Db(const std::string& path,
              int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX) {
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      std::string msg = "open " + path;
      sqlite3_close(db_);
      db_ = nullptr;
      sqlite_fail(nullptr, msg);
    }
  }
  Db(Db&& o) noexcept : db_(std::exchange(o.db_, nullptr)) {}
  Db& operator=(Db&& o) noexcept {
    std::swap(db_, o.db_);
    return *this;
  }
  ~Db() { sqlite3_close(db_); }

  sqlite3* get() const { return db_; }

  void exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = sql + ": " + (err ? err : "?");
      sqlite3_free(err);
      throw std::runtime_error(msg);
    }
  }

 private:
  sqlite3* db_ = nullptr;
};

class Stmt {
 public:
  Stmt() = default;
  Stmt(const Db& db, std::string_view sql) : db_(db.get()) {
    if (sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                           &stmt_, nullptr) != SQLITE_OK) {
      sqlite_fail(db_, "prepare " + std::string(sql));
    }
  }
  Stmt(Stmt&& o) noexcept : db_(o.db_), stmt_(std::exchange(o.stmt_, nullptr)) {}
  Stmt& operator=(Stmt&& o) noexcept {
    std::swap(db_, o.db_);
    std::swap(stmt_, o.stmt_);
    return *this;
  }
  ~Stmt() { sqlite3_finalize(stmt_); }

  sqlite3_stmt* get() const { return stmt_; }

  // Resets and binds a text parameter that outlives the statement's steps (no copy).
  void bind(int i, std::string_view text) {
    if (sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_STATIC) !=
        SQLITE_OK) {
      sqlite_fail(db_, "bind");
    }
  }
  void bind(int i, double v) { sqlite3_bind_double(stmt_, i, v); }
  void bind(int i, long long v) { sqlite3_bind_int64(stmt_, i, v); }
  void bind_null(int i) { sqlite3_bind_null(stmt_, i); }
  void reset() { sqlite3_reset(stmt_); }

  // true: a row is ready; false: done.
  bool step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    sqlite_fail(db_, "step");
  }
  void run() {
    while (step()) {
    }
    reset();
  }

  std::string_view text(int col) const {
    // Text first, then its size: the order sqlite3's documentation asks for.
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
    return {p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))};
  }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }
  long long integer(int col) const { return sqlite3_column_int64(stmt_, col); }
  bool is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

// The pragmas pksk's SQLite backend sets on every connection; the floor sets the same.
inline void apply_pksk_pragmas(Db& db) {
  db.exec("PRAGMA journal_mode=WAL");
  db.exec("PRAGMA synchronous=NORMAL");
}

}  // namespace bench
