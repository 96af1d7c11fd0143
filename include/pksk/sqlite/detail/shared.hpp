// SPDX-License-Identifier: BSL-1.0
#pragma once
// What one pksk::sqlite::Backend shares between its threads and its table handles.

#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "../options.hpp"
#include "connections.hpp"

namespace pksk::sqlite::detail {

// What a Backend shares between its threads and with its table handles, at a stable address so
// that handles stay valid when the Backend is moved. Threads reach their connection through
// thread_cache and take `mutex` only to open one (once per thread) or to open a table.
struct Shared {
  std::uint64_t id = next_backend_id();
  std::string path;
  pksk::sqlite::Options options;
  // ":memory:" and "": one connection for every thread, calls serialized by `serial`.
  bool single_connection = false;

  std::mutex mutex;
  std::vector<std::unique_ptr<TableState>> tables;  // append only, under mutex
  std::vector<std::pair<std::thread::id, std::unique_ptr<ConnectionState>>> connections;
  std::recursive_mutex serial;

  // The connection of a thread that exits, closed (its statements first).
  void release(std::thread::id thread) {
    std::unique_ptr<ConnectionState> gone;
    const std::lock_guard lock(mutex);
    for (auto it = connections.begin(); it != connections.end(); ++it) {
      if (it->first == thread) {
        gone = std::move(it->second);
        connections.erase(it);
        break;
      }
    }
  }
};

// Gives a thread's connections back to the Backends still alive when the thread exits.
struct ThreadExit {
  std::vector<std::weak_ptr<Shared>> backends;
  void add(const std::shared_ptr<Shared>& shared) {
    std::erase_if(backends, [](const std::weak_ptr<Shared>& w) { return w.expired(); });
    backends.push_back(shared);
  }
  ~ThreadExit() {
    for (const auto& weak : backends) {
      if (const std::shared_ptr<Shared> shared = weak.lock()) {
        shared->release(std::this_thread::get_id());
      }
    }
  }
};
inline thread_local ThreadExit thread_exit;

}  // namespace pksk::sqlite::detail
