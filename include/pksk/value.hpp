// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk::Value<T>: how a type of your own is stored, as one of the types pksk stores itself.
//
//   template <>
//   struct pksk::Value<Money> {
//     static std::int64_t to(const Money& m) { return m.cents; }      // what is stored
//     static Money from(std::int64_t cents) { return Money{cents}; }  // what is read back
//   };
//
// The stored type is what `to` returns: a string, a number, a bool, a time point, binary, a
// set, a record, a container of those, or another type with a Value of its own. The codec calls
// `to` and `from` in its own traversals, so a converted member costs what its stored type costs
// plus the two calls: no attribute tree is built for it. A member whose stored type is
// std::string may also be a field of a key template. `from` may throw: a std::exception it
// throws is reported as a DecodeError naming the member and carrying its message.
//
// The primary template is defined, empty but for a marker, so that "is there a specialisation?"
// is a plain test and a specialisation missing `to` or `from` is one diagnostic that names the
// type (value_specialisation_must_define_to_and_from).

#include <concepts>
#include <type_traits>
#include <utility>

#include "detail/diagnose.hpp"

namespace pksk {

// How a type of your own is stored: specialise Value<Type> with `static Stored to(const Type&)` and
// `static Type from(const Stored&)`, Stored being a type pksk stores (docs/member-types.md). The
// primary template marks a type with no specialisation.
template <class T>
struct Value {
  // Present only in the primary template: how pksk tells a type has no specialisation.
  using pksk_not_specialised = void;
};

namespace diagnostics {
// Value<Type> is specialised, but has no `static Stored to(const Type&)` and `static Type
// from(const Stored&)` that pksk can call (Stored, what `to` returns, being a type pksk stores).
template <class Type>
struct value_specialisation_must_define_to_and_from;
}  // namespace diagnostics

namespace detail {

// Whether the user has specialised Value<T>.
template <class T>
concept ValueSpecialised = !requires { typename Value<T>::pksk_not_specialised; };

template <class T>
using value_stored_t = std::remove_cvref_t<decltype(Value<T>::to(std::declval<const T&>()))>;

// A specialisation pksk can use: `to` gives a stored value, `from` takes it back.
template <class T>
concept ValueConverter = ValueSpecialised<T> && requires(const T& value) { Value<T>::to(value); } &&
                         requires(const value_stored_t<T>& stored) {
                           { Value<T>::from(stored) } -> std::convertible_to<T>;
                         };

// Reports an incomplete specialisation once per type, however many traversals meet it.
template <class T>
inline constexpr bool value_converter_v =
    diagnose_v<ValueConverter<T>, diagnostics::value_specialisation_must_define_to_and_from<T>>;

}  // namespace detail
}  // namespace pksk
