// SPDX-License-Identifier: BSL-1.0
#pragma once
// Compile-time reflection of a record: how many fields, their names, and access by index.
// Plain aggregates go through Boost.PFR; structs adapted with BOOST_HANA_DEFINE_STRUCT or
// BOOST_HANA_ADAPT_STRUCT go through Boost.Hana (and list only the adapted members).

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/hana/accessors.hpp>
#include <boost/hana/at.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/first.hpp>
#include <boost/hana/length.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/string.hpp>
#include <boost/pfr.hpp>

#include "detail/field_names.hpp"

namespace pksk {

template <class T>
concept HanaStruct = boost::hana::Struct<T>::value;

// A record is a class whose members pksk maps one by one to item attributes.
template <class T>
concept Reflectable = std::is_class_v<T> && (HanaStruct<T> || std::is_aggregate_v<T>);

namespace detail {

template <class T>
consteval std::size_t hana_field_count() {
  return decltype(boost::hana::length(boost::hana::accessors<T>()))::value;
}

template <class T, std::size_t I>
consteval std::string_view hana_field_name() {
  using Key = decltype(boost::hana::first(boost::hana::at_c<I>(boost::hana::accessors<T>())));
  return std::remove_cvref_t<Key>::c_str();
}

template <class T, std::size_t... I>
consteval std::array<std::string_view, sizeof...(I)> hana_field_names(std::index_sequence<I...>) {
  return {hana_field_name<T, I>()...};
}

}  // namespace detail

// How many fields a record has.
template <Reflectable T>
inline constexpr std::size_t field_count_v = [] {
  if constexpr (HanaStruct<T>) {
    return detail::hana_field_count<T>();
  } else {
    return boost::pfr::tuple_size_v<T>;
  }
}();

// The fields' names, in declaration order.
template <Reflectable T>
inline constexpr std::array<std::string_view, field_count_v<T>> field_names_v = [] {
  if constexpr (HanaStruct<T>) {
    return detail::hana_field_names<T>(std::make_index_sequence<field_count_v<T>>{});
  } else {
    return detail::aggregate_field_names<T>();
  }
}();

// The I-th field of a record, by reference (const or not, as the record).
// Throws: nothing.
// Exception safety: nothrow.
template <std::size_t I, class T>
  requires Reflectable<std::remove_cvref_t<T>>
constexpr auto& get_field(T& record) noexcept {
  if constexpr (HanaStruct<std::remove_cvref_t<T>>) {
    constexpr auto accessors = boost::hana::accessors<std::remove_cvref_t<T>>();
    return boost::hana::second(boost::hana::at_c<I>(accessors))(record);
  } else {
    return boost::pfr::get<I>(record);
  }
}

// The type of the I-th field, without reference or cv.
template <Reflectable T, std::size_t I>
using field_type_t = std::remove_cvref_t<decltype(get_field<I>(std::declval<T&>()))>;

// Calls f(std::integral_constant<std::size_t, I>{}, field) for every field, in order.
// Throws: what f throws.
// Exception safety: as f's: the fields visited before an exception were visited.
template <class T, class F>
  requires Reflectable<std::remove_cvref_t<T>>
constexpr void for_each_field(T& record, F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f(std::integral_constant<std::size_t, I>{}, get_field<I>(record)), ...);
  }(std::make_index_sequence<field_count_v<std::remove_cvref_t<T>>>{});
}

// The index of the field with this name, or field_count_v<T> when there is none.
// Throws: nothing.
// Exception safety: nothrow.
template <Reflectable T>
constexpr std::size_t field_index(std::string_view name) noexcept {
  for (std::size_t i = 0; i < field_count_v<T>; ++i) {
    if (field_names_v<T>[i] == name) return i;
  }
  return field_count_v<T>;
}

}  // namespace pksk
