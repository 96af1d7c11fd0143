// SPDX-License-Identifier: BSL-1.0
#pragma once
// Unique members: Entity<T>::unique names members whose values no two items of T may share
// (an account's email). DynamoDB has no unique constraint beyond the key, so each value claims
// a guard item of its own, written and removed in the same transaction as the item (OneTable's
// design): a second claim of a value fails the guard's attribute_not_exists condition.
//
//   template <> struct pksk::Entity<Account> {
//     ...
//     static constexpr std::array unique = {"email"};
//   };
//
// A guard's partition and sort key are "_unique#<type>#<stored name>#<value>", its type
// "_unique"; it names its owner (the item's key), the member and the value
// (table/detail/unique_guards.hpp), so that a value whose owner let it go (erased or changed by
// another tool, or expired) can be claimed again. The value in the key is the member's text as
// stored: a string as it is, a number's decimal text, an enum's name, a time in ISO 8601.

#include <array>
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>

#include "../detail/diagnose.hpp"
#include "../detail/fixed_string.hpp"
#include "../detail/std_traits.hpp"
#include "../reflect/reflect.hpp"
#include "detail/parse.hpp"
#include "entity.hpp"
#include "key.hpp"
#include "stored_names.hpp"

namespace pksk {

namespace diagnostics {
// Entity<T>::unique lists a name that is no member of the entity.
template <class Entity, detail::fixed_string Name>
struct unique_names_no_member_of_the_entity;
// A unique member that the item's key is built from: the key is unique already.
template <class Entity, detail::fixed_string Member>
struct unique_member_is_part_of_the_items_key;
// A unique member whose type has no text to key a guard by: it must be a string, an integer,
// an enum or a time (or an optional of one; an empty optional claims nothing).
template <class Entity, detail::fixed_string Member>
struct unique_member_is_not_a_string_integer_enum_or_time;
}  // namespace diagnostics

namespace detail {

template <class T>
concept DeclaresUnique = requires { Entity<T>::unique; };

template <class T>
consteval std::size_t unique_count() {
  if constexpr (DeclaresUnique<T>) {
    return std::size(Entity<T>::unique);
  } else {
    return 0;
  }
}

template <class T>
constexpr std::size_t field_named(std::string_view name) {
  for (std::size_t i = 0; i < field_count_v<T>; ++i) {
    if (field_names_v<T>[i] == name) return i;
  }
  return field_count_v<T>;
}

template <class F>
inline constexpr bool unique_value_v = KeyFieldOf<F, true>;

template <class T>
consteval bool unique_type_ok(std::size_t field) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    bool ok = true;
    ((I == field ? (ok = unique_value_v<field_type_t<T, I>>) : false), ...);
    return ok;
  }(std::make_index_sequence<field_count_v<T>>{});
}

struct UniqueProblem {
  enum class Kind { none, no_member, key_member, type } kind = Kind::none;
  std::size_t at = 0;  // the entry of Entity<T>::unique
};

template <class T>
consteval UniqueProblem unique_problem() {
  for (std::size_t i = 0; i < unique_count<T>(); ++i) {
    const std::size_t field = field_named<T>(std::string_view(Entity<T>::unique[i]));
    if (field == field_count_v<T>) return {UniqueProblem::Kind::no_member, i};
    if (is_key_member<T>(field)) return {UniqueProblem::Kind::key_member, i};
    if (!unique_type_ok<T>(field)) return {UniqueProblem::Kind::type, i};
  }
  return {};
}

template <class T, std::size_t At>
inline constexpr fixed_string<std::string_view(Entity<T>::unique[At]).size()> unique_name_text_v{
    std::string_view(Entity<T>::unique[At])};

// The one error for T's unique list, if it has one.
template <class T, UniqueProblem P = unique_problem<T>()>
struct UniqueCheck {
  static constexpr bool ok = true;
};
template <class T, UniqueProblem P>
  requires(P.kind == UniqueProblem::Kind::no_member)
struct UniqueCheck<T, P> {
  static constexpr bool ok =
      diagnose_v<false,
                 diagnostics::unique_names_no_member_of_the_entity<T, unique_name_text_v<T, P.at>>>;
};
template <class T, UniqueProblem P>
  requires(P.kind == UniqueProblem::Kind::key_member)
struct UniqueCheck<T, P> {
  static constexpr bool ok = diagnose_v<
      false, diagnostics::unique_member_is_part_of_the_items_key<T, unique_name_text_v<T, P.at>>>;
};
template <class T, UniqueProblem P>
  requires(P.kind == UniqueProblem::Kind::type)
struct UniqueCheck<T, P> {
  static constexpr bool ok =
      diagnose_v<false, diagnostics::unique_member_is_not_a_string_integer_enum_or_time<
                            T, unique_name_text_v<T, P.at>>>;
};

// The members of T's unique list, by field index; empty when T declares none.
template <class T>
inline constexpr auto unique_fields_v = [] {
  std::array<std::size_t, unique_count<T>()> out{};
  if constexpr (UniqueCheck<T>::ok) {
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = field_named<T>(std::string_view(Entity<T>::unique[i]));
  }
  return out;
}();

template <class T>
concept UniqueEntity = EntityType<T> && (unique_count<T>() != 0);

inline constexpr std::string_view unique_guard_type = "_unique";

// A guard's key text: the same for its partition and its sort key.
inline std::string unique_guard_key(std::string_view type, std::string_view stored_name,
                                    std::string_view value) {
  std::string key;
  key.reserve(9 + type.size() + stored_name.size() + value.size());
  key += "_unique#";
  key += type;
  key += '#';
  key += stored_name;
  key += '#';
  key += value;
  return key;
}

}  // namespace detail

}  // namespace pksk
