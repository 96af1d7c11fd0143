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

template <class T>
class [[nodiscard]] WriteResult {
  static_assert(!std::is_reference_v<T> && !std::is_same_v<std::remove_cv_t<T>, ConditionFailed>);

 public:
  WriteResult(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  WriteResult(ConditionFailed failed) : state_(std::in_place_index<1>, std::move(failed)) {}

  bool has_value() const noexcept { return state_.index() == 0; }
  bool has_error() const noexcept { return state_.index() == 1; }
  explicit operator bool() const noexcept { return has_value(); }

  // The write's result; throws the ConditionFailed if the condition failed.
  T& value() & {
    if (has_error()) throw error();
    return std::get<0>(state_);
  }
  const T& value() const& {
    if (has_error()) throw error();
    return std::get<0>(state_);
  }
  T&& value() && { return std::move(value()); }

  // The write's result, which it must hold (has_value()).
  T& operator*() & noexcept {
    assert(has_value());
    return *std::get_if<0>(&state_);
  }
  const T& operator*() const& noexcept {
    assert(has_value());
    return *std::get_if<0>(&state_);
  }
  T* operator->() noexcept { return &**this; }
  const T* operator->() const noexcept { return &**this; }

  // The ConditionFailed, which it must hold (has_error()).
  const ConditionFailed& error() const& noexcept {
    assert(has_error());
    return *std::get_if<1>(&state_);
  }

 private:
  std::variant<T, ConditionFailed> state_;
};

template <>
class [[nodiscard]] WriteResult<void> {
 public:
  WriteResult() noexcept = default;
  WriteResult(ConditionFailed failed) : failed_(std::move(failed)) {}

  bool has_value() const noexcept { return !failed_; }
  bool has_error() const noexcept { return failed_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }

  // Throws the ConditionFailed if the condition failed.
  void value() const {
    if (failed_) throw *failed_;
  }

  const ConditionFailed& error() const& noexcept {
    assert(has_error());
    return *failed_;
  }

 private:
  std::optional<ConditionFailed> failed_;
};

}  // namespace pksk
