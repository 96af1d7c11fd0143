// SPDX-License-Identifier: BSL-1.0
#pragma once
// The file and its connections: opening the database (the SQLite version, UTF-8, WAL, the
// storage format), the connection each thread opens with the Backend's options (busy handler,
// synchronous), and the lease a call holds on it (detail/connections.hpp says why per thread).

#include "backend_impl.ipp"

namespace pksk::sqlite {

inline const std::string& Backend::Impl::path() const noexcept {
  static const std::string none;
  return shared_ ? shared_->path : none;
}

inline void Backend::Impl::construct(std::string path, Options options) {
  // The headers may be newer than the library the program is linked or loaded with.
  if (sqlite3_libversion_number() < 3037000) {
    throw BackendError(
        errc::backend_failure,
        std::string("pksk::sqlite: needs SQLite 3.37 or later, found ") + sqlite3_libversion());
  }
  shared_->path = std::move(path);
  shared_->options = options;
  shared_->single_connection = !is_file();
  // The constructing thread's connection: it checks the file once for every later one.
  std::unique_ptr<detail::ConnectionState> first = open_connection();
  sqlite3* db = first->db();

  // Byte order and the non-UTF-8 begins_with bound both need keys stored as UTF-8 as given;
  // a UTF-16 database would transcode them. The pragma only affects a still empty file.
  if (!options.read_only) pragma(db, "PRAGMA encoding = 'UTF-8'");
  if (const std::string encoding = pragma(db, "PRAGMA encoding"); encoding != "UTF-8") {
    throw BackendError(errc::schema_mismatch, "pksk::sqlite: \"" + this->path() + "\" uses the " +
                                                  encoding +
                                                  " encoding; pksk needs a UTF-8 database");
  }
  if (is_file() && !options.read_only) {
    // Persistent in the file: every later connection, in any process, opens it in WAL.
    if (const std::string mode = pragma(db, "PRAGMA journal_mode = WAL"); mode != "wal") {
      throw BackendError(errc::backend_failure,
                         "pksk::sqlite: " + open_operation() +
                             " failed: could not switch to WAL (journal_mode is " + mode + ")");
    }
  }
  detail::check_storage_format(db, this->path());
  adopt(std::move(first));
}

inline auto Backend::Impl::connection() const -> Lease {
  detail::Shared* shared = shared_.get();
  if (shared == nullptr)
    throw BackendError(errc::misuse, "pksk::sqlite: use of a moved-from Backend");
  detail::ThreadCache& cache = detail::thread_cache;
  detail::ConnectionState* conn = cache.backend_id == shared->id
                                      ? cache.connection
                                      : &const_cast<Impl*>(this)->thread_connection();
  if (shared->single_connection) return Lease{*conn, std::unique_lock(shared->serial)};
  return Lease{*conn, {}};
}

inline auto Backend::Impl::enter(const TableHandle& table) const -> Call {
  const detail::TableState& t = table.state();
  if (t.owner != shared_.get()) {
    throw BackendError(errc::misuse,
                       detail::context(t.name) + "the handle belongs to another Backend");
  }
  Lease lease = connection();
  return Call{t, lease.conn, lease.conn.statements(t.index), std::move(lease.serial)};
}

// The slow path, once per thread (or after the thread used another Backend): finds or opens
// the thread's connection under the mutex and caches it.
inline detail::ConnectionState& Backend::Impl::thread_connection() {
  detail::Shared& shared = *shared_;
  detail::ConnectionState* found = nullptr;
  {
    const std::lock_guard lock(shared.mutex);
    if (shared.single_connection) {
      found = shared.connections.front().second.get();
    } else {
      for (auto& [thread, conn] : shared.connections) {
        if (thread == std::this_thread::get_id()) found = conn.get();
      }
    }
  }
  if (found == nullptr) found = &adopt(open_connection());
  detail::thread_cache = {shared.id, found};
  return *found;
}

// Registers a connection as the calling thread's, given back when the thread exits.
inline detail::ConnectionState& Backend::Impl::adopt(
    std::unique_ptr<detail::ConnectionState> conn) {
  detail::ConnectionState& out = *conn;
  {
    const std::lock_guard lock(shared_->mutex);
    shared_->connections.emplace_back(std::this_thread::get_id(), std::move(conn));
  }
  if (!shared_->single_connection) detail::thread_exit.add(shared_);
  detail::thread_cache = {shared_->id, &out};
  return out;
}

// A new connection with this Backend's settings (per connection in SQLite: busy handler and
// synchronous level).
inline std::unique_ptr<detail::ConnectionState> Backend::Impl::open_connection() const {
  const Options& options = shared_->options;
  const int flags =
      (options.read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
      SQLITE_OPEN_NOMUTEX;
  auto conn = std::make_unique<detail::ConnectionState>();
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(shared_->path.c_str(), &raw, flags, nullptr);
  conn->conn.reset(raw);  // open_v2 hands out a handle (to close) even when it fails
  if (rc != SQLITE_OK) detail::throw_failure(raw, rc, {}, open_operation());
  conn->busy_timeout = std::max(options.busy_timeout, std::chrono::milliseconds(0));
  detail::check(raw, sqlite3_busy_handler(raw, &detail::ConnectionState::on_busy, conn.get()), {},
                open_operation());
  switch (options.synchronous) {
    case Synchronous::normal:
      pragma(raw, "PRAGMA synchronous = NORMAL");
      break;
    case Synchronous::full:
      pragma(raw, "PRAGMA synchronous = FULL");
      break;
    case Synchronous::extra:
      pragma(raw, "PRAGMA synchronous = EXTRA");
      break;
  }
  return conn;
}

inline bool Backend::Impl::is_file() const noexcept {
  return !path().empty() && path() != ":memory:";
}

inline std::string Backend::Impl::open_operation() const {
  return "open of \"" + path() + "\"";
}

// Runs a pragma and returns the first column of its first row, if any.
inline std::string Backend::Impl::pragma(sqlite3* db, std::string_view sql) const {
  std::string value;
  detail::for_each_row(db, sql, {}, {}, open_operation(), [&](sqlite3_stmt* s) {
    if (value.empty()) {
      value = std::string(detail::column_view(s, 0));
    }
  });
  return value;
}

}  // namespace pksk::sqlite
