// SPDX-License-Identifier: BSL-1.0
#pragma once
// The attribute name each member of a record is stored under. By default it is the member's
// C++ name; a table someone else designed names its attributes otherwise, so an entity may
// declare a case policy and renames:
//
//   template <> struct pksk::Entity<Order> {
//     ...
//     static constexpr pksk::Case attribute_case = pksk::Case::pascal;          // CustomerId
//     static constexpr std::array renames = {pksk::Rename{"amount", "Total"}};  // by C++ name
//   };
//
// A record that is not an entity (a nested struct, stored as a map) declares the same two
// members in pksk::Attributes<T>. Everything that writes or reads an attribute name (the codec
// in both body formats, item size, attr() paths, updates, projections, versions, index upkeep)
// takes it from stored_names_v<T>; key templates, member pointers and diagnostics keep the C++
// names. A record that declares neither gets field_names_v<T> itself: nothing is computed.
//
// Case conversion, from the snake_case C++ names are by convention:
//   - an underscore that follows a letter or digit and precedes a lowercase ASCII letter or a
//     digit is dropped, and that letter upper-cased: customer_id -> customerId, line_2 -> line2;
//   - Case::pascal also upper-cases the first character when it is a lowercase ASCII letter;
//   - every other character is kept as it is: leading, trailing and doubled underscores
//     (_hidden, a__b), and upper-case letters (customerID -> customerID / CustomerID).
// Two members that end up under one name (a_1 and a1 in camel case) are a compile error, as is
// a rename that names no member, renames a member twice or gives it an empty name.

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

#include "../detail/diagnose.hpp"
#include "../detail/fixed_string.hpp"
#include "../reflect/reflect.hpp"
#include "entity.hpp"

