// SPDX-License-Identifier: BSL-1.0
#pragma once
// The Entity<T> customization point: what makes a struct an item of a table. Users specialize
//
//   template <> struct pksk::Entity<Customer> {
//     static constexpr std::string_view type = "Customer";      // discriminator value
//     static constexpr std::string_view pk = "CUSTOMER#{id}";  // partition-key template
//     static constexpr std::string_view sk = "A";              // sort-key template
//   };
//
// The key templates are checked and compiled by key.hpp.

#include <concepts>
#include <string_view>
#include <type_traits>

#include "../reflect/reflect.hpp"

namespace pksk {

// Left undefined so that a struct without a specialization is not an entity.
template <class T>
struct Entity;

// The integral_constant requirements make the members constant expressions, which key
// templates must be to be parsed at compile time.
template <class T>
concept EntityType = Reflectable<T> && requires {
  { Entity<T>::type } -> std::convertible_to<std::string_view>;
  { Entity<T>::pk } -> std::convertible_to<std::string_view>;
  { Entity<T>::sk } -> std::convertible_to<std::string_view>;
  typename std::integral_constant<std::size_t, std::string_view(Entity<T>::type).size()>;
  typename std::integral_constant<std::size_t, std::string_view(Entity<T>::pk).size()>;
  typename std::integral_constant<std::size_t, std::string_view(Entity<T>::sk).size()>;
};

// An entity that declares `static constexpr std::string_view version = "rev";` (an integer
// member) has it checked and incremented on every write: optimistic locking.
template <class T>
concept VersionedEntity = EntityType<T> && requires {
  { Entity<T>::version } -> std::convertible_to<std::string_view>;
};

// The discriminator value stored with every item of T.
template <EntityType T>
inline constexpr std::string_view type_name_v = Entity<T>::type;

}  // namespace pksk
