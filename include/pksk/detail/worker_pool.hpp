// SPDX-License-Identifier: BSL-1.0
#pragma once
// WorkerPool: threads that stay between calls, for reads a Table runs side by side (the
// partitions of a fan-out read). They stay because a backend keeps per-thread state that is
// costly to make: the DynamoDB backend's libcurl handle (its open connection, a TLS handshake
// on AWS) and the SQLite backend's connection and prepared statements. A thread made per call
// would pay for them on every call. The threads start when a call first needs them and are
// joined when the pool is destroyed (with the last copy of the Table that owns it).

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

#include "config.hpp"

namespace pksk::detail {

// How many scopes on this thread count what its own requests do (a DynamoDB CapacityTally): while
// one lives, reads that would run on a pool's threads run on this one, where it counts them.
inline int& requests_observed_on_this_thread() noexcept {
  thread_local int scopes = 0;
  return scopes;
}

class WorkerPool {
 public:
  WorkerPool() = default;
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  PKSK_DECL ~WorkerPool();

  // Calls task(0) .. task(n - 1), at most `width` of them at once (the calling thread is one
  // of them), and returns once every call has returned. When calls throw, the exception of the
  // lowest index is rethrown, as a loop over the indexes would have thrown first. Any number of
  // threads may run calls at once; width 1 (or n 1) runs them in order on the calling thread.
  PKSK_DECL void run(std::size_t n, std::size_t width,
                     const std::function<void(std::size_t)>& task);

 private:
  struct Job {
    Job(const std::function<void(std::size_t)>& t, std::size_t count, std::size_t most)
        : task(&t), n(count), width(most), failures(count) {}
    const std::function<void(std::size_t)>* task;
    std::size_t n;
    std::size_t width;
    std::size_t next = 0;      // the next index to hand out
    std::size_t running = 0;   // threads working on this job
    std::size_t finished = 0;  // calls returned
    std::vector<std::exception_ptr> failures;
    std::condition_variable done;
  };

  // Runs the job's calls until none is left to hand out; `lock` is held between calls.
  void work_on(Job& job, std::unique_lock<std::mutex>& lock);
  Job* job_with_room();
  void worker();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::list<Job*> jobs_;
  std::vector<std::thread> threads_;
  bool stopping_ = false;
};

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/worker_pool.ipp"
#endif
