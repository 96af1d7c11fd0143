#pragma once
// ThreadLease<T>: a thread's own T, lent to one call at a time and reused from call to call, so
// that a warm call allocates nothing for its scratch and threads never share it. A call made
// while the thread's T is lent out (a visitor calling back into the library, two transactions
// built at once) gets a fresh T of its own, freed with the lease: re-entry must not scribble on
// the outer call's buffers.
//
// One T per thread per Tag: two users that lease the same T type for unrelated purposes name
// their own Tag so that one's lease does not push the other onto fresh allocations. The lease
// is movable (a function may return it with the T it filled), not copyable.

#include <memory>
#include <utility>

namespace pksk::detail {

template <class T, class Tag = T>
class ThreadLease {
 public:
  ThreadLease() {
    Slot& mine = thread_slot();
    if (!mine.lent) {
      mine.lent = true;
      lent_ = &mine.lent;
      value_ = &mine.value;
    } else {
      own_ = std::make_unique<T>();
      value_ = own_.get();
    }
  }
  ThreadLease(ThreadLease&& other) noexcept
      : value_(std::exchange(other.value_, nullptr)),
        lent_(std::exchange(other.lent_, nullptr)),
        own_(std::move(other.own_)) {}
  ThreadLease(const ThreadLease&) = delete;
  ThreadLease& operator=(const ThreadLease&) = delete;
  ThreadLease& operator=(ThreadLease&&) = delete;
  ~ThreadLease() {
    if (lent_ != nullptr) *lent_ = false;
  }

  T& operator*() const noexcept { return *value_; }
  T* operator->() const noexcept { return value_; }

 private:
  struct Slot {
    T value{};
    bool lent = false;
  };
  static Slot& thread_slot() {
    static thread_local Slot slot;
    return slot;
  }

  T* value_ = nullptr;
  bool* lent_ = nullptr;  // the thread's slot's flag; null for a fresh T or a moved-from lease
  std::unique_ptr<T> own_;
};

}  // namespace pksk::detail
