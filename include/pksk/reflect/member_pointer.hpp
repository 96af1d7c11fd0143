// SPDX-License-Identifier: BSL-1.0
#pragma once
// Which field of a record a pointer-to-member constant names, at compile time: what the typed
// APIs that take members as template arguments (pksk::set<&Order::status>, the typed key
// conditions of key/typed_condition.hpp), or as arguments converted at compile time
// (pksk::set(&Order::status, ...)), check their members with.

#include <cstddef>
#include <type_traits>
#include <utility>

#include <boost/pfr.hpp>

#include "detail/fake_object.hpp"
#include "reflect.hpp"

namespace pksk::detail {

#if defined(__clang__)
#pragma clang diagnostic push
// fake_object is declared, never defined: only its members' addresses are compared, in constant
// expressions.
#pragma clang diagnostic ignored "-Wundefined-var-template"
// Nor for a record in an unnamed namespace, whose probe then has internal linkage.
#pragma clang diagnostic ignored "-Wundefined-internal"
#endif

template <auto Member>
struct member_pointer_traits;
template <class T, class M, M T::*Member>
struct member_pointer_traits<Member> {
  using entity = T;
  using type = M;
};

// The index of the member a pointer-to-member constant names, at compile time, by comparing
// its address in a never-defined object with each field's (Boost.PFR's own technique). Hana
// structs have no such object here: field_count_v<T>, and Table checks at run time instead.
template <auto Member>
consteval std::size_t member_index_of() {
  using T = typename member_pointer_traits<Member>::entity;
  if constexpr (HanaStruct<T>) {
    return field_count_v<T>;
  } else {
    const T& record = fake_object<T>.value;
    const void* target = &(record.*Member);
    std::size_t found = field_count_v<T>;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((static_cast<const void*>(&boost::pfr::detail::sequence_tuple::get<I>(
            boost::pfr::detail::tie_as_tuple(record))) == target
            ? void(found = I)
            : void()),
       ...);
    }(std::make_index_sequence<field_count_v<T>>{});
    return found;
  }
}
// Whether a pointer to member of an aggregate T names field I, in a constant evaluation: the
// same comparison for a pointer that is a function's argument (a consteval conversion's).
template <std::size_t I, class T, class M>
  requires(!HanaStruct<T>)
consteval bool names_field(M T::*member) {
  if constexpr (!std::is_same_v<std::remove_cv_t<M>, field_type_t<T, I>>) {
    return false;
  } else {
    const T& record = fake_object<T>.value;
    return static_cast<const void*>(&(record.*member)) ==
           static_cast<const void*>(&boost::pfr::detail::sequence_tuple::get<I>(
               boost::pfr::detail::tie_as_tuple(record)));
  }
}
// clang warns where fake_object is used, not where it is declared: the pop comes after the use.
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

}  // namespace pksk::detail
