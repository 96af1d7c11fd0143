// SPDX-License-Identifier: BSL-1.0
#pragma once
// The few RAII wrappers over the sqlite3 C API that the baselines and the data generator share.
// Errors throw: a benchmark that silently reads nothing would report nonsense.

#include <sqlite3.h>

#include <cstdint>
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

// WAL frames appended by a connection's commits (a frame is one page written to the WAL), from
// sqlite3_wal_hook. Installing a hook replaces SQLite's default one, which is the automatic
// checkpoint: this one does what that did (a PASSIVE checkpoint once the WAL holds
// wal_autocheckpoint frames, 1000 by default), so the connection writes as it did without it.
// The hook sees the WAL's length after each commit; a checkpoint that copied the whole WAL back
// lets the next write start it over, so the count goes on from zero then.
class WalFrames {
 public:
  explicit WalFrames(sqlite3* db, int autocheckpoint = 1000)
      : db_(db), autocheckpoint_(autocheckpoint) {
    sqlite3_wal_hook(db, &WalFrames::hook, this);
  }
  // SQLite's own automatic checkpoint again, as the connection had it.
  ~WalFrames() { sqlite3_wal_autocheckpoint(db_, autocheckpoint_); }
  WalFrames(const WalFrames&) = delete;
  WalFrames& operator=(const WalFrames&) = delete;

  std::uint64_t frames() const noexcept { return frames_; }

 private:
  static int hook(void* self_ptr, sqlite3* db, const char* schema, int wal_frames) {
    auto& self = *static_cast<WalFrames*>(self_ptr);
    const auto n = static_cast<std::uint64_t>(wal_frames);
    self.frames_ += n >= self.last_ ? n - self.last_ : n;  // a WAL started over holds only these
    self.last_ = n;
    if (wal_frames >= self.autocheckpoint_) {
      int log = 0, done = 0;
      if (sqlite3_wal_checkpoint_v2(db, schema, SQLITE_CHECKPOINT_PASSIVE, &log, &done) ==
              SQLITE_OK &&
          log == done)
        self.last_ = 0;
    }
    return SQLITE_OK;
  }

  sqlite3* db_;
  int autocheckpoint_;
  std::uint64_t frames_ = 0;
  std::uint64_t last_ = 0;
};

}  // namespace bench
