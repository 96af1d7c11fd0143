// SPDX-License-Identifier: BSL-1.0
#pragma once
// Keys of entities: the partition key and sort key of an item, formatted from its key templates
// (Entity<T>::pk and ::sk), and the compile-time checks an ItemCollection's members must pass.
//
// Template syntax: literal text and {member} fields. '{' without '}', '}' without '{', an
// empty '{}', a field naming no member and two adjacent fields ("{a}{b}", ambiguous) are
// compile errors, one per mistake, whose error line names the rule, the entity and the text
// (pksk/detail/diagnose.hpp).
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

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "../detail/diagnose.hpp"
#include "../detail/fixed_string.hpp"
#include "detail/template.hpp"
#include "entity.hpp"

namespace pksk {

// DynamoDB's limits on key sizes in bytes (UTF-8); a longer key is a KeyError when formatted.
inline constexpr std::size_t max_partition_key_size = detail::max_partition_key_size;
inline constexpr std::size_t max_sort_key_size = detail::max_sort_key_size;

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

// sort_key(record): the item's sort key. `sort_key` is an object, so that it also names the
// sort key attribute in filters: contains(pksk::sort_key, "#inventory::") (expr/filter.hpp).
struct SortKeyTag {
  template <EntityType T>
  std::string operator()(const T& record) const {
    std::string key;
    format_sort_key(record, key);
    return key;
  }
};
inline constexpr SortKeyTag sort_key{};

namespace detail {
// Whether member `index` of T appears in its partition- or sort-key template.
template <EntityType T>
constexpr bool is_key_member(std::size_t index) noexcept {
  for (const auto& s : partition_key_template<T>::segments) {
    if (s.kind == SegmentKind::field && s.field == index) return true;
  }
  for (const auto& s : sort_key_template<T>::segments) {
    if (s.kind == SegmentKind::field && s.field == index) return true;
  }
  return false;
}

// Field Index's name as a template argument, for diagnostics.
template <class T, std::size_t Index>
inline constexpr fixed_string<field_names_v<T>[Index].size()> field_name_text_v{
    field_names_v<T>[Index]};

// The members T's key templates are formatted from, each once, in the order they first appear.
template <std::size_t N>
struct KeyMemberList {
  std::array<std::size_t, N> index{};
  std::size_t count = 0;
};

template <EntityType T>
inline constexpr auto key_members_v = [] {
  constexpr auto& pk = partition_key_template<T>::segments;
  constexpr auto& sk = sort_key_template<T>::segments;
  KeyMemberList<pk.size() + sk.size()> out;
  const auto take = [&](const auto& segments) {
    for (const auto& s : segments) {
      if (s.kind != SegmentKind::field) continue;
      bool seen = false;
      for (std::size_t i = 0; i < out.count; ++i) seen = seen || out.index[i] == s.field;
      if (!seen) out.index[out.count++] = s.field;
    }
  };
  take(pk);
  take(sk);
  return out;
}();
}  // namespace detail

// The literal text of T's sort-key template before its first field ("#ORDER#" for
// "#ORDER#{order_id}", the whole template when it has no field, "" when it starts with a
// field): the begins_with prefix of a query for T alone. Reading `diagnosed` reports a bad
// template where its prefix is first used; such a template then has no prefix, as it has no
// segments, so that its error is the only one.
template <EntityType T>
inline constexpr std::string_view sort_key_prefix_v =
    detail::sort_key_template<T>::diagnosed ? detail::sort_key_template<T>::prefix
                                            : std::string_view{};

// The literal prefix of T's partition-key template, likewise.
template <EntityType T>
inline constexpr std::string_view partition_key_prefix_v =
    detail::partition_key_template<T>::diagnosed ? detail::partition_key_template<T>::prefix
                                                 : std::string_view{};

// True when A's and B's partition-key templates have the same literal text and the same number
// and order of fields, whatever the fields' names: their items can share partitions.
template <EntityType A, EntityType B>
inline constexpr bool same_partition_shape_v =
    detail::same_key_shape<detail::pk_text_v<A>, detail::pk_text_v<B>>();

namespace diagnostics {

// The rules ItemCollection<Ts...> checks its members against (see pksk/detail/diagnose.hpp): each
// names the two members involved and their templates.

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

// A member of the collection (Member, one of Members) without a pksk::Entity<Member>
// specialization giving its type, pk and sk.
template <class Member, class... Members>
struct item_collection_member_is_not_an_entity;

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

// The template with every field name dropped ("CUSTOMER#{}" for "CUSTOMER#{customer_id}"):
// two valid templates have the same shape exactly when these are equal, since literal text
// holds no braces. One per template, where comparing the parsed segments took an instantiation
// per pair of templates.
template <fixed_string Template>
struct KeyShape {
  std::array<char, Template.size()> chars{};
  std::size_t size = 0;

