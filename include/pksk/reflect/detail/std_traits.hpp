// SPDX-License-Identifier: BSL-1.0
#pragma once
// Which standard container a member type is: the codec and structural equality both walk
// members by these.

#include <map>
#include <optional>
#include <vector>

namespace pksk::detail {

template <class T>
inline constexpr bool is_optional_v = false;
template <class T>
inline constexpr bool is_optional_v<std::optional<T>> = true;

template <class T>
inline constexpr bool is_vector_v = false;
template <class T, class A>
inline constexpr bool is_vector_v<std::vector<T, A>> = true;

template <class T>
inline constexpr bool is_map_v = false;
template <class K, class V, class C, class A>
inline constexpr bool is_map_v<std::map<K, V, C, A>> = true;

}  // namespace pksk::detail
