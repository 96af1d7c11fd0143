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
//
// Entity<T>::unique_values gives members of the list options of their own (UniqueValue): a
// key-text function applied to that text before it keys the guard (case-insensitive emails),
// and whether a value whose key text is empty claims a guard at all:
//
//   static constexpr std::tuple unique_values{
//       pksk::unique_value<"email">(lower_case, {.claim_empty = false})};
//
// The options live in the entity beside the names, rather than in a specialisation of their
// own (UniqueValue<T, "email">), so that an entry naming no unique member, a typo, is a compile
// error: the specialisations of a template cannot be enumerated, the entries of a tuple can.

#include <array>
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

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
// Entity<T>::unique_values has an entry for a name that Entity<T>::unique does not list.
template <class Entity, detail::fixed_string Member>
struct unique_value_names_no_unique_member_of_the_entity;
// A unique_value's key-text function cannot be called as std::string(std::string_view).
template <class Entity, detail::fixed_string Member>
struct unique_value_key_text_is_not_a_function_of_string_view_returning_string;
// Entity<T>::unique_values has two entries for one member.
template <class Entity, detail::fixed_string Member>
struct unique_value_names_a_member_twice;
}  // namespace diagnostics

// How one unique member's values claim guards (Entity<T>::unique_values).
struct UniqueValueOptions {
  // Whether a value whose key text is empty (an empty string, or one the key-text function
  // makes empty) claims a guard. false: any number of items may hold it, as an empty optional.
  bool claim_empty = true;
};

namespace detail {
// The key text of a unique member without a function of its own: its text as stored.
struct KeyTextAsStored {
  std::string operator()(std::string_view text) const { return std::string(text); }
};
}  // namespace detail

// One entry of Entity<T>::unique_values: the options of the unique member Member and the
// function its values' text goes through before it keys their guard (KeyTextAsStored: none).
template <detail::fixed_string Member, class KeyText = detail::KeyTextAsStored>
struct UniqueValue {
  static constexpr detail::fixed_string name = Member;  // the member, as Entity<T>::unique names it
  // Whether the entry gives a key-text function of its own.
  static constexpr bool has_key_text = !std::is_same_v<KeyText, detail::KeyTextAsStored>;
  UniqueValueOptions options{};  // how the member's values claim guards
  KeyText key_text{};            // what a value's text goes through before it keys its guard
};

// pksk::unique_value<"handle">({.claim_empty = false})
// Throws: nothing.
// Exception safety: nothrow.
template <detail::fixed_string Member>
constexpr UniqueValue<Member> unique_value(UniqueValueOptions options = {}) {
  return {options, {}};
}
// pksk::unique_value<"email">(lower_case): `key_text`, a function (or function object) taking
// the value's text as std::string_view and returning the text that keys its guard as
// std::string, such as lower-casing or trimming it. Two values with the same key text collide.
// Throws: what copying `key_text` throws.
// Exception safety: strong.
template <detail::fixed_string Member, class KeyText>
  requires(!std::is_same_v<std::remove_cvref_t<KeyText>, UniqueValueOptions>)
constexpr UniqueValue<Member, std::decay_t<KeyText>> unique_value(KeyText key_text,
                                                                  UniqueValueOptions options = {}) {
  return {options, key_text};
}

namespace detail {

template <class T>
concept DeclaresUnique = requires { Entity<T>::unique; };

template <class T>
concept DeclaresUniqueValues = requires { Entity<T>::unique_values; };

template <class T>
using unique_values_tuple_t = std::remove_cvref_t<decltype(Entity<T>::unique_values)>;

template <class T>
consteval std::size_t unique_values_count() {
  if constexpr (DeclaresUniqueValues<T>) {
    return std::tuple_size_v<unique_values_tuple_t<T>>;
  } else {
    return 0;
  }
}

template <class T, std::size_t I>
using unique_value_entry_t = std::tuple_element_t<I, unique_values_tuple_t<T>>;

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
  enum class Kind {
    none,
    no_member,
    key_member,
    type,
    value_not_unique,  // `at`: the entry of Entity<T>::unique_values, as for the two below
    value_twice,
    value_key_text
  } kind = Kind::none;
  std::size_t at = 0;  // the entry of Entity<T>::unique
};

