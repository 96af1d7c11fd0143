// SPDX-License-Identifier: BSL-1.0
#pragma once
// The SQLite backend's options: how long a write waits for another's lock, read-only, and how
// often the write-ahead log is synced (docs/durability.md).

#include <chrono>

namespace pksk::sqlite {

// Outside Backend so that `Options options = {}` can be a default argument of its constructor.
// SQLite's `PRAGMA synchronous` in WAL mode (docs/durability.md). Either way a process crash
// loses no committed write and no level ever half-writes a transaction; they differ on power
// loss or an operating system crash.
enum class Synchronous : unsigned char {
  // The WAL is synced at checkpoints only: a power loss may lose the transactions committed
  // since the last checkpoint, never the file's consistency. SQLite's recommended WAL setting.
  normal,
  // The WAL is synced at every commit: a committed transaction survives a power loss too, for
  // one fsync a write transaction.
  full,
  // As full, and the directory is synced when the WAL is created or deleted.
  extra,
};

// How a sqlite::Backend opens its file: the lock wait, read-only, and durability.
struct Options {
  // How long a write waits for another connection's lock (with retries where SQLite does not
  // wait itself) before failing with BackendError "database is locked".
  std::chrono::milliseconds busy_timeout{5000};
  // Opens an existing file read-only: reads work, open_table of an absent table and every write
  // throw BackendError.
  bool read_only = false;
  // What a commit survives (see Synchronous and docs/durability.md).
  Synchronous synchronous = Synchronous::normal;
};

}  // namespace pksk::sqlite
