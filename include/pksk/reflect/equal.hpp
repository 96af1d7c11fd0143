// SPDX-License-Identifier: BSL-1.0
#pragma once
// Equality of entities that declare no operator==: the plain structs of the docs compare
// member by member, through the same reflection the codec uses. A type that has its own
// operator== keeps it.

#include <cstddef>
#include <map>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "../detail/std_traits.hpp"
#include "reflect.hpp"

namespace pksk {

// Whether a and b are equal member by member (vectors element by element, optionals by value, other
// types by ==), for records that declare no operator==.
// Throws: what a member's operator== throws.
// Exception safety: strong (it changes nothing).
template <class T>
constexpr bool structurally_equal(const T& a, const T& b) {
  // Containers first: their operator== is declared for any element type, so
  // std::equality_comparable would say yes and then fail on an element without ==.
  if constexpr (detail::is_vector_v<T>) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!structurally_equal(a[i], b[i])) return false;
    }
    return true;
  } else if constexpr (detail::is_optional_v<T>) {
    if (a.has_value() != b.has_value()) return false;
    return !a.has_value() || structurally_equal(*a, *b);
  } else if constexpr (detail::is_map_v<T>) {
    if (a.size() != b.size()) return false;
    for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j) {
      if (!(i->first == j->first) || !structurally_equal(i->second, j->second)) return false;
    }
    return true;
  } else if constexpr (std::equality_comparable<T>) {
    return a == b;
  } else {
    static_assert(Reflectable<T>, "pksk: no operator== and not a reflectable record");
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (structurally_equal(get_field<I>(a), get_field<I>(b)) && ...);
    }(std::make_index_sequence<field_count_v<T>>{});
  }
}

}  // namespace pksk