template <class T>
constexpr bool lists_unique(std::string_view name) {
  for (std::size_t i = 0; i < unique_count<T>(); ++i) {
    if (std::string_view(Entity<T>::unique[i]) == name) return true;
  }
  return false;
}

template <class T, std::size_t I>
inline constexpr bool unique_key_text_ok_v =
    std::is_invocable_r_v<std::string, const decltype(unique_value_entry_t<T, I>::key_text)&,
                          std::string_view>;

template <class T>
consteval UniqueProblem unique_values_problem() {
  UniqueProblem found{};
  if constexpr (DeclaresUniqueValues<T>) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      const std::array<std::string_view, sizeof...(I)> names{
          unique_value_entry_t<T, I>::name.view()...};
      const std::array<bool, sizeof...(I)> key_text_ok{unique_key_text_ok_v<T, I>...};
      for (std::size_t i = 0; i < names.size() && found.kind == UniqueProblem::Kind::none; ++i) {
        if (!lists_unique<T>(names[i])) {
          found = {UniqueProblem::Kind::value_not_unique, i};
        } else if (!key_text_ok[i]) {
          found = {UniqueProblem::Kind::value_key_text, i};
        }
        for (std::size_t j = 0; j < i && found.kind == UniqueProblem::Kind::none; ++j) {
          if (names[j] == names[i]) found = {UniqueProblem::Kind::value_twice, i};
        }
      }
    }(std::make_index_sequence<unique_values_count<T>()>{});
  }
  return found;
}

template <class T>
consteval UniqueProblem unique_problem() {
  for (std::size_t i = 0; i < unique_count<T>(); ++i) {
    const std::size_t field = field_named<T>(std::string_view(Entity<T>::unique[i]));
    if (field == field_count_v<T>) return {UniqueProblem::Kind::no_member, i};
    if (is_key_member<T>(field)) return {UniqueProblem::Kind::key_member, i};
    if (!unique_type_ok<T>(field)) return {UniqueProblem::Kind::type, i};
  }
  return unique_values_problem<T>();
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

template <class T, UniqueProblem P>
  requires(P.kind == UniqueProblem::Kind::value_not_unique)
struct UniqueCheck<T, P> {
  static constexpr bool ok =
      diagnose_v<false, diagnostics::unique_value_names_no_unique_member_of_the_entity<
                            T, unique_value_entry_t<T, P.at>::name>>;
};
template <class T, UniqueProblem P>
  requires(P.kind == UniqueProblem::Kind::value_twice)
struct UniqueCheck<T, P> {
  static constexpr bool ok = diagnose_v<false, diagnostics::unique_value_names_a_member_twice<
                                                   T, unique_value_entry_t<T, P.at>::name>>;
};
template <class T, UniqueProblem P>
  requires(P.kind == UniqueProblem::Kind::value_key_text)
struct UniqueCheck<T, P> {
  static constexpr bool ok = diagnose_v<
      false, diagnostics::unique_value_key_text_is_not_a_function_of_string_view_returning_string<
                 T, unique_value_entry_t<T, P.at>::name>>;
};

// The entry of Entity<T>::unique_values for the unique member `name`, or unique_values_count
// when it has none.
template <class T>
constexpr std::size_t unique_value_entry(std::string_view name) {
  std::size_t found = unique_values_count<T>();
  if constexpr (DeclaresUniqueValues<T>) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((found == unique_values_count<T>() && unique_value_entry_t<T, I>::name.view() == name
            ? (found = I)
            : found),
       ...);
    }(std::make_index_sequence<unique_values_count<T>()>{});
  }
  return found;
}

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

// An entity with unique_values and no unique list is one too: its check then reports each entry
// as naming no unique member.
template <class T>
concept UniqueEntity = EntityType<T> && (unique_count<T>() != 0 || DeclaresUniqueValues<T>);

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
