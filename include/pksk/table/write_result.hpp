// SPDX-License-Identifier: BSL-1.0
#pragma once
// What Table's try_put, try_update, try_upsert and try_erase return: the write's result, or the
// ConditionFailed the same write would have thrown. For writes whose condition failing is
// ordinary control flow (a stale version in an optimistic-locking retry loop, a unique value
// another item holds, if_absent racing another writer), as Boost.JSON offers its parse both
// throwing and not: no exception is thrown and caught for each such failure. Every other
// failure (a backend error, an invalid key) is still thrown.
//
//   pksk::WriteResult<void> written = table.try_put(account);
//   if (!written) { /* written.error() is the ConditionFailed, with its message and stored item */
//   } written.value();  // throws the ConditionFailed, if it holds one
//
// It holds the exception object rather than an error code (boost::system::result's model), so
// that what the failure says (its message, the stored item of return_stored_on_failure)
// survives; its code() is still the error code.

#include <cassert>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "../error.hpp"

namespace pksk {

// What try_put, try_update, try_upsert and try_erase return: the write's result, or the
// ConditionFailed it would have thrown (nothing written then).
template <class T>
class [[nodiscard]] WriteResult {
  static_assert(!std::is_reference_v<T> && !std::is_same_v<std::remove_cv_t<T>, ConditionFailed>);

 public:
  // A write that went through, with its result.
  // Throws: what T's move constructor throws.
  // Exception safety: strong.
  WriteResult(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  // A write whose condition failed.
  // Throws: nothing.
  // Exception safety: nothrow.
  WriteResult(ConditionFailed failed) : state_(std::in_place_index<1>, std::move(failed)) {}

  // Whether the write went through.
  // Throws: nothing.
  // Exception safety: nothrow.
  bool has_value() const noexcept { return state_.index() == 0; }
  // Whether the condition failed (nothing was written).
  // Throws: nothing.
  // Exception safety: nothrow.
  bool has_error() const noexcept { return state_.index() == 1; }
  // has_value().
  // Throws: nothing.
  // Exception safety: nothrow.
  explicit operator bool() const noexcept { return has_value(); }

  // The write's result; throws the ConditionFailed if the condition failed.
  // Throws: ConditionFailed, as said.
  // Exception safety: strong.
  T& value() & {
    if (has_error()) throw error();
    return std::get<0>(state_);
  }
  // As value(), of a const result.
  // Throws: ConditionFailed if the condition failed.
  // Exception safety: strong.
  const T& value() const& {
    if (has_error()) throw error();
    return std::get<0>(state_);
  }
  // As value(), moved out of a temporary result.
  // Throws: ConditionFailed if the condition failed.
  // Exception safety: strong.
  T&& value() && { return std::move(value()); }

  // The write's result, which it must hold (has_value()).
  // Throws: nothing.
  // Exception safety: nothrow.
  T& operator*() & noexcept {
    assert(has_value());
    return *std::get_if<0>(&state_);
  }
  // As *result, of a const result.
  // Throws: nothing.
  // Exception safety: nothrow.
  const T& operator*() const& noexcept {
    assert(has_value());
    return *std::get_if<0>(&state_);
  }
  // The result's members, which it must hold.
  // Throws: nothing.
  // Exception safety: nothrow.
  T* operator->() noexcept { return &**this; }
  // As ->, of a const result.
  // Throws: nothing.
  // Exception safety: nothrow.
  const T* operator->() const noexcept { return &**this; }

  // The ConditionFailed, which it must hold (has_error()).
  // Throws: nothing.
  // Exception safety: nothrow.
  const ConditionFailed& error() const& noexcept {
    assert(has_error());
    return *std::get_if<1>(&state_);
  }

 private:
  std::variant<T, ConditionFailed> state_;
};

// What try_put of a write that returns nothing gives: success, or the ConditionFailed.
template <>
class [[nodiscard]] WriteResult<void> {
 public:
  // A write that went through.
  // Throws: nothing.
  // Exception safety: nothrow.
  WriteResult() noexcept = default;
  // A write whose condition failed.
  // Throws: nothing.
  // Exception safety: nothrow.
  WriteResult(ConditionFailed failed) : failed_(std::move(failed)) {}

  // Whether the write went through.
  // Throws: nothing.
  // Exception safety: nothrow.
  bool has_value() const noexcept { return !failed_; }
  // Whether the condition failed (nothing was written).
  // Throws: nothing.
  // Exception safety: nothrow.
  bool has_error() const noexcept { return failed_.has_value(); }
  // has_value().
  // Throws: nothing.
  // Exception safety: nothrow.
  explicit operator bool() const noexcept { return has_value(); }

  // Throws the ConditionFailed if the condition failed.
  // Throws: ConditionFailed, as said.
  // Exception safety: strong.
  void value() const {
    if (failed_) throw *failed_;
  }

  // The ConditionFailed, which it must hold (has_error()).
  // Throws: nothing.
  // Exception safety: nothrow.
  const ConditionFailed& error() const& noexcept {
    assert(has_error());
    return *failed_;
  }

 private:
  std::optional<ConditionFailed> failed_;
};

}  // namespace pksk
