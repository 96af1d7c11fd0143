// SPDX-License-Identifier: BSL-1.0
#pragma once
// Which BodyFormat a table's bodies are in, asked of a backend in one of two ways:
// - `B::body_format`, a constant: every table of the backend speaks it, so Table encodes and
//   decodes with that one format compiled in and nothing is asked at run time (the SQLite
//   and DynamoDB backends);
// - `backend.body_format(handle)`: known only once the table is opened, as for AnyBackend,
//   which holds one backend or the other chosen at run time.
// Table reads the format only through with_body_format, which hands it on as a constant in
// either case: the first costs nothing, the second a switch on a byte the handle holds.

#include <concepts>
#include <type_traits>
#include <utility>

#include "../codec/body_format.hpp"

namespace pksk::detail {

template <class B>
concept ConstantBodyFormat =
    requires { typename std::integral_constant<BodyFormat, B::body_format>; };

template <class B>
concept RunTimeBodyFormat = requires(const B& backend, const typename B::TableHandle& table) {
  { backend.body_format(table) } -> std::same_as<BodyFormat>;
};

template <class B>
  requires ConstantBodyFormat<B> || RunTimeBodyFormat<B>
constexpr BodyFormat body_format_of(const B& backend, const typename B::TableHandle& table) {
  if constexpr (ConstantBodyFormat<B>) {
    (void)backend, (void)table;
    return B::body_format;
  } else {
    return backend.body_format(table);
  }
}

// The table's format as a std::integral_constant<BodyFormat, F> for a backend whose format is a
// constant, else as a BodyFormat: what EntityCode's encode and decode take, so that a constant
// format names only its own code.
template <class B>
  requires ConstantBodyFormat<B> || RunTimeBodyFormat<B>
constexpr auto body_format_arg(const B& backend, const typename B::TableHandle& table) {
  if constexpr (ConstantBodyFormat<B>) {
    (void)backend, (void)table;
    return std::integral_constant<BodyFormat, B::body_format>{};
  } else {
    return backend.body_format(table);
  }
}

// f.template operator()<Format>() with the table's format as a template argument. A constant
// format instantiates f once; a run-time one instantiates it for every format and picks one.
template <class B, class F>
  requires ConstantBodyFormat<B> || RunTimeBodyFormat<B>
decltype(auto) with_body_format(const B& backend, const typename B::TableHandle& table, F&& f) {
  if constexpr (ConstantBodyFormat<B>) {
    (void)backend, (void)table;
    return std::forward<F>(f).template operator()<B::body_format>();
  } else {
    switch (backend.body_format(table)) {  // -Wswitch names a format added and not handled
      case BodyFormat::attribute_value:
        return std::forward<F>(f).template operator()<BodyFormat::attribute_value>();
      case BodyFormat::json:
        break;
    }
    return std::forward<F>(f).template operator()<BodyFormat::json>();
  }
}

}  // namespace pksk::detail
