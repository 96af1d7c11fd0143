// SPDX-License-Identifier: BSL-1.0
#pragma once
// Enum <-> name, for keys and item bodies: an enum is stored as its enumerator's name, so
// that reordering an enum's values never changes what its items mean.

#include <optional>
#include <string_view>
#include <type_traits>

#include "detail/enum_names.hpp"

namespace pksk {

// The values probed for names. Specialize for an enum whose values lie outside it:
//   template <> struct pksk::EnumRange<Big> { static constexpr long long min = 0, max = 1000; };
template <class E>
struct EnumRange {
  // The lowest value probed.
  static constexpr long long min = -128;
  // The highest value probed.
  static constexpr long long max = 255;
};

// Every named enumerator of E within EnumRange<E>: each entry's value and name.
template <class E>
  requires std::is_enum_v<E>
inline constexpr const auto& enum_entries_v =
    detail::EnumTable<E, EnumRange<E>::min, EnumRange<E>::max>::entries;

// The enumerator's name, or an empty view for a value that has none.
// Throws: nothing.
// Exception safety: nothrow.
template <class E>
  requires std::is_enum_v<E>
constexpr std::string_view enum_name(E value) noexcept {
  for (const auto& entry : enum_entries_v<E>) {
    if (entry.value == value) return entry.name;
  }
  return {};
}

// The enumerator of that name, or nullopt.
// Throws: nothing.
// Exception safety: nothrow.
template <class E>
  requires std::is_enum_v<E>
constexpr std::optional<E> enum_from_name(std::string_view name) noexcept {
  for (const auto& entry : enum_entries_v<E>) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

}  // namespace pksk
