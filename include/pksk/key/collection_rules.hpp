// SPDX-License-Identifier: BSL-1.0
#pragma once
// The compile-time rules an ItemCollection's members must pass: each is an entity, their type
// discriminators differ, and they share partitions somewhere: in the table (one partition-key
// shape, sort-key templates that cannot produce the same key) or in a secondary index that
// every member names (the same rules over their templates in that index). A collection whose
// members share partitions only in an index is read on that index alone: a table query of it
// is a compile error (table_collection_check_v), and an index query checks the index it names
// at run time (index_collection_fault).

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../detail/diagnose.hpp"
#include "../detail/fixed_string.hpp"
#include "detail/collision.hpp"
#include "detail/template.hpp"
#include "entity.hpp"
#include "index.hpp"
#include "key.hpp"

namespace pksk {

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

// One member declares a sort key and the other does not (Entity<T> without sk): their items
// live in tables of different key schemas, never in one partition.
template <class WithSortKey, detail::fixed_string SortKey, class WithoutSortKey>
struct item_collection_mixes_members_with_and_without_a_sort_key;

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

enum class PairFinding : unsigned char {
  same_type,
  identical_sort_keys,
  sort_keys_may_overlap,
  mixed_key_schemas
};

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
  const std::array<bool, n> unsorted{partition_key_only_v<Ts>...};
  CollectionFindings<n> found;
  for (std::size_t i = 1; i < n; ++i) {
    if (partition_shapes[i] != partition_shapes[0]) {
      found.partition_shape_mismatches[found.mismatches++] = i;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      if (types[i] == types[j]) found.pairs[found.count++] = {i, j, PairFinding::same_type};
      if (unsorted[i] != unsorted[j]) {
        found.pairs[found.count++] = {i, j, PairFinding::mixed_key_schemas};
      } else if (sort_shapes[i] == sort_shapes[j]) {
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

template <class A, class B>
struct PairReport<A, B, PairFinding::mixed_key_schemas> {
  using Sorted = std::conditional_t<partition_key_only_v<A>, B, A>;
  using Unsorted = std::conditional_t<partition_key_only_v<A>, A, B>;
  static constexpr bool ok =
      diagnose_v<false, diagnostics::item_collection_mixes_members_with_and_without_a_sort_key<
                            Sorted, sk_text_v<Sorted>, Unsorted>>;
};

// A finding reported only when Enabled: without it, its report is not even instantiated.
template <bool Enabled, class A, class B, PairFinding Finding>
struct PairReportIf {
  static constexpr bool ok = true;
};
template <class A, class B, PairFinding Finding>
struct PairReportIf<true, A, B, Finding> {
  static constexpr bool ok = PairReport<A, B, Finding>::ok;
};

// TableRules false: only the type discriminators are compared (the members share partitions in
// an index alone, so their table sort keys never meet).
template <class Members, class Found, bool TableRules = true>
struct CollectionReports;

template <class... Ts, std::size_t... K, bool TableRules>
struct CollectionReports<std::tuple<Ts...>, std::index_sequence<K...>, TableRules> {
  static constexpr auto& found = collection_findings_v<Ts...>;
  template <std::size_t I>
  using member = std::tuple_element_t<I, std::tuple<Ts...>>;
  static constexpr bool ok =
      (PairReportIf < TableRules || found.pairs[K].finding == PairFinding::same_type,
       member<found.pairs[K].a>, member<found.pairs[K].b>,
       found.pairs[K].finding > ::ok && ... && true);
};

// Where the members of a collection may share partitions besides the table: an index whose
// templates follow the table's rules among the members that name it (a member that does not
// is simply not in it: a query of the index meets none of its items). One verdict per index of
// the first member, worked out from the templates' texts (and, for sort keys whose literal
// prefixes do not tell them apart, their languages).
enum class IndexCollectionFault : unsigned char {
  none,
  no_member_in_index,       // not even the first member names it
  invalid_template,         // a member's template in the index is malformed (reported by itself)
  partition_shapes_differ,  // members a and b
  identical_sort_keys,      // members a and b
  sort_keys_may_collide,    // members a and b
};

struct IndexCollectionVerdict {
  IndexCollectionFault fault = IndexCollectionFault::none;
  std::size_t a = 0;
  std::size_t b = 0;
  bool all_members = false;  // every member names the index
};

// The texts of T's templates in its P-th index; empty for P past its indexes (T is not in it).
template <class T, std::size_t P>
consteval std::string_view index_pk_shape() {
  if constexpr (P < index_count_v<T>) {
    return key_shape_v<index_pk_text_v<T, P>>.view();
  } else {
    return {};
  }
}
template <class T, std::size_t P>
consteval std::string_view index_sk_shape() {
  if constexpr (P < index_count_v<T>) {
    return key_shape_v<index_sk_text_v<T, P>>.view();
  } else {
    return {};
  }
}
template <class T, std::size_t P>
consteval bool index_templates_valid() {
  if constexpr (P < index_count_v<T>) {
    return index_partition_key_template<T, P>::valid && index_sort_key_template<T, P>::valid;
  } else {
    return true;
  }
}

template <class Members, class Positions>
struct IndexPlace;

// The members Ts, at positions P in their indexes_v (past the end: not in this index).
template <class... Ts, std::size_t... P>
struct IndexPlace<std::tuple<Ts...>, std::index_sequence<P...>> {
  static constexpr std::size_t n = sizeof...(Ts);
  static constexpr std::array<std::size_t, n> positions{P...};
  static constexpr std::array<bool, n> in{(P < index_count_v<Ts>)...};
  template <std::size_t I>
  using member = std::tuple_element_t<I, std::tuple<Ts...>>;

  template <std::size_t A, std::size_t B>
  static consteval void check_pair(IndexCollectionVerdict& v,
                                   const std::array<std::string_view, n>& sort_shapes) {
    if constexpr (A < B && (positions[A] < index_count_v<member<A>>)&&(positions[B] <
                                                                       index_count_v<member<B>>)) {
      using SA = index_sort_key_template<member<A>, positions[A]>;
      using SB = index_sort_key_template<member<B>, positions[B]>;
      if (v.fault != IndexCollectionFault::none) return;
      if (sort_shapes[A] == sort_shapes[B]) {
        v.fault = IndexCollectionFault::identical_sort_keys, v.a = A, v.b = B;
      } else if constexpr (!literal_prefixes_differ(SA::prefix, SB::prefix)) {
        if (languages_intersect(SA::language, SB::language)) {
          v.fault = IndexCollectionFault::sort_keys_may_collide, v.a = A, v.b = B;
        }
      }
    }
  }

  static consteval IndexCollectionVerdict verdict() {
    IndexCollectionVerdict v{};
    v.all_members = ((P < index_count_v<Ts>)&&...);
    if (!(index_templates_valid<Ts, P>() && ...)) {
      v.fault = IndexCollectionFault::invalid_template;
      return v;
    }
    std::size_t first = 0;  // the first member in the index: the others' shapes must be its
    while (first < n && !in[first]) ++first;
    if (first == n) {
      v.fault = IndexCollectionFault::no_member_in_index;
      return v;
    }
    const std::array<std::string_view, n> partition_shapes{index_pk_shape<Ts, P>()...};
    for (std::size_t i = first + 1; i < n; ++i) {
      if (in[i] && partition_shapes[i] != partition_shapes[first]) {
        v.fault = IndexCollectionFault::partition_shapes_differ, v.a = first, v.b = i;
        return v;
      }
    }
    const std::array<std::string_view, n> sort_shapes{index_sk_shape<Ts, P>()...};
    [&]<std::size_t... K>(std::index_sequence<K...>) consteval {
      (check_pair<K / n, K % n>(v, sort_shapes), ...);
    }(std::make_index_sequence<n * n>{});
    return v;
  }
};

// Every index a member of the collection names (some more than once).
template <class... Ts>
struct CollectionIndexNames {
  static constexpr std::size_t count = (index_count_v<Ts> + ... + 0);
  static constexpr std::array<std::string_view, count> value = [] {
    std::array<std::string_view, count> out{};
    std::size_t n = 0;
    const auto add = [&](const auto& indexes) {
      for (const Index& index : indexes) out[n++] = index.name;
    };
    (add(indexes_v<Ts>), ...);
    return out;
  }();
};

// The verdict on the J-th index named by a member of Ts.
template <std::size_t J, class... Ts>
consteval IndexCollectionVerdict index_collection_verdict() {
  constexpr std::string_view name = CollectionIndexNames<Ts...>::value[J];
  return IndexPlace<std::tuple<Ts...>, std::index_sequence<index_position<Ts>(name)...>>::verdict();
}

template <class... Ts>
struct IndexCollectionVerdicts {
  static constexpr auto value = []<std::size_t... J>(std::index_sequence<J...>) {
    return std::array<IndexCollectionVerdict, sizeof...(J)>{
        index_collection_verdict<J, Ts...>()...};
  }(std::make_index_sequence<CollectionIndexNames<Ts...>::count>{});

  // An index where every member is, and may be read together.
  static constexpr bool any = [] {
    for (const IndexCollectionVerdict& v : value) {
      if (v.fault == IndexCollectionFault::none && v.all_members) return true;
    }
    return false;
  }();
};

// The verdict on the index named `index` for ItemCollection<Ts...>: why its members cannot be
// read together there, or none.
template <class... Ts>
IndexCollectionVerdict index_collection_fault(std::string_view index) noexcept {
  constexpr auto& names = CollectionIndexNames<Ts...>::value;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == index) return IndexCollectionVerdicts<Ts...>::value[i];
  }
  return {IndexCollectionFault::no_member_in_index, 0, 0, false};
}

// The members share partitions in some index (then a table query of them is refused apart).
template <class First, class... Ts>
inline constexpr bool shares_an_index_v = IndexCollectionVerdicts<First, Ts...>::any;

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

// The partition shapes reported only when Check: naming PartitionShapeReports<...>::ok in an
// expression would instantiate it, whatever a || before it says.
template <bool Check, class Members, class Mismatches>
struct TableShapesCheck {
  static constexpr bool ok = true;
};
template <class Members, class Mismatches>
struct TableShapesCheck<true, Members, Mismatches> {
  static constexpr bool ok = PartitionShapeReports<Members, Mismatches>::ok;
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
  // Partitions shared in the table, or else in an index: then the table's rules are checked
  // where the table is queried (TableCollectionCheck), and the index's where it is.
  static constexpr bool in_table = found.mismatches == 0;
  static constexpr bool in_index = !in_table && shares_an_index_v<Ts...>;
  static constexpr bool shapes = TableShapesCheck<!in_index, std::tuple<Ts...>,
                                                  std::make_index_sequence<found.mismatches>>::ok;
  static constexpr bool pairs =
      CollectionReports<std::tuple<Ts...>, std::make_index_sequence<found.count>, in_table>::ok;
  static constexpr bool ok = shapes && pairs;
};

template <bool Check, class... Ts>
struct TableRulesCheck {
  static constexpr bool ok = true;
};
template <class... Ts>
struct TableRulesCheck<true, Ts...> {
  static constexpr auto& found = collection_findings_v<Ts...>;
  static constexpr bool ok =
      PartitionShapeReports<std::tuple<Ts...>, std::make_index_sequence<found.mismatches>>::ok &&
      CollectionReports<std::tuple<Ts...>, std::make_index_sequence<found.count>>::ok;
};

// What a query of the collection on the table (rather than an index) requires: the table's
// rules, reported at the query when the members share partitions in an index only (else the
// collection itself has reported them, or they hold).
// Whether a table query must report the table's rules: only for members that are all entities
// with valid keys (anything else the collection itself reports), and only when they share
// partitions in an index but not in the table.
template <bool EntitiesWithValidKeys, class... Ts>
struct TableRulesNeeded {
  static constexpr bool value = false;
};
template <class... Ts>
struct TableRulesNeeded<true, Ts...> {
  static constexpr bool value =
      collection_findings_v<Ts...>.mismatches != 0 && shares_an_index_v<Ts...>;
};

template <class... Ts>
struct EntitiesWithValidKeys {
  template <bool Entities, class Unused = void>
  struct Keys {
    static constexpr bool value = false;
  };
  template <class Unused>
  struct Keys<true, Unused> {
    static constexpr bool value = (entity_keys_valid_v<Ts> && ...);
  };
  static constexpr bool value = Keys<(EntityType<Ts> && ...)>::value;
};

template <class... Ts>
struct TableCollectionCheck {
  static constexpr bool needed =
      TableRulesNeeded<EntitiesWithValidKeys<Ts...>::value, Ts...>::value;
  static constexpr bool ok = TableRulesCheck<needed, Ts...>::ok;
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
