// SPDX-License-Identifier: BSL-1.0
#pragma once
// ItemCollection<Ts...>: the items of one partition, decoded into their entity types and kept
// in sort-key order. Items of a type that is not a member are kept raw, never dropped.

#include <array>
#include <bitset>
#include <cstddef>
#include <ranges>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "../codec/encode.hpp"
#include "../codec/entity_code.hpp"
#include "../key/collection_rules.hpp"
#include "../key/entity.hpp"
#include "../key/key.hpp"
#include "../key/read_back.hpp"
#include "../reflect/equal.hpp"
#include "raw_item.hpp"

namespace pksk {

namespace backend {
struct CollectionBuilder;
}  // namespace backend

// The items of one partition (or scan) of several entity types, typed: what a query of
// ItemCollection<Customer, Order> returns, in sort-key order. Items of other types, or that did not
// decode (keep_undecodable), are kept raw in unknown().
template <class... Ts>
class ItemCollection {
  static_assert(sizeof...(Ts) > 0, "pksk: an ItemCollection needs at least one entity type");
  // A broken rule is reported by itself, once, naming the members (pksk/detail/diagnose.hpp).
  static_assert(detail::checked_v<detail::CollectionCheck<Ts...>>);

  // False only in a collection already reported (CollectionCheck): its members' code is then
  // left out, so that the report is the one error.
  static constexpr bool all_entities = (EntityType<Ts> && ...);

  template <class T>
  static constexpr std::size_t index_of = [] {
    constexpr std::array<bool, sizeof...(Ts)> is_t{std::is_same_v<T, Ts>...};
    for (std::size_t i = 0; i < is_t.size(); ++i) {
      if (is_t[i]) return i;
    }
    return sizeof...(Ts);
  }();

 public:
  // Whether T is one of the collection's entity types.
  template <class T>
  static constexpr bool is_member = index_of<T> < sizeof...(Ts);

  // An item: one of the member types.
  using value_type = std::variant<Ts...>;
  // Walks the typed items in sort-key order.
  using const_iterator = typename std::vector<value_type>::const_iterator;

  // The first typed item.
  // Throws: nothing.
  // Exception safety: nothrow.
  const_iterator begin() const noexcept { return items_.begin(); }
  // Past the last typed item.
  // Throws: nothing.
  // Exception safety: nothrow.
  const_iterator end() const noexcept { return items_.end(); }

  // The typed items, which begin() and end() walk; unknown() holds the others. empty() is
  // size() == 0, as for any range: a collection of unknown items only is empty().
  // Throws: nothing.
  // Exception safety: nothrow.
  std::size_t size() const noexcept { return items_.size(); }
  // Whether there is no typed item (see size()).
  // Throws: nothing.
  // Exception safety: nothrow.
  bool empty() const noexcept { return items_.empty(); }

  // How many items of type T.
  // Throws: nothing.
  // Exception safety: nothrow.
  template <class T>
    requires is_member<T>
  std::size_t count() const noexcept {
    return counts_[index_of<T>];
  }

  // The first item of type T in sort-key order, or nullptr.
  // Throws: nothing.
  // Exception safety: nothrow.
  template <class T>
    requires is_member<T>
  const T* first() const noexcept {
    if (counts_[index_of<T>] == 0) return nullptr;
    for (const value_type& item : items_) {
      if (const T* found = std::get_if<T>(&item)) return found;
    }
    return nullptr;
  }

  // The items of type T in sort-key order: a view into the collection, no copies.
  // Throws: nothing.
  // Exception safety: nothrow.
  template <class T>
    requires is_member<T>
  auto items() const {
    return items_ | std::views::filter([](const value_type& item) {
             return std::holds_alternative<T>(item);
           }) |
           std::views::transform(
               [](const value_type& item) -> const T& { return *std::get_if<T>(&item); });
  }

  // The items of no member type, and (keep_undecodable) those that did not decode, as stored.
  // Throws: nothing.
  // Exception safety: nothrow.
  const std::vector<RawItem>& unknown() const& noexcept { return unknown_; }
  // Of a temporary collection (`for (auto& raw : table.scan<C>().unknown())`), the items
  // themselves: a reference would dangle before the loop's first turn.
  // Throws: nothing.
  // Exception safety: nothrow.
  std::vector<RawItem> unknown() && noexcept { return std::move(unknown_); }

