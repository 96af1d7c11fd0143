// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of detail/worker_pool.hpp: inline through it in header-only mode, compiled
// once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <algorithm>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "../worker_pool.hpp"

namespace pksk::detail {

// More threads than this would only queue on the backend: DynamoDB's per-partition limits and
// the client's own cores bound what runs usefully side by side.
inline constexpr std::size_t max_pool_threads = 64;

PKSK_DECL WorkerPool::~WorkerPool() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

PKSK_DECL void WorkerPool::run(std::size_t n, std::size_t width,
                               const std::function<void(std::size_t)>& task) {
  width = std::min(width, n);
  if (width <= 1) {
    for (std::size_t i = 0; i < n; ++i) task(i);
    return;
  }
  Job job(task, n, width);
  std::unique_lock lock(mutex_);
  // Threads already waiting may be busy with other callers' jobs: the calling thread works too,
  // so a job finishes even when no worker is free.
  const std::size_t wanted = std::min(width - 1, max_pool_threads);
  while (threads_.size() < wanted) threads_.emplace_back([this] { worker(); });
  jobs_.push_back(&job);
  lock.unlock();
  wake_.notify_all();
  lock.lock();
  work_on(job, lock);
  job.done.wait(lock, [&] { return job.finished == job.n; });
  jobs_.remove(&job);
  lock.unlock();
  for (const std::exception_ptr& failure : job.failures) {
    if (failure) std::rethrow_exception(failure);
  }
}

PKSK_DECL void WorkerPool::work_on(Job& job, std::unique_lock<std::mutex>& lock) {
  ++job.running;
  while (job.next < job.n) {
    const std::size_t i = job.next++;
    lock.unlock();
    try {
      (*job.task)(i);
    } catch (...) {
      job.failures[i] = std::current_exception();  // each index has its own slot
    }
    lock.lock();
    ++job.finished;
  }
  --job.running;
  if (job.finished == job.n) job.done.notify_all();
}

PKSK_DECL WorkerPool::Job* WorkerPool::job_with_room() {
  for (Job* job : jobs_) {
    if (job->next < job->n && job->running < job->width) return job;
  }
  return nullptr;
}

PKSK_DECL void WorkerPool::worker() {
  std::unique_lock lock(mutex_);
  for (;;) {
    Job* job = nullptr;
    wake_.wait(lock, [&] { return stopping_ || (job = job_with_room()) != nullptr; });
    if (stopping_) return;
    work_on(*job, lock);
  }
}

}  // namespace pksk::detail
