// SPDX-License-Identifier: BSL-1.0
#pragma once
// Extensions: behaviour an entity adds to the writes of its items, declared with the entity and
// composed at compile time, so that pksk's Table need not know of it (as the Java Enhanced
// Client's extensions hook its writes). An extension is a type with one or both of
//
//   template <class T> static void before_put(T& item, const pksk::WriteContext& context);
//   template <class T> static auto update_parts(const T& key, const pksk::WriteContext& context);
//
// before_put changes the item a put writes (Table::put, upsert, put_all, and a transaction's
// put), before its keys, conditions and body are made; update_parts returns a std::tuple of
// update parts (pksk::set, add, remove, append, if_not_exists, when) that an update joins to
// its own (Table::update and a transaction's update). An entity names its extensions in order:
//
//   template <> struct pksk::Entity<Invoice> {
//     ...
//     using extensions = pksk::Extensions<Timestamps>;
//   };
//
// A put hands the item as written back to a non-const argument (after commit() in a
// transaction), as it hands back a new version. An entity without extensions pays nothing:
// the hooks are chosen at compile time, and none is called.

#include <chrono>
#include <functional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../detail/diagnose.hpp"
#include "../key/entity.hpp"

namespace pksk {

namespace diagnostics {
// Entity<T>::extensions names something other than pksk::Extensions<X...>.
template <class Entity, class Extensions>
struct entity_extensions_is_not_a_pksk_Extensions_list;
// An extension in Entity<T>::extensions has no hook that applies to T: a before_put(T&, const
// WriteContext&) or an update_parts(const T&, const WriteContext&), both static templates.
template <class Entity, class Extension>
struct extension_has_neither_before_put_nor_update_parts_for_the_entity;
}  // namespace diagnostics

// The extensions an entity names in Entity<T>::extensions, applied in this order.
template <class... Xs>
struct Extensions {};

// The write an extension's hook is called for.
enum class WriteOperation { put, upsert, update, batch_put, transaction_put, transaction_update };

// What an extension's hook is told of the write it joins.
class WriteContext {
 public:
  // What now() asks, when set (TableOptions::ttl_clock).
  using Clock = std::function<std::chrono::system_clock::time_point()>;

  // Made by the Table for each hook call; `clock` must outlive it.
  // Throws: nothing.
  // Exception safety: nothrow.
  WriteContext(std::string_view table, WriteOperation operation, const Clock& clock) noexcept
      : table_(table), operation_(operation), clock_(&clock) {}

  // The name of the table written.
  // Throws: nothing.
  // Exception safety: nothrow.
  std::string_view table() const noexcept { return table_; }
  // The write the hook joins.
  // Throws: nothing.
  // Exception safety: nothrow.
  WriteOperation operation() const noexcept { return operation_; }
  // Whether the write is an action of a Transaction.
  // Throws: nothing.
  // Exception safety: nothrow.
  bool in_transaction() const noexcept {
    return operation_ == WriteOperation::transaction_put ||
           operation_ == WriteOperation::transaction_update;
  }
  // The table's clock (TableOptions::ttl_clock, which tests set), else the system's.
  // Throws: what the table's clock throws.
  // Exception safety: strong.
  std::chrono::system_clock::time_point now() const {
    return *clock_ ? (*clock_)() : std::chrono::system_clock::now();
  }

 private:
  std::string_view table_;
  WriteOperation operation_;
  const Clock* clock_;
};

namespace detail {

template <class T>
struct extensions_of {
  using type = Extensions<>;
};
template <class T>
  requires requires { typename Entity<T>::extensions; }
struct extensions_of<T> {
  using type = typename Entity<T>::extensions;
};

template <class X, class T>
concept TransformsPut =
    requires(T& item, const WriteContext& context) { X::template before_put<T>(item, context); };
template <class X, class T>
concept AddsUpdateParts = requires(const T& key, const WriteContext& context) {
  X::template update_parts<T>(key, context);
};

template <class T, class List>
struct ExtensionList {
  static constexpr bool ok =
      diagnose_v<false, diagnostics::entity_extensions_is_not_a_pksk_Extensions_list<T, List>>;
  static constexpr bool transforms_put = false;
  static constexpr bool adds_update_parts = false;
  static void before_put(T&, const WriteContext&) {}
  static std::tuple<> update_parts(const T&, const WriteContext&) { return {}; }
};
template <class T, class... Xs>
struct ExtensionList<T, Extensions<Xs...>> {
  static constexpr bool ok =
      (diagnose_v < TransformsPut<Xs, T> || AddsUpdateParts<Xs, T>,
       diagnostics::extension_has_neither_before_put_nor_update_parts_for_the_entity < T,
       Xs >> &&...);
  static constexpr bool transforms_put = (TransformsPut<Xs, T> || ...);
  static constexpr bool adds_update_parts = (AddsUpdateParts<Xs, T> || ...);

  static void before_put(T& item, const WriteContext& context) {
    (
        [&] {
          if constexpr (TransformsPut<Xs, T>) Xs::template before_put<T>(item, context);
        }(),
        ...);
  }
  static auto update_parts(const T& key, const WriteContext& context) {
    return std::tuple_cat([&] {
      if constexpr (AddsUpdateParts<Xs, T>) {
        return Xs::template update_parts<T>(key, context);
      } else {
        return std::tuple<>{};
      }
    }()...);
  }
};

template <class T>
using extensions_t = ExtensionList<T, typename extensions_of<T>::type>;

// Whether T's extensions change what its puts write, or add to its updates (after reporting a
// malformed list, once).
template <class T>
inline constexpr bool transforms_put_v = extensions_t<T>::ok && extensions_t<T>::transforms_put;
template <class T>
inline constexpr bool adds_update_parts_v =
    extensions_t<T>::ok && extensions_t<T>::adds_update_parts;

// Item is a non-const lvalue: the caller's object, to which a put hands back what it wrote.
template <class Item>
inline constexpr bool writes_back_v =
    std::is_lvalue_reference_v<Item> && !std::is_const_v<std::remove_reference_t<Item>>;

}  // namespace detail

}  // namespace pksk