  // Appending keeps the order of the calls: the caller appends in sort-key order.
  // Throws: what T's copy or move throws; std::bad_alloc.
  // Exception safety: strong.
  template <class T>
    requires is_member<std::remove_cvref_t<T>>
  void push_back(T&& item) {
    items_.emplace_back(std::in_place_type<std::remove_cvref_t<T>>, std::forward<T>(item));
    ++counts_[index_of<std::remove_cvref_t<T>>];
  }
  // Appends an item to unknown().
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  void push_back(RawItem item) { unknown_.push_back(std::move(item)); }

  // Removes every item, typed and unknown.
  // Throws: nothing.
  // Exception safety: nothrow.
  void clear() noexcept {
    items_.clear();
    unknown_.clear();
    counts_ = {};
  }
  // Makes room for n typed items.
  // Throws: only std::bad_alloc (std::length_error past max_size).
  // Exception safety: strong.
  void reserve(std::size_t n) { items_.reserve(n); }

  // The fields each member type decodes in a projection (reflect order), one mask per type.
  using Masks = std::tuple<std::bitset<field_count_v<Ts>>...>;

  // Entities need no operator== of their own: they compare member by member.
  friend bool operator==(const ItemCollection& a, const ItemCollection& b) {
    if (a.items_.size() != b.items_.size() || a.unknown_ != b.unknown_) return false;
    for (std::size_t i = 0; i < a.items_.size(); ++i) {
      const bool same = std::visit(
          [&](const auto& left) {
            using T = std::remove_cvref_t<decltype(left)>;
            const T* right = std::get_if<T>(&b.items_[i]);
            return right != nullptr && structurally_equal(left, *right);
          },
          a.items_[i]);
      if (!same) return false;
    }
    return true;
  }

 private:
  friend struct backend::CollectionBuilder;

  // Decodes one stored item in place at the end of the collection, dispatching on its type.
  template <BodyFormat Format = BodyFormat::json>
  void append_decoded(std::string_view pk, std::string_view sk, std::string_view type,
                      std::string_view body, BodyDecoder& decoder, ParsedItem live = {}) {
    if (!append_member<Format>(type, body, decoder, live, detail::KnownKeys{pk, sk})) {
      append_unknown<Format>(pk, sk, type, body, live);
    }
  }

  // Keeps an item of a type that is no member's as it is stored (unknown()).
  template <BodyFormat Format = BodyFormat::json>
  void append_unknown(std::string_view pk, std::string_view sk, std::string_view type,
                      std::string_view body, ParsedItem live = {}) {
    unknown_.push_back(RawItem{std::string(pk), std::string(sk), std::string(type),
                               std::string(detail::item_text(live, body)), Format});
  }

  // Decodes the item at the end of the collection when `type` is a member's and returns true;
  // returns false, and appends nothing, for another type: a caller whose keys cost something
  // to read (a row's sort key in SQLite) reads them only for such an item. `keys` gives the
  // item's keys (partition_key(), sort_key()), read only when a key member is not in the body.
  template <BodyFormat Format = BodyFormat::json, class Keys = detail::NoKeys>
  bool append_member(std::string_view type, std::string_view body, BodyDecoder& decoder,
                     ParsedItem live = {}, const Keys& keys = {}) {
    if constexpr (all_entities) {
      if (type.empty()) [[unlikely]]
        return append_untyped<Format>(body, decoder, live, keys);
      return (
          (type == type_name_v<Ts> && (decode_back<Format, Ts>(live, body, decoder, keys), true)) ||
          ...);
    } else {
      return false;
    }
  }

  // As append_member, decoding only the fields of the type's mask (the others default).
  template <BodyFormat Format = BodyFormat::json, class Keys = detail::NoKeys>
  bool append_member_selected(std::string_view type, std::string_view body, BodyDecoder& decoder,
                              const Masks& masks, ParsedItem live = {}, const Keys& keys = {}) {
    if constexpr (all_entities) {
      if (type.empty()) [[unlikely]]
        return append_untyped_selected<Format>(body, decoder, masks, live, keys);
      return ((type == type_name_v<Ts> &&
               (decode_back_selected<Format, Ts>(live, body, decoder, std::get<index_of<Ts>>(masks),
                                                 keys),
                true)) ||
              ...);
    } else {
      return false;
    }
  }

