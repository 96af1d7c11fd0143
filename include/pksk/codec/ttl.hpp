// SPDX-License-Identifier: BSL-1.0
#pragma once
// An entity's time-to-live member: the moment after which its item is never read again.
//
//   template <> struct pksk::Entity<Reading> {
//     ...
//     static constexpr std::string_view ttl = "expires";  // by C++ member name
//   };
//
// The member is a std::chrono::system_clock::time_point or an std::optional of one (empty: the
// item never expires). It is stored as DynamoDB's TTL expects it, on both backends: whole
// seconds since the Unix epoch as a number, under the member's stored name. Every other
// time_point stays an ISO 8601 string. Which attribute expires items is the table's choice
// (TableOptions::ttl_attribute), as it is DynamoDB's.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "../detail/diagnose.hpp"
#include "../detail/fixed_string.hpp"
#include "../detail/iso8601.hpp"
#include "../detail/std_traits.hpp"
#include "../key/entity.hpp"
#include "../key/key.hpp"
#include "../reflect/reflect.hpp"

namespace pksk {

namespace diagnostics {
// Entity<T>::ttl names no member of Record (by its C++ name).
template <class Record, detail::fixed_string Name>
struct ttl_names_no_member_of_the_entity;
// Entity<T>::ttl names a member that is neither a std::chrono::system_clock::time_point nor an
// std::optional of one.
template <class Record, detail::fixed_string Member, class Type>
struct ttl_member_must_be_a_system_clock_time_point;
}  // namespace diagnostics

namespace detail {

template <class T>
consteval std::string_view ttl_name_of() {
  if constexpr (requires { Entity<T>::ttl; }) {
    return std::string_view(Entity<T>::ttl);
  } else {
    return {};
  }
}

// The C++ name of T's ttl member; empty when T has none.
template <class T>
inline constexpr std::string_view ttl_name_v = ttl_name_of<T>();

template <class T>
inline constexpr bool has_ttl_v = !ttl_name_v<T>.empty();

// The index of T's ttl member (field_count_v<T> when it has none, or names no member).
template <class T>
inline constexpr std::size_t ttl_field_v = [] {
  if constexpr (has_ttl_v<T>) {
    return field_index<T>(ttl_name_v<T>);
  } else {
    return field_count_v<T>;
  }
}();

template <class M>
inline constexpr bool ttl_member_type_v =
    std::is_same_v<M, TimePoint> || std::is_same_v<M, std::optional<TimePoint>>;

template <class T>
inline constexpr fixed_string<ttl_name_v<T>.size()> ttl_name_text_v{ttl_name_v<T>};

template <class T>
consteval bool ttl_declaration_ok() {
  if constexpr (!has_ttl_v<T>) {
    return true;
  } else if constexpr (ttl_field_v<T> == field_count_v<T>) {
    return diagnose_v<false, diagnostics::ttl_names_no_member_of_the_entity<T, ttl_name_text_v<T>>>;
  } else {
    using M = field_type_t<T, ttl_field_v<T>>;
    return diagnose_v<ttl_member_type_v<M>,
                      diagnostics::ttl_member_must_be_a_system_clock_time_point<
                          T, field_name_text_v<T, ttl_field_v<T>>, M>>;
  }
}

// Reports a wrong Entity<T>::ttl, once per entity.
template <class T>
struct TtlCheck {
  static constexpr bool ok = ttl_declaration_ok<T>();
};

// Whether field I of T is its ttl member, once the declaration has been checked: false for a
// wrong one, so that its diagnostic is the only error.
template <class T, std::size_t I>
inline constexpr bool is_ttl_field_v = [] {
  if constexpr (has_ttl_v<T>) {
    return TtlCheck<T>::ok && I == ttl_field_v<T>;
  } else {
    return false;
  }
}();

// A time_point as DynamoDB's TTL reads it: whole seconds since the epoch, rounded down.
inline std::int64_t epoch_seconds(TimePoint t) noexcept {
  return std::chrono::floor<std::chrono::seconds>(t.time_since_epoch()).count();
}

inline TimePoint from_epoch_seconds(std::int64_t seconds) noexcept {
  return TimePoint(std::chrono::seconds(seconds));
}

}  // namespace detail
}  // namespace pksk
