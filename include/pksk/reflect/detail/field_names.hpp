// SPDX-License-Identifier: BSL-1.0
#pragma once
// Field names of a plain aggregate. Boost >= 1.84 has boost::pfr::names_as_array; Debian's
// Boost 1.81 does not, so this is the same technique: the name of a template instantiated on
// a pointer to a member of an extern object that is never defined (only its address is taken,
// in a constant expression).

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

#include <boost/pfr.hpp>
#include <boost/version.hpp>

#include "fake_object.hpp"
#include "pretty_name.hpp"

#if BOOST_VERSION >= 108400
#include <boost/pfr/core_name.hpp>
#endif

namespace pksk::detail {

#if BOOST_VERSION >= 108400

template <class T>
constexpr auto aggregate_field_names() noexcept {
  return boost::pfr::names_as_array<T>();
}

#else

#if defined(__clang__)
#pragma clang diagnostic push
// fake_object is never defined on purpose: only its members' addresses are used.
#pragma clang diagnostic ignored "-Wundefined-var-template"
#pragma clang diagnostic ignored "-Wundefined-internal"
#endif

// clang prints a pointer NTTP as an address; wrapped in a class NTTP it prints the member.
template <class P>
struct PointerWrapper {
  const P* pointer;
};

// const char*, not string_view: g++ would append "; std::string_view = ..." to the signature.
template <auto Wrapped>
consteval const char* signature_of() noexcept {
  return __PRETTY_FUNCTION__;
}

template <class T, std::size_t I>
consteval auto field_pointer() noexcept {
  const auto& member = boost::pfr::detail::sequence_tuple::get<I>(
      boost::pfr::detail::tie_as_tuple(fake_object<T>.value));
  return PointerWrapper<std::remove_cvref_t<decltype(member)>>{&member};
}

template <class T, std::size_t I>
struct AggregateFieldName {
  static constexpr std::string_view parsed =
      last_identifier(std::string_view{signature_of<field_pointer<T, I>()>()});
  static constexpr StaticName<parsed.size()> storage{parsed};
  static constexpr std::string_view value = storage.view();
};

template <class T, std::size_t... I>
constexpr std::array<std::string_view, sizeof...(I)> aggregate_field_names_impl(
    std::index_sequence<I...>) noexcept {
  return {AggregateFieldName<T, I>::value...};
}

template <class T>
constexpr auto aggregate_field_names() noexcept {
  return aggregate_field_names_impl<T>(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#endif

}  // namespace pksk::detail
