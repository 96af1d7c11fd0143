#pragma once
// Keys of entities: the partition key and sort key of an item, formatted from its key templates
// (Entity<T>::pk and ::sk), and the compile-time checks an ItemCollection's members must pass.
//
// Template syntax: literal text and {member} fields. '{' without '}', '}' without '{', an
// empty '{}', a field naming no member and two adjacent fields ("{a}{b}", ambiguous) are
// compile errors, one per mistake, whose error line names the rule, the entity and the text
// (diagnose.hpp).
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
#include "detail/template.hpp"
#include "diagnose.hpp"
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

// Assigns T's partition key into out, reusing its capacity. Throws KeyError (see above), after
// which out's content is unspecified.
template <EntityType T>
void format_partition_key(const T& record, std::string& out) {
  detail::partition_key_template<T>::format(record, out);
}

// Assigns T's sort key into out, reusing its capacity. Throws KeyError (see above), after which
// out's content is unspecified.
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
inline constexpr std::string_view sort_key_prefix_v =
    detail::sort_key_template<T>::diagnosed ? detail::sort_key_template<T>::prefix
                                            : detail::sort_key_template<T>::prefix;

// The literal prefix of T's partition-key template, likewise.
template <EntityType T>
inline constexpr std::string_view partition_key_prefix_v =
    detail::partition_key_template<T>::diagnosed ? detail::partition_key_template<T>::prefix
                                                 : detail::partition_key_template<T>::prefix;

// True when A's and B's partition-key templates have the same literal text and the same number
// and order of fields, whatever the fields' names: their items can share partitions.
template <EntityType A, EntityType B>
inline constexpr bool same_partition_shape_v =
    detail::same_key_shape<detail::pk_text_v<A>, detail::pk_text_v<B>>();

namespace diagnostics {

// The rules ItemCollection<Ts...> checks its members against (see diagnose.hpp): each names the
// two members involved and their templates.

// Same literal text, same number and order of fields: only then can the items share partitions.
template <class First, detail::fixed_string FirstPartitionKey, class Other,
          detail::fixed_string OtherPartitionKey>
struct item_collection_members_have_different_partition_key_shapes;

template <class A, class B, detail::fixed_string Type>
struct item_collection_members_have_the_same_type_discriminator;

// Identical means the same shape: "ITEM#{id}" and "ITEM#{name}" would collide as surely as two
// copies of one template, since both items live in the same partition.
template <class A, detail::fixed_string SortKeyA, class B, detail::fixed_string SortKeyB>
struct item_collection_members_have_identical_sort_key_templates;

// A field value can spell the other's literal text: give them distinct literal prefixes.
template <class A, detail::fixed_string SortKeyA, class B, detail::fixed_string SortKeyB>
struct item_collection_members_have_sort_key_templates_that_can_produce_the_same_key;

}  // namespace diagnostics