namespace pksk {

// How a member's C++ name becomes its stored attribute name: see the top of this file.
enum class Case {
  snake,  // kept as written: customer_id
  camel,  // customerId
  pascal  // CustomerId
};

// One member stored under a name of the table's choosing: {"amount", "Total"}. The name may be
// anything DynamoDB allows in an attribute name ("Total Amount", "a.b", "__edb_e__"): pksk
// always sends names through placeholders.
struct Rename {
  std::string_view member{};  // the C++ member name
  std::string_view name{};    // the stored attribute name
};

// Stored names for a record that is not an entity: `attribute_case` and `renames` as in
// Entity<T>. Left undefined: a record without it keeps its members' names.
template <class T>
struct Attributes;

namespace diagnostics {
// A Rename whose member is not a member of Record (by its C++ name).
template <class Record, detail::fixed_string Member>
struct rename_names_no_member_of_the_entity;
// A Rename whose stored name is empty: DynamoDB refuses an empty attribute name.
template <class Record, detail::fixed_string Member>
struct rename_gives_a_member_an_empty_attribute_name;
// Two Renames of the same member.
template <class Record, detail::fixed_string Member>
struct member_is_renamed_twice;
// Two members of Record whose stored names (after case conversion and renames) are equal.
template <class Record, detail::fixed_string Member, detail::fixed_string OtherMember,
          detail::fixed_string Name>
struct two_members_are_stored_under_one_attribute_name;
}  // namespace diagnostics

namespace detail {

// Where T's naming policy is declared: Entity<T> when it declares either member, else
// Attributes<T>.
template <class T>
concept NamedByEntity = requires { Entity<T>::attribute_case; } || requires { Entity<T>::renames; };

template <class T>
consteval Case attribute_case_of() {
  if constexpr (requires { Entity<T>::attribute_case; }) {
    return Entity<T>::attribute_case;
  } else if constexpr (!NamedByEntity<T> && requires { Attributes<T>::attribute_case; }) {
    return Attributes<T>::attribute_case;
  } else {
    return Case::snake;
  }
}

template <class T>
consteval auto renames_of() {
  if constexpr (requires { Entity<T>::renames; }) {
    return Entity<T>::renames;
  } else if constexpr (!NamedByEntity<T> && requires { Attributes<T>::renames; }) {
    return Attributes<T>::renames;
  } else {
    return std::array<Rename, 0>{};
  }
}

template <class T>
inline constexpr Case attribute_case_v = attribute_case_of<T>();
template <class T>
inline constexpr auto renames_v = renames_of<T>();

// Whether T's stored names are its member names: no case conversion, no rename.
template <class T>
inline constexpr bool stored_as_named_v =
    attribute_case_v<T> == Case::snake && renames_v<T>.size() == 0;

constexpr bool is_lower_ascii(char c) noexcept {
  return c >= 'a' && c <= 'z';
}
constexpr bool is_ascii_alnum(char c) noexcept {
  return is_lower_ascii(c) || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Writes `name` converted to `to` into out (when not null); returns its size.
constexpr std::size_t convert_case(std::string_view name, Case to, char* out) noexcept {
  std::size_t n = 0;
  const auto put = [&](char c) {
    if (out != nullptr) out[n] = c;
    ++n;
  };
  bool upper_next = to == Case::pascal;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (to != Case::snake && c == '_' && i > 0 && is_ascii_alnum(name[i - 1]) &&
        i + 1 < name.size() &&
        (is_lower_ascii(name[i + 1]) || (name[i + 1] >= '0' && name[i + 1] <= '9'))) {
      upper_next = true;
      continue;
    }
    put(upper_next && is_lower_ascii(c) ? static_cast<char>(c - 'a' + 'A') : c);
    upper_next = false;
  }
  return n;
}

// The rename of member `name` in T's renames, or renames_v<T>.size().
template <class T>
constexpr std::size_t rename_of(std::string_view name) noexcept {
  for (std::size_t r = 0; r < renames_v<T>.size(); ++r) {
    if (renames_v<T>[r].member == name) return r;
  }
  return renames_v<T>.size();
}

// A member's stored name, written into out (when not null); returns its size. A rename with an
// empty name is reported (NamingCheck) and ignored here.
template <class T>
constexpr std::size_t stored_name_into(std::size_t field, char* out) noexcept {
  const std::string_view member = field_names_v<T>[field];
  const std::size_t r = rename_of<T>(member);
  if (r < renames_v<T>.size() && !renames_v<T>[r].name.empty()) {
    const std::string_view name = renames_v<T>[r].name;
    if (out != nullptr) {
      for (std::size_t i = 0; i < name.size(); ++i) out[i] = name[i];
    }
    return name.size();
  }
  return convert_case(member, attribute_case_v<T>, out);
}

// Every stored name of T, one after the other, in one static array of characters.
template <class T>
struct StoredNameChars {
  static constexpr std::array<std::size_t, field_count_v<T> + 1> offsets = [] {
    std::array<std::size_t, field_count_v<T> + 1> out{};
    for (std::size_t i = 0; i < field_count_v<T>; ++i)
      out[i + 1] = out[i] + stored_name_into<T>(i, nullptr);
    return out;
  }();
  static constexpr std::array<char, offsets.back() + 1> chars = [] {
    std::array<char, offsets.back() + 1> out{};
    for (std::size_t i = 0; i < field_count_v<T>; ++i) stored_name_into<T>(i, &out[offsets[i]]);
    return out;
  }();
  static constexpr std::array<std::string_view, field_count_v<T>> names = [] {
    std::array<std::string_view, field_count_v<T>> out{};
    for (std::size_t i = 0; i < field_count_v<T>; ++i)
      out[i] = std::string_view(chars.data() + offsets[i], offsets[i + 1] - offsets[i]);
    return out;
  }();
};

// The first thing wrong with T's naming policy, if any.
struct NamingProblem {
  enum class Kind { none, no_member, empty_name, renamed_twice, same_name } kind = Kind::none;
  std::size_t rename = 0;  // no_member, empty_name, renamed_twice: the Rename
  std::size_t field = 0;   // same_name: the two members
  std::size_t other = 0;
};

template <class T>
consteval NamingProblem naming_problem() {
  using Kind = NamingProblem::Kind;
  constexpr auto& renames = renames_v<T>;
  for (std::size_t r = 0; r < renames.size(); ++r) {
    if (field_index<T>(renames[r].member) == field_count_v<T>) return {Kind::no_member, r};
    if (renames[r].name.empty()) return {Kind::empty_name, r};
    for (std::size_t s = 0; s < r; ++s) {
      if (renames[s].member == renames[r].member) return {Kind::renamed_twice, r};
    }
  }
  constexpr auto& names = StoredNameChars<T>::names;
  for (std::size_t i = 0; i < names.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (names[i] == names[j]) return {Kind::same_name, 0, j, i};
    }
  }
  return {};
}

template <class T, std::size_t R>
inline constexpr fixed_string<renames_v<T>[R].member.size()> renamed_member_text_v{
    renames_v<T>[R].member};
template <class T, std::size_t I>
inline constexpr fixed_string<field_names_v<T>[I].size()> member_text_v{field_names_v<T>[I]};
template <class T, std::size_t I>
inline constexpr fixed_string<StoredNameChars<T>::names[I].size()> stored_name_text_v{
    StoredNameChars<T>::names[I]};

// Reports the problem of naming_problem<T>(), one rule, once per record.
template <class T, NamingProblem P = naming_problem<T>()>
struct NamingCheck {
  static constexpr bool ok = true;
};
template <class T, NamingProblem P>
  requires(P.kind == NamingProblem::Kind::no_member)
struct NamingCheck<T, P> {
  static constexpr bool ok = diagnose_v<false, diagnostics::rename_names_no_member_of_the_entity<
                                                   T, renamed_member_text_v<T, P.rename>>>;
};
template <class T, NamingProblem P>
  requires(P.kind == NamingProblem::Kind::empty_name)
struct NamingCheck<T, P> {
  static constexpr bool ok =
      diagnose_v<false, diagnostics::rename_gives_a_member_an_empty_attribute_name<
                            T, renamed_member_text_v<T, P.rename>>>;
};
template <class T, NamingProblem P>
  requires(P.kind == NamingProblem::Kind::renamed_twice)
struct NamingCheck<T, P> {
  static constexpr bool ok =
      diagnose_v<false,
                 diagnostics::member_is_renamed_twice<T, renamed_member_text_v<T, P.rename>>>;
};
template <class T, NamingProblem P>
  requires(P.kind == NamingProblem::Kind::same_name)
struct NamingCheck<T, P> {
  static constexpr bool ok =
      diagnose_v<false, diagnostics::two_members_are_stored_under_one_attribute_name<
                            T, member_text_v<T, P.field>, member_text_v<T, P.other>,
                            stored_name_text_v<T, P.other>>>;
};

template <class T>
consteval const std::array<std::string_view, field_count_v<T>>& stored_names_of() {
  if constexpr (stored_as_named_v<T>) {
    return field_names_v<T>;
  } else {
    static_assert(checked_v<NamingCheck<T>>);
    return StoredNameChars<T>::names;
  }
}

}  // namespace detail

// The attribute name each member of record T is stored under, in reflect order.
template <Reflectable T>
inline constexpr const std::array<std::string_view, field_count_v<T>>& stored_names_v =
    detail::stored_names_of<T>();

namespace detail {

// The member stored under `name`, or field_count_v<T> when there is none.
template <Reflectable T>
constexpr std::size_t stored_field_index(std::string_view name) noexcept {
  for (std::size_t i = 0; i < field_count_v<T>; ++i) {
    if (stored_names_v<T>[i] == name) return i;
  }
  return field_count_v<T>;
}

}  // namespace detail
}  // namespace pksk