  // An item stored without a type is the member whose sort-key template its sort key matches
  // (the members' templates cannot both match one: a rule of the collection). Apart, so that a
  // typed item's path is what it was.
  template <class Keys>
  static std::string_view type_without_discriminator(const Keys& keys) {
    if constexpr (std::is_same_v<Keys, detail::NoKeys>) {
      return {};
    } else {
      return detail::type_of_sort_key<Ts...>(keys.sort_key());
    }
  }

  template <BodyFormat Format, class Keys>
  [[gnu::cold, gnu::noinline]] bool append_untyped(std::string_view body, BodyDecoder& decoder,
                                                   ParsedItem live, const Keys& keys) {
    const std::string_view type = type_without_discriminator(keys);
    return !type.empty() && append_member<Format>(type, body, decoder, live, keys);
  }

  template <BodyFormat Format, class Keys>
  [[gnu::cold, gnu::noinline]] bool append_untyped_selected(std::string_view body,
                                                            BodyDecoder& decoder,
                                                            const Masks& masks, ParsedItem live,
                                                            const Keys& keys) {
    const std::string_view type = type_without_discriminator(keys);
    return !type.empty() && append_member_selected<Format>(type, body, decoder, masks, live, keys);
  }

  template <BodyFormat Format, class T, class Keys>
  void decode_back(ParsedItem live, std::string_view body, BodyDecoder& decoder, const Keys& keys) {
    value_type& slot = items_.emplace_back(std::in_place_type<T>);
    try {
      T& item = *std::get_if<T>(&slot);
      detail::complete_key_members(
          keys, item,
          EntityCode<T>::decode(std::integral_constant<BodyFormat, Format>{}, decoder, live, body,
                                item, DecodeTarget::fresh));
    } catch (...) {
      items_.pop_back();
      throw;
    }
    ++counts_[index_of<T>];
  }

  template <BodyFormat Format, class T, class Keys>
  void decode_back_selected(ParsedItem live, std::string_view body, BodyDecoder& decoder,
                            const std::bitset<field_count_v<T>>& mask, const Keys& keys) {
    value_type& slot = items_.emplace_back(std::in_place_type<T>);
    try {
      T& item = *std::get_if<T>(&slot);
      detail::complete_key_members(
          keys, item,
          EntityCode<T>::decode_selected(std::integral_constant<BodyFormat, Format>{}, decoder,
                                         live, body, item, mask) |
              ~mask);
    } catch (...) {
      items_.pop_back();
      throw;
    }
    ++counts_[index_of<T>];
  }

