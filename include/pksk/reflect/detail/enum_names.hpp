// SPDX-License-Identifier: BSL-1.0
#pragma once
// Enumerator names, recovered at compile time by probing each value of a range: the
// technique of magic_enum. The range is pksk::EnumRange<E> (see reflect.hpp).

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "pretty_name.hpp"

namespace pksk::detail {

// const char*, not string_view: g++ would append "; std::string_view = ..." to the signature.
template <auto Value>
consteval const char* enum_value_signature() noexcept {
  return __PRETTY_FUNCTION__;
}

// g++ spells a named value "... [with auto Value = Color::red]" and an unnamed one
// "... [with auto Value = (Color)7]"; clang likewise with "[Value = ...]".
constexpr std::string_view enumerator_name(std::string_view signature) noexcept {
  std::string_view name = last_identifier(signature);
  const std::size_t at = signature.size() - name.size();
  // "(Color)7": the identifier is a number preceded by ')'
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return {};
  if (at > 0 && signature[at - 1] == ')') return {};
  return name;
}

template <class E, long long Underlying>
struct EnumeratorName {
  // bit_cast, not static_cast: clang >= 16 rejects a static_cast to an enum outside its
  // range of values in a constant expression, which probing must be able to reach.
  static constexpr E probe = std::bit_cast<E>(static_cast<std::underlying_type_t<E>>(Underlying));
  static constexpr std::string_view parsed =
      enumerator_name(std::string_view{enum_value_signature<probe>()});
  static constexpr StaticName<parsed.size()> storage{parsed};
  static constexpr std::string_view value = storage.view();
};

template <class E>
struct EnumEntry {
  E value;
  std::string_view name;
};

template <class E, long long Min, std::size_t... I>
consteval auto probe_enum(std::index_sequence<I...>) noexcept {
  constexpr std::array<std::string_view, sizeof...(I)> names{
      EnumeratorName<E, Min + static_cast<long long>(I)>::value...};
  constexpr std::size_t count = static_cast<std::size_t>(
      std::count_if(names.begin(), names.end(), [](std::string_view n) { return !n.empty(); }));
  std::array<EnumEntry<E>, count> entries{};
  std::size_t out = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) continue;
    const auto raw = static_cast<std::underlying_type_t<E>>(Min + static_cast<long long>(i));
    entries[out++] = {std::bit_cast<E>(raw), names[i]};
  }
  return entries;
}

template <class E, long long Min, long long Max>
struct EnumTable {
  using U = std::underlying_type_t<E>;
  static constexpr long long lo = std::max<long long>(Min, std::numeric_limits<U>::min());
  static constexpr long long hi = std::min<long long>(Max, std::numeric_limits<U>::max());
  static constexpr auto entries =
      probe_enum<E, lo>(std::make_index_sequence<static_cast<std::size_t>(hi - lo + 1)>{});
};

}  // namespace pksk::detail
