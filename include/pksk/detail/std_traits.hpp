// SPDX-License-Identifier: BSL-1.0
#pragma once
// Which standard container a member type is, and what it holds: the codec, the expressions and
// structural equality all walk members by these.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
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

// std::vector<std::byte>: a binary value (DynamoDB's B), not a list. So are
// std::vector<std::uint8_t> and std::vector<unsigned char> (one type wherever std::uint8_t is
// a byte), the other usual spellings of bytes: a list of small numbers is rarely what they hold.
template <class T>
inline constexpr bool is_binary_v = false;
template <class A>
inline constexpr bool is_binary_v<std::vector<std::byte, A>> = true;
template <class A>
inline constexpr bool is_binary_v<std::vector<unsigned char, A>> = true;

template <class T>
inline constexpr bool is_map_v = false;
template <class K, class V, class C, class A>
inline constexpr bool is_map_v<std::map<K, V, C, A>> = true;

// The type a member's values hold: an optional's value, a vector's element, a string map's
// mapped type; void for one that holds no other (a scalar, a string, a set, a record). The
// compile-time walks over member types (holds_no_record, holds_string_set_member) go down
// through it.
template <class T>
struct held {
  using type = void;
};
template <class T>
struct held<std::optional<T>> {
  using type = T;
};
template <class T, class A>
struct held<std::vector<T, A>> {
  using type = T;
};
template <class T, class C, class A>
struct held<std::map<std::string, T, C, A>> {
  using type = T;
};
template <class T>
using held_t = typename held<T>::type;

// A member's type without its std::optional: the type of its value when present.
template <class T>
using unwrap_optional_t = std::conditional_t<is_optional_v<T>, held_t<T>, T>;

}  // namespace pksk::detail
