// SPDX-License-Identifier: BSL-1.0
#pragma once
// An entity whose empty std::optional members are stored as DynamoDB's NULL rather than left
// out, as tables written by other tools often have them (a document mapper that saves every
// declared member, `{"NULL": true}` where it has no value):
//
//   template <> struct pksk::Entity<Profile> {
//     ...
//     static constexpr bool empty_optional_as_null = true;
//   };
//
// Either form reads back as an empty optional, whatever the option: it decides only what a
// write stores.

#include "../key/entity.hpp"

namespace pksk::detail {

// Whether record T stores its empty optionals as NULL: false for a record that is not an
// entity (a nested record keeps the default) or one that does not opt in.
template <class T>
inline constexpr bool stores_empty_optional_as_null_v = [] {
  if constexpr (requires { Entity<T>::empty_optional_as_null; }) {
    return static_cast<bool>(Entity<T>::empty_optional_as_null);
  } else {
    return false;
  }
}();

}  // namespace pksk::detail