namespace detail {

// Whether some sort key could be formatted from both A and B (which then, in one partition,
// would overwrite each other): "TEAM#{team}" and "{topic}#{n}" can both be "TEAM#x".
template <EntityType A, EntityType B>
consteval bool sort_keys_may_collide() {
  if constexpr (!sort_key_template<A>::valid || !sort_key_template<B>::valid) {
    return false;
  } else if constexpr (literal_prefixes_differ(sort_key_template<A>::prefix,
                                               sort_key_template<B>::prefix)) {
    return false;
  } else {
    return languages_intersect(sort_key_template<A>::language, sort_key_template<B>::language);
  }
}

template <class A, class B>
struct CollectionPairCheck {
  static constexpr bool same_sort_key_shape = same_key_shape<sk_text_v<A>, sk_text_v<B>>();
  static constexpr bool distinct_types = diagnose_v<
      type_name_v<A> != type_name_v<B>,
      diagnostics::item_collection_members_have_the_same_type_discriminator<A, B, type_text_v<A>>>;
  static constexpr bool distinct_sort_keys =
      diagnose_v<!same_sort_key_shape,
                 diagnostics::item_collection_members_have_identical_sort_key_templates<
                     A, sk_text_v<A>, B, sk_text_v<B>>>;
  // Identical shapes are reported above; this catches the subtler overlaps.
  static constexpr bool sort_keys_overlap = !same_sort_key_shape && sort_keys_may_collide<A, B>();
  static constexpr bool separate_sort_keys = diagnose_v<
      !sort_keys_overlap,
      diagnostics::item_collection_members_have_sort_key_templates_that_can_produce_the_same_key<
          A, sk_text_v<A>, B, sk_text_v<B>>>;
  static constexpr bool ok = distinct_types && distinct_sort_keys && separate_sort_keys;
};

// Each unordered pair once: I < J.
template <std::size_t I, std::size_t J, class Members, bool Ordered = (I < J)>
struct CollectionPairAt {
  static constexpr bool ok = true;
};

template <std::size_t I, std::size_t J, class... Ts>
struct CollectionPairAt<I, J, std::tuple<Ts...>, true> {
  static constexpr bool ok = CollectionPairCheck<std::tuple_element_t<I, std::tuple<Ts...>>,
                                                 std::tuple_element_t<J, std::tuple<Ts...>>>::ok;
};

template <class Members, class Pairs>
struct CollectionPairsCheck;

template <class... Ts, std::size_t... K>
struct CollectionPairsCheck<std::tuple<Ts...>, std::index_sequence<K...>> {
  static constexpr std::size_t n = sizeof...(Ts);
  static constexpr bool ok = (CollectionPairAt<K / n, K % n, std::tuple<Ts...>>::ok && ...);
};

template <class First, class Other>
struct PartitionShapeCheck {
  static constexpr bool ok =
      diagnose_v<same_partition_shape_v<First, Other>,
                 diagnostics::item_collection_members_have_different_partition_key_shapes<
                     First, pk_text_v<First>, Other, pk_text_v<Other>>>;
};

template <EntityType T>
inline constexpr bool entity_keys_diagnosed_v =
    partition_key_template<T>::diagnosed && sort_key_template<T>::diagnosed;

template <EntityType T>
inline constexpr bool entity_keys_valid_v =
    partition_key_template<T>::valid && sort_key_template<T>::valid;

// Members are compared only when all their key templates are valid: a malformed template is
// reported once, by itself, not again as a difference of shapes.
template <bool KeysValid, class... Ts>
struct CollectionRulesCheck {
  static constexpr bool ok = false;
};

template <class... Ts>
struct CollectionRulesCheck<true, Ts...> {
  using First = std::tuple_element_t<0, std::tuple<Ts...>>;
  static constexpr bool shapes = (PartitionShapeCheck<First, Ts>::ok && ...);
  static constexpr bool pairs =
      CollectionPairsCheck<std::tuple<Ts...>,
                           std::make_index_sequence<sizeof...(Ts) * sizeof...(Ts)>>::ok;
  static constexpr bool ok = shapes && pairs;
};

// What ItemCollection<Ts...> requires of its members: valid key templates, one partition-key
// shape, distinct type discriminators, distinct sort-key templates. Reading ok instantiates the
// checks; each failure is one error naming the members and the templates involved.
template <EntityType... Ts>
  requires(sizeof...(Ts) > 0)
struct CollectionMembersCheck {
  static constexpr bool keys = (entity_keys_diagnosed_v<Ts> && ...);
  static constexpr bool ok =
      keys && CollectionRulesCheck<(entity_keys_valid_v<Ts> && ...), Ts...>::ok;
};

template <EntityType... Ts>
  requires(sizeof...(Ts) > 0)
consteval bool check_collection_members() {
  return CollectionMembersCheck<Ts...>::ok;
}

}  // namespace detail

}  // namespace pksk
