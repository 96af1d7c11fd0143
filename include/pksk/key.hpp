#pragma once
// Keys of entities: the partition key and sort key of an item, formatted from its key templates
// (Entity<T>::pk and ::sk), and the compile-time checks an ItemCollection's members must pass.
//
// Formatting rules, per field of a template:
// - std::string (or std::string_view): the value verbatim. It must be non-empty, valid UTF-8
//   (no overlongs, surrogates or code points above U+10FFFF), free of NUL, of the delimiter '#'
//   and of the first character of the literal that follows the field in the template; otherwise
//   KeyError, naming the entity's type, the field and the (escaped) value. These rules make a
//   key parse back unambiguously, so that no value can forge another item's key.
// - integers: in a partition key, plain decimal ("CUSTOMER#-42"). In a sort key, fixed width so
//   that byte order is numeric order: the value is zero-padded to the number of digits of the
//   maximum of its unsigned type of the same width (uint8_t 3, uint16_t 5, uint32_t 10,
//   uint64_t 20 digits); a signed value is first written as offset binary, value - min as the
//   unsigned type of the same width (int8_t -128 -> "000", 0 -> "128", 127 -> "255").
// - enums: the enumerator's name; KeyError for a value that has none.
// - bool, character, floating-point and other types cannot be key fields (compile error).

#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "detail/fixed_string.hpp"
#include "detail/key_template.hpp"
#include "entity.hpp"

namespace pksk {

// A partition key's text: what a query over an item collection is given.
struct PartitionKey {
  std::string value;

  friend bool operator==(const PartitionKey&, const PartitionKey&) = default;
};

namespace detail {

template <EntityType T>
inline constexpr fixed_string<std::string_view(Entity<T>::pk).size()> pk_text_v{
    std::string_view(Entity<T>::pk)};

template <EntityType T>
inline constexpr fixed_string<std::string_view(Entity<T>::sk).size()> sk_text_v{
    std::string_view(Entity<T>::sk)};

template <EntityType T>
inline constexpr fixed_string<std::string_view(Entity<T>::type).size()> type_text_v{
    std::string_view(Entity<T>::type)};

template <EntityType T>
using partition_key_template = KeyTemplate<T, pk_text_v<T>, KeyRole::partition>;

template <EntityType T>
using sort_key_template = KeyTemplate<T, sk_text_v<T>, KeyRole::sort>;

}  // namespace detail

// Assigns T's partition key into out, reusing its capacity. Throws KeyError (see above).
template <EntityType T>
void format_partition_key(const T& record, std::string& out) {
  detail::partition_key_template<T>::format(record, out);
}

// Assigns T's sort key into out, reusing its capacity. Throws KeyError (see above).
template <EntityType T>
void format_sort_key(const T& record, std::string& out) {
  detail::sort_key_template<T>::format(record, out);
}

template <EntityType T>
PartitionKey partition(const T& record) {
  PartitionKey key;
  format_partition_key(record, key.value);
  return key;
}

template <EntityType T>
std::string sort_key(const T& record) {
  std::string key;
  format_sort_key(record, key);
  return key;
}

// The literal text of T's sort-key template before its first field ("#ORDER#" for
// "#ORDER#{order_id}", the whole template when it has no field, "" when it starts with a
// field): the begins_with prefix of a query for T alone.
template <EntityType T>
inline constexpr std::string_view sort_key_prefix_v = detail::sort_key_template<T>::prefix;

// The literal prefix of T's partition-key template, likewise.
template <EntityType T>
inline constexpr std::string_view partition_key_prefix_v =
    detail::partition_key_template<T>::prefix;

// True when A's and B's partition-key templates have the same literal text and the same number
// and order of fields, whatever the fields' names: their items can share partitions.
template <EntityType A, EntityType B>
inline constexpr bool same_partition_shape_v =
    detail::same_key_shape<detail::pk_text_v<A>, detail::pk_text_v<B>>();

namespace detail {

// Diagnostics of ItemCollection<Ts...>; see key_template.hpp for why the entities and the
// offending text are template arguments.

template <class First, fixed_string FirstPartitionKey, class Other, fixed_string OtherPartitionKey,
          bool Ok>
struct item_collection_members_have_different_partition_key_shapes {
  static_assert(Ok,
                "pksk: ItemCollection members must have partition-key templates of the same "
                "shape (same literal text, same number and order of fields)");
};

template <class A, class B, fixed_string Type, bool Ok>
struct item_collection_members_have_the_same_type {
  static_assert(Ok, "pksk: two ItemCollection members have the same type discriminator");
};

// Identical means the same shape: "ITEM#{id}" and "ITEM#{name}" would collide as surely as two
// copies of one template, since both items live in the same partition.
template <class A, fixed_string SortKeyA, class B, fixed_string SortKeyB, bool Ok>
struct item_collection_members_have_identical_sort_key_templates {
  static_assert(Ok,
                "pksk: two ItemCollection members have identical sort-key templates, so their "
                "keys could collide");
};

template <EntityType T>
consteval bool check_entity_keys() {
  return partition_key_template<T>::valid && sort_key_template<T>::valid;
}

template <class A, class B>
consteval bool check_collection_pair() {
  constexpr bool distinct_types = type_name_v<A> != type_name_v<B>;
  (void)item_collection_members_have_the_same_type<A, B, type_text_v<A>, distinct_types>{};
  constexpr bool distinct_sort_keys = !same_key_shape<sk_text_v<A>, sk_text_v<B>>();
  (void)item_collection_members_have_identical_sort_key_templates<A, sk_text_v<A>, B, sk_text_v<B>,
                                                                  distinct_sort_keys>{};
  return distinct_types && distinct_sort_keys;
}

template <std::size_t I, std::size_t J, class... Ts>
consteval bool check_collection_pair_at() {
  if constexpr (I < J) {
    return check_collection_pair<std::tuple_element_t<I, std::tuple<Ts...>>,
                                 std::tuple_element_t<J, std::tuple<Ts...>>>();
  } else {
    return true;
  }
}

template <class First, class Other>
consteval bool check_same_partition_shape() {
  constexpr bool same = same_partition_shape_v<First, Other>;
  (void)item_collection_members_have_different_partition_key_shapes<First, pk_text_v<First>, Other,
                                                                    pk_text_v<Other>, same>{};
  return same;
}

// What ItemCollection<Ts...> requires of its members: valid key templates, one partition-key
// shape, distinct type discriminators, distinct sort-key templates. Each failure is a
// static_assert naming the members and the templates involved.
template <class... Ts>
consteval bool check_collection_members() {
  static_assert(sizeof...(Ts) > 0, "pksk: an ItemCollection needs at least one member");
  static_assert((EntityType<Ts> && ...),
                "pksk: every ItemCollection member must be an entity (specialize pksk::Entity)");
  if constexpr (sizeof...(Ts) == 0 || !(EntityType<Ts> && ...)) {
    return false;
  } else {
    using First = std::tuple_element_t<0, std::tuple<Ts...>>;
    constexpr std::size_t n = sizeof...(Ts);
    const bool keys = (check_entity_keys<Ts>() & ...);
    const bool shapes = (check_same_partition_shape<First, Ts>() & ...);
    const bool pairs = []<std::size_t... K>(std::index_sequence<K...>) {
      return (check_collection_pair_at<K / n, K % n, Ts...>() & ...);
    }(std::make_index_sequence<n * n>{});
    return keys && shapes && pairs;
  }
}

}  // namespace detail

}  // namespace pksk