  std::vector<value_type> items_;
  std::vector<RawItem> unknown_;
  std::array<std::size_t, sizeof...(Ts)> counts_{};
};

namespace backend {

// How a reader fills an ItemCollection from stored items, one at a time in sort-key order:
// Table does it for its queries, and a tool that reads items its own way can do it too. Users
// of a collection read it; these are not on ItemCollection itself so that its members are only
// what a reader of the collection needs.
struct CollectionBuilder {
  // Decodes the item at the end of the collection, or keeps it raw when its type is no member's.
  // Throws: DecodeError if the body does not decode into the member type.
  // Exception safety: strong: the collection is as it was.
  template <BodyFormat Format = BodyFormat::json, class... Ts>
  static void append_decoded(ItemCollection<Ts...>& collection, std::string_view pk,
                             std::string_view sk, std::string_view type, std::string_view body,
                             BodyDecoder& decoder, ParsedItem live = {}) {
    collection.template append_decoded<Format>(pk, sk, type, body, decoder, live);
  }
  // Keeps the item raw in unknown(), whatever its type.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  template <BodyFormat Format = BodyFormat::json, class... Ts>
  static void append_unknown(ItemCollection<Ts...>& collection, std::string_view pk,
                             std::string_view sk, std::string_view type, std::string_view body,
                             ParsedItem live = {}) {
    collection.template append_unknown<Format>(pk, sk, type, body, live);
  }
  // Keeps an item of a member type that did not decode as it is stored, with why (error).
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  template <BodyFormat Format = BodyFormat::json, class... Ts>
  static void append_undecodable(ItemCollection<Ts...>& collection, std::string_view pk,
                                 std::string_view sk, std::string_view type, std::string_view body,
                                 ParsedItem live, std::string error) {
    collection.template append_unknown<Format>(pk, sk, type, body, live);
    collection.unknown_.back().error = std::move(error);
  }
  // True, having decoded the item, when `type` is a member's; false, appending nothing, else.
  // `row` (an ItemView, or anything with partition_key() and sort_key()) gives the item's keys,
  // which a key member the body lacks is read back from; without it such a member keeps its
  // default value.
  // Throws: DecodeError if the body does not decode into the member type.
  // Exception safety: strong: the collection is as it was.
  template <BodyFormat Format = BodyFormat::json, class... Ts>
  static bool append_member(ItemCollection<Ts...>& collection, std::string_view type,
                            std::string_view body, BodyDecoder& decoder, ParsedItem live = {}) {
    return collection.template append_member<Format>(type, body, decoder, live);
  }
  // As append_member, the key members the body lacks read back from row's keys.
  // Throws: DecodeError if the body does not decode into the member type.
  // Exception safety: strong: the collection is as it was.
  template <BodyFormat Format = BodyFormat::json, class Row, class... Ts>
  static bool append_member(ItemCollection<Ts...>& collection, std::string_view type,
                            std::string_view body, BodyDecoder& decoder, ParsedItem live,
                            const Row& row) {
    return collection.template append_member<Format>(type, body, decoder, live, row);
  }
  // Decodes the item of member type `type` in place of the one at `at` (of that type): a
  // placeholder appended while the item's body could not be read yet (a chunked item's).
  // Throws: DecodeError if the body does not decode.
  // Exception safety: strong: the placeholder stays.
  template <BodyFormat Format = BodyFormat::json, class Row, class... Ts>
  static void replace_member(ItemCollection<Ts...>& collection, std::size_t at,
                             std::string_view type, std::string_view body, BodyDecoder& decoder,
                             const Row& row) {
    ItemCollection<Ts...> one;
    one.template append_member<Format>(type, body, decoder, ParsedItem{}, row);
    collection.items_[at] = std::move(one.items_.front());
  }
  // Drops the item at `at` (a placeholder whose item is gone).
  // Throws: nothing (what the item types' moves throw; entities' do not).
  // Exception safety: strong for types whose moves do not throw.
  template <class... Ts>
  static void erase_member(ItemCollection<Ts...>& collection, std::size_t at) {
    --collection.counts_[collection.items_[at].index()];
    collection.items_.erase(collection.items_.begin() + static_cast<std::ptrdiff_t>(at));
  }
  // As append_member, decoding only the fields masks selects (a projection).
  // Throws: DecodeError if the body does not decode into the member type.
  // Exception safety: strong: the collection is as it was.
  template <BodyFormat Format = BodyFormat::json, class... Ts>
  static bool append_member_selected(ItemCollection<Ts...>& collection, std::string_view type,
                                     std::string_view body, BodyDecoder& decoder,
                                     const typename ItemCollection<Ts...>::Masks& masks,
                                     ParsedItem live = {}) {
    return collection.template append_member_selected<Format>(type, body, decoder, masks, live);
  }
  // As append_member_selected, the key members read back from row's keys.
  // Throws: DecodeError if the body does not decode into the member type.
  // Exception safety: strong: the collection is as it was.
  template <BodyFormat Format = BodyFormat::json, class Row, class... Ts>
  static bool append_member_selected(ItemCollection<Ts...>& collection, std::string_view type,
                                     std::string_view body, BodyDecoder& decoder,
                                     const typename ItemCollection<Ts...>::Masks& masks,
                                     ParsedItem live, const Row& row) {
    return collection.template append_member_selected<Format>(type, body, decoder, masks, live,
                                                              row);
  }
};

}  // namespace backend

}  // namespace pksk
