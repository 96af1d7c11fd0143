// SPDX-License-Identifier: BSL-1.0
#pragma once
// ThreadLease<T>: a thread's own T, lent to one call at a time and reused from call to call, so
// that a warm call allocates nothing for its scratch and threads never share it. A call made
// while the thread's T is lent out (a visitor calling back into the library, two transactions
// built at once) gets a fresh T of its own, freed with the lease: re-entry must not scribble on
// the outer call's buffers.
//
// One T per thread per Tag: two users that lease the same T type for unrelated purposes name
// their own Tag so that one's lease does not push the other onto fresh allocations. The lease
// is movable (a function may return it with the T it filled), not copyable. Its common path is
// what the hand-written leases it replaces cost: one thread_local, one flag, one pointer.

#include <memory>
#include <utility>

namespace pksk::detail {

template <class T, class Tag = T>
class ThreadLease {
  struct Slot {
    T value = T();  // value-initialized, not aggregate-initialized: T may have explicit members
    bool lent = false;
  };

 public:
  ThreadLease() {
    static thread_local Slot mine;
    if (mine.lent) {
      own_ = std::make_unique<Slot>();
      slot_ = own_.get();
    } else {
      slot_ = &mine;
    }
    slot_->lent = true;
  }
  ThreadLease(ThreadLease&& other) noexcept
      : slot_(std::exchange(other.slot_, nullptr)), own_(std::move(other.own_)) {}
  ThreadLease(const ThreadLease&) = delete;
  ThreadLease& operator=(const ThreadLease&) = delete;
  ThreadLease& operator=(ThreadLease&&) = delete;
  ~ThreadLease() {
    if (slot_ != nullptr) slot_->lent = false;
  }

  T& operator*() const noexcept { return slot_->value; }
  T* operator->() const noexcept { return &slot_->value; }

 private:
  // The thread's slot, or own_'s for a fresh T (whose flag nobody reads); null once moved from.
  Slot* slot_ = nullptr;
  std::unique_ptr<Slot> own_;
};

}  // namespace pksk::detail