  constexpr std::string_view view() const noexcept { return {chars.data(), size}; }
};

template <fixed_string Template>
inline constexpr KeyShape<Template> key_shape_v = [] {
  KeyShape<Template> shape;
  bool in_field = false;
  for (const char c : Template.view()) {
    if (c == '}') in_field = false;
    if (!in_field) shape.chars[shape.size++] = c;
    if (c == '{') in_field = true;
  }
  return shape;
}();

enum class PairFinding : unsigned char { same_type, identical_sort_keys, sort_keys_may_overlap };

struct MemberPair {
  std::size_t a = 0;
  std::size_t b = 0;
  PairFinding finding = PairFinding::same_type;
};

template <std::size_t N>
struct CollectionFindings {
  std::array<std::size_t, N> partition_shape_mismatches{};  // members unlike the first
  std::size_t mismatches = 0;
  std::array<MemberPair, N * N> pairs{};
  std::size_t count = 0;
};

// Every rule over the members in one constant evaluation over their texts, so that a
// collection of n members costs n instantiations rather than n(n-1)/2 pair checks (which
// also made clang refuse 30 members: a fold of n * n operands is deeper than it allows).
// Only what it finds is instantiated: a rule broken, or a pair whose literal prefixes do not
// tell it apart and so needs the automaton.
template <class... Ts>
inline constexpr auto collection_findings_v = [] {
  constexpr std::size_t n = sizeof...(Ts);
  const std::array<std::string_view, n> types{type_name_v<Ts>...};
  const std::array<std::string_view, n> partition_shapes{key_shape_v<pk_text_v<Ts>>.view()...};
  const std::array<std::string_view, n> sort_shapes{key_shape_v<sk_text_v<Ts>>.view()...};
  const std::array<std::string_view, n> sort_prefixes{sort_key_template<Ts>::prefix...};
  CollectionFindings<n> found;
  for (std::size_t i = 1; i < n; ++i) {
    if (partition_shapes[i] != partition_shapes[0]) {
      found.partition_shape_mismatches[found.mismatches++] = i;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      if (types[i] == types[j]) found.pairs[found.count++] = {i, j, PairFinding::same_type};
      if (sort_shapes[i] == sort_shapes[j]) {
        found.pairs[found.count++] = {i, j, PairFinding::identical_sort_keys};
      } else if (!literal_prefixes_differ(sort_prefixes[i], sort_prefixes[j])) {
        found.pairs[found.count++] = {i, j, PairFinding::sort_keys_may_overlap};
      }
    }
  }
  return found;
}();

template <class A, class B, PairFinding Finding>
struct PairReport;

template <class A, class B>
struct PairReport<A, B, PairFinding::same_type> {
  static constexpr bool ok = diagnose_v<
      false,
      diagnostics::item_collection_members_have_the_same_type_discriminator<A, B, type_text_v<A>>>;
};

template <class A, class B>
struct PairReport<A, B, PairFinding::identical_sort_keys> {
  static constexpr bool ok =
      diagnose_v<false, diagnostics::item_collection_members_have_identical_sort_key_templates<
                            A, sk_text_v<A>, B, sk_text_v<B>>>;
};

template <class A, class B>
struct PairReport<A, B, PairFinding::sort_keys_may_overlap> {
  static constexpr bool ok = diagnose_v<
      !sort_keys_may_collide<A, B>(),
      diagnostics::item_collection_members_have_sort_key_templates_that_can_produce_the_same_key<
          A, sk_text_v<A>, B, sk_text_v<B>>>;
};

template <class Members, class Found>
struct CollectionReports;

template <class... Ts, std::size_t... K>
struct CollectionReports<std::tuple<Ts...>, std::index_sequence<K...>> {
  static constexpr auto& found = collection_findings_v<Ts...>;
  template <std::size_t I>
  using member = std::tuple_element_t<I, std::tuple<Ts...>>;
  static constexpr bool ok =
      (PairReport<member<found.pairs[K].a>, member<found.pairs[K].b>, found.pairs[K].finding>::ok &&
       ... && true);
};

template <class Members, class Mismatches>
struct PartitionShapeReports;

template <class... Ts, std::size_t... K>
struct PartitionShapeReports<std::tuple<Ts...>, std::index_sequence<K...>> {
  static constexpr auto& found = collection_findings_v<Ts...>;
  using First = std::tuple_element_t<0, std::tuple<Ts...>>;
  template <std::size_t I>
  using member = std::tuple_element_t<I, std::tuple<Ts...>>;
  static constexpr bool ok =
      (diagnose_v<false, diagnostics::item_collection_members_have_different_partition_key_shapes<
                             First, pk_text_v<First>, member<found.partition_shape_mismatches[K]>,
                             pk_text_v<member<found.partition_shape_mismatches[K]>>>> &&
       ... && true);
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
  static constexpr auto& found = collection_findings_v<Ts...>;
  static constexpr bool shapes =
      PartitionShapeReports<std::tuple<Ts...>, std::make_index_sequence<found.mismatches>>::ok;
  static constexpr bool pairs =
      CollectionReports<std::tuple<Ts...>, std::make_index_sequence<found.count>>::ok;
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

// CollectionMembersCheck, after each member is found to be an entity (one error for each that is
// not); the rules between members are checked only when all are.
template <class... Ts>
struct CollectionCheck {
  static constexpr bool entities =
      (diagnose_v<EntityType<Ts>, diagnostics::item_collection_member_is_not_an_entity<Ts, Ts...>> &
       ...);
  template <bool AllEntities, class = void>
  struct Rules {
    static constexpr bool ok = false;
  };
  template <class Unused>
  struct Rules<true, Unused> {
    static constexpr bool ok = CollectionMembersCheck<Ts...>::ok;
  };
  static constexpr bool ok = entities && Rules<(EntityType<Ts> && ...)>::ok;
};

}  // namespace detail

}  // namespace pksk
