// SPDX-License-Identifier: BSL-1.0
#pragma once
// RAII owners of SQLite's C handles and the error reporting every SQLite call goes through.

#include <sqlite3.h>

#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "../../error.hpp"
#include "messages.hpp"

// pragma_table_list, pragma_table_xinfo's hidden column and sqlite3_changes64.
static_assert(SQLITE_VERSION_NUMBER >= 3037000, "pksk's SQLite backend needs SQLite 3.37 or later");

namespace pksk::sqlite::detail {

struct ConnectionCloser {
  // close_v2 rather than close: should a statement outlive the connection by mistake, the
  // connection becomes a zombie closed with the last statement instead of leaking.
  void operator()(sqlite3* db) const noexcept { sqlite3_close_v2(db); }
};
using Connection = std::unique_ptr<sqlite3, ConnectionCloser>;

struct StatementFinalizer {
  void operator()(sqlite3_stmt* stmt) const noexcept { sqlite3_finalize(stmt); }
};
using Statement = std::unique_ptr<sqlite3_stmt, StatementFinalizer>;

// "pksk table '<table>' (sqlite), <operation>: failed: <sqlite3_errmsg> (SQLite code <code>)",
// or with no table "pksk::sqlite: <operation> failed: ...".
inline std::string failure_message(sqlite3* db, int code, std::string_view table,
                                   std::string_view operation) {
  std::string msg;
  if (table.empty()) {
    msg = "pksk::sqlite: ";
    msg += operation;
    msg += " failed: ";
  } else {
    msg = context(table, operation) + "failed: ";
  }
  // errmsg describes the connection's latest failure (with detail such as the SQL error);
  // errstr is the fallback when there is no connection to ask.
  msg += db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code);
  msg += " (SQLite code ";
  msg += std::to_string(code);
  msg += ')';
  return msg;
}

// What a failed SQLite call means to a caller, from its primary result code.
inline errc error_code_of(int code) noexcept {
  switch (code & 0xff) {
    case SQLITE_BUSY:  // another connection holds the write lock past the busy timeout
    case SQLITE_LOCKED:
      return errc::throttled;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_FORMAT:
      return errc::corrupt;
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_NOLFS:
      return errc::io_error;
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return errc::access_denied;
    default:
      return errc::backend_failure;
  }
}

// SQLite's own answer: the extended result code where the connection has it (the primary
// code, `code`, loses which kind of I/O error or busy it was).
inline NativeError native_error(sqlite3* db, int code) {
  const int extended = db != nullptr && (sqlite3_extended_errcode(db) & 0xff) == (code & 0xff)
                           ? sqlite3_extended_errcode(db)
                           : code;
  return {NativeError::Origin::sqlite, extended, sqlite3_errstr(extended)};
}

[[noreturn]] inline void throw_failure(sqlite3* db, int code, std::string_view table,
                                       std::string_view operation) {
  throw BackendError(error_code_of(code), failure_message(db, code, table, operation),
                     native_error(db, code));
}

inline void check(sqlite3* db, int code, std::string_view table, std::string_view operation) {
  if (code != SQLITE_OK) throw_failure(db, code, table, operation);
}

// Cached statements are long-lived, hence SQLITE_PREPARE_PERSISTENT (a hint to keep them out
// of the lookaside allocator).
inline Statement prepare(sqlite3* db, std::string_view sql, std::string_view table,
                         std::string_view operation, bool persistent = true) {
  sqlite3_stmt* raw = nullptr;
  const int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()),
                                    persistent ? SQLITE_PREPARE_PERSISTENT : 0, &raw, nullptr);
  Statement stmt(raw);
  if (rc != SQLITE_OK) throw_failure(db, rc, table, operation);
  return stmt;
}

// Keys and bodies are bound as TEXT, never as BLOB: SQLite orders every TEXT value before every
// BLOB value, so a BLOB operand against the TEXT sk column would not compare bytes at all. A
// TEXT operand in a UTF-8 database is compared with memcmp (BINARY collation) whatever its
// bytes, which is what the (possibly non-UTF-8) begins_with successor relies on.
// SQLITE_STATIC: every caller keeps the bytes alive until the statement is reset.
inline int bind_text(sqlite3_stmt* stmt, int index, std::string_view text) noexcept {
  if (text.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) return SQLITE_TOOBIG;
  // A null pointer would bind NULL; an empty key must stay an empty string.
  const char* data = text.data() != nullptr ? text.data() : "";
  return sqlite3_bind_text(stmt, index, data, static_cast<int>(text.size()), SQLITE_STATIC);
}

// A view of a column of the current row, in SQLite's own memory: valid until the next step or
// reset. text before bytes, as SQLite documents, so the length is that of the text form.
inline std::string_view column_view(sqlite3_stmt* stmt, int column) noexcept {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, column));
  const auto size = static_cast<std::size_t>(sqlite3_column_bytes(stmt, column));
  return text != nullptr ? std::string_view(text, size) : std::string_view();
}

// Column `column` of the row in hand, from a statement passed as a backend::ItemView's key_source:
// how a row's key is read when someone asks for it.
template <int column>
std::string_view key_column(const void* stmt) noexcept {
  return column_view(static_cast<sqlite3_stmt*>(const_cast<void*>(stmt)), column);
}

// One use of a cached statement: resets it and drops its bindings however the use ends (a
// visitor that throws included), so the next use starts clean and no binding keeps pointing at
// the caller's dead memory. A cached statement can serve one use at a time; a visitor that
// re-enters the backend with the same statement gets an error rather than a corrupted scan.
class StatementUse {
 public:
  // rebinds_all: every use binds each parameter, so no binding can outlive its buffer into a
  // later step, and clearing them (a call per statement use) is left out.
  StatementUse(sqlite3_stmt* stmt, bool& in_use, std::string_view table, std::string_view operation,
               bool rebinds_all = false)
      : stmt_(stmt), in_use_(in_use), clear_(!rebinds_all) {
    if (in_use_) {
      throw BackendError(errc::misuse,
                         context(table, operation) +
                             "re-entered the backend from a visitor with a statement still in use");
    }
    in_use_ = true;
  }
  StatementUse(const StatementUse&) = delete;
  StatementUse& operator=(const StatementUse&) = delete;
  ~StatementUse() {
    sqlite3_reset(stmt_);
    if (clear_) sqlite3_clear_bindings(stmt_);
    in_use_ = false;
  }
  sqlite3_stmt* get() const noexcept { return stmt_; }

 private:
  sqlite3_stmt* stmt_;
  bool& in_use_;
  bool clear_;
};

}  // namespace pksk::sqlite::detail
