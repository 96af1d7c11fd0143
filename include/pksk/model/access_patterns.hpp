// SPDX-License-Identifier: BSL-1.0
#pragma once
// A table's design as documentation: its entities, their key templates (table and indexes),
// stored attribute names, the item collections they form and the access patterns each serves,
// from the entity definitions themselves, so that the table in the docs cannot drift from the
// code:
//
//   using CustomerOrders = pksk::ItemCollection<Customer, Order>;
//   pksk::AccessPatterns design = pksk::access_patterns<Customer, Order, CustomerOrders>();
//   std::cout << design.to_markdown();   // or to_json(), which from_json() reads back
//
// The arguments are entities and ItemCollections, each listed once (a collection's members
// need not be listed apart: those that are not follow the listed entities). Everything is
// worked out at compile time; the value holds only text, so that the design can be stored
// (pksk/sqlite/design.hpp) and rendered by a program without the entity definitions
// (pksk-inspect --patterns). Rendering is deterministic: the same entities give the same bytes.

#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "../detail/config.hpp"
#include "../detail/diagnose.hpp"
#include "../key/collection_rules.hpp"
#include "../key/entity.hpp"
#include "../key/index.hpp"
#include "../key/key.hpp"
#include "../key/stored_names.hpp"
#include "../reflect/reflect.hpp"
#include "collection.hpp"

namespace pksk {

// One secondary index an entity is in, with its key templates.
struct DesignIndex {
  // The index's name.
  std::string name;
  // Its partition-key template for the entity.
  std::string pk;
  // Its sort-key template for the entity.
  std::string sk;
  friend bool operator==(const DesignIndex&, const DesignIndex&) = default;
};

// One member and the attribute name it is stored under; key: it appears in a table key template.
struct DesignAttribute {
  // The member's C++ name.
  std::string member;
  // The attribute it is stored under (as Entity<T>::renames or attribute_case name it).
  std::string name;
  // Whether it appears in a table key template.
  bool key = false;
  friend bool operator==(const DesignAttribute&, const DesignAttribute&) = default;
};

// One entity of the design: its discriminator, key templates, indexes and attributes.
struct DesignEntity {
  std::string type;  // the discriminator value
  // Its partition-key template (Entity<T>::pk).
  std::string pk;
  // Its sort-key template (Entity<T>::sk; empty without one).
  std::string sk;
  // The secondary indexes it is in.
  std::vector<DesignIndex> indexes;
  std::vector<DesignAttribute> attributes;  // in member order
  friend bool operator==(const DesignEntity&, const DesignEntity&) = default;
};

// Where the members of a collection share partitions: the table (index "") or an index, and
// the partition-key template there (its first member's).
struct DesignPartition {
  // The index's name, or empty for the table.
  std::string index;
  // The partition-key template there.
  std::string pk;
  friend bool operator==(const DesignPartition&, const DesignPartition&) = default;
};

// One ItemCollection of the design: its members and where they share partitions.
struct DesignCollection {
  std::string name;                  // its members' types joined by " + "
  std::vector<std::string> members;  // types, as listed in the ItemCollection
  // Where its members share partitions: the table, an index, or several.
  std::vector<DesignPartition> partitions;
  friend bool operator==(const DesignCollection&, const DesignCollection&) = default;
};

// One read the design serves: what it reads, where, with which key condition, in which
// direction and how many items (limit: "" for all, else a text such as "N + 1").
struct AccessPattern {
  std::string name;                // "Customer and its Orders by CUSTOMER#{id}"
  std::string index;               // "" for the table
  std::vector<std::string> items;  // the types read
  std::string key_condition;       // pk = "CUSTOMER#{id}" and begins_with(sk, "#ORDER#")
  // Sort-key order; false for newest first.
  bool forward = true;
  // How many items: "" for all, else a text such as "N + 1".
  std::string limit;
  friend bool operator==(const AccessPattern&, const AccessPattern&) = default;
};

// The design of a table as its entities and collections define it, for documentation and review
// (docs/tools.md): access_patterns<Customer, Order, CustomerOrders>().
class AccessPatterns {
 public:
  // The entities, each once.
  std::vector<DesignEntity> entities;
  // The item collections.
  std::vector<DesignCollection> collections;
  // The reads the design serves.
  std::vector<AccessPattern> patterns;

  // A Markdown document: entities, indexes, stored attributes, collections, access patterns.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  PKSK_DECL std::string to_markdown() const;
  // Everything above as one JSON object, which from_json reads back equal.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  PKSK_DECL std::string to_json() const;
  // Throws DecodeError for text that is not JSON, ValidationError for JSON that is not a design
  // this version of pksk wrote (another "pksk_design" version, a missing member).
  // Throws: DecodeError, ValidationError, as said.
  // Exception safety: strong.
  PKSK_DECL static AccessPatterns from_json(std::string_view json);

  friend bool operator==(const AccessPatterns&, const AccessPatterns&) = default;
};

namespace diagnostics {
// An argument of access_patterns<...>() that is neither an entity nor an ItemCollection.
template <class Argument>
struct access_patterns_argument_is_neither_an_entity_nor_an_item_collection;
// Two entities of one design with the same discriminator: their items could not be told apart.
template <class Entity, class OtherEntity, detail::fixed_string Type>
struct access_patterns_entities_have_the_same_type_discriminator;
}  // namespace diagnostics

namespace detail {

// The patterns the entities and collections serve, in a fixed order: each collection's, then
// each entity's (its own partition, then its indexes).
PKSK_DECL std::vector<AccessPattern> design_patterns(const std::vector<DesignEntity>& entities,
                                                     const std::vector<DesignCollection>& sets);

template <class T>
struct IsItemCollection : std::false_type {};
template <class... Ts>
struct IsItemCollection<ItemCollection<Ts...>> : std::true_type {};

template <class T>
inline constexpr bool design_argument_ok_v = diagnose_v<
    EntityType<T> || IsItemCollection<T>::value,
    diagnostics::access_patterns_argument_is_neither_an_entity_nor_an_item_collection<T>>;

// The entities of a design, each once: the listed ones in order, then the collections' others.
template <class... Ts>
struct TypeSet {};

template <class Set, class T>
struct AddType;
template <class... Ts, class T>
struct AddType<TypeSet<Ts...>, T> {
  using type =
      std::conditional_t<(std::is_same_v<T, Ts> || ...), TypeSet<Ts...>, TypeSet<Ts..., T>>;
};

template <class Set, class... Args>
struct AddListed {
  using type = Set;
};
template <class Set, class Arg, class... Args>
struct AddListed<Set, Arg, Args...> {
  using next =
      std::conditional_t<IsItemCollection<Arg>::value, Set, typename AddType<Set, Arg>::type>;
  using type = typename AddListed<next, Args...>::type;
};

template <class Set, class... Args>
struct AddMembers {
  using type = Set;
};
template <class Set, class Arg, class... Args>
struct AddMembers<Set, Arg, Args...> {
  using type = typename AddMembers<Set, Args...>::type;
};
template <class Set, class... Ms, class... Args>
struct AddMembers<Set, ItemCollection<Ms...>, Args...> {
  using type = typename AddMembers<typename AddListed<Set, Ms...>::type, Args...>::type;
};

template <class... Args>
using design_entities_t =
    typename AddMembers<typename AddListed<TypeSet<>, Args...>::type, Args...>::type;

template <class A, class B>
inline constexpr bool distinct_types_v = diagnose_v<
    type_name_v<A> != type_name_v<B>,
    diagnostics::access_patterns_entities_have_the_same_type_discriminator<A, B, type_text_v<A>>>;

template <class Set>
struct DistinctTypes;
template <>
struct DistinctTypes<TypeSet<>> {
  static constexpr bool ok = true;
};
template <class T, class... Ts>
struct DistinctTypes<TypeSet<T, Ts...>> {
  static constexpr bool ok = (distinct_types_v<T, Ts> && ... && DistinctTypes<TypeSet<Ts...>>::ok);
};

template <EntityType T>
DesignEntity describe_entity() {
  DesignEntity e{std::string(type_name_v<T>),
                 std::string(pk_text_v<T>.view()),
                 std::string(sk_text_v<T>.view()),
                 {},
                 {}};
  for (const Index& index : indexes_v<T>) {
    e.indexes.push_back({std::string(index.name), std::string(index.pk), std::string(index.sk)});
  }
  for (std::size_t f = 0; f < field_count_v<T>; ++f) {
    e.attributes.push_back(
        {std::string(field_names_v<T>[f]), std::string(stored_names_v<T>[f]), is_key_member<T>(f)});
  }
  return e;
}

template <class... Ms>
DesignCollection describe_collection() {
  using First = std::tuple_element_t<0, std::tuple<Ms...>>;
  DesignCollection c;
  (c.members.emplace_back(type_name_v<Ms>), ...);
  for (const std::string& member : c.members) {
    c.name += (c.name.empty() ? "" : " + ") + member;
  }
  if (collection_findings_v<Ms...>.mismatches == 0) {
    c.partitions.push_back({"", std::string(pk_text_v<First>.view())});
  }
  // An index where every member is and may be read together: its partitions hold them all.
  constexpr auto& names = CollectionIndexNames<Ms...>::value;
  constexpr auto& verdicts = IndexCollectionVerdicts<Ms...>::value;
  for (std::size_t i = 0; i < names.size(); ++i) {
    bool seen = false;
    for (std::size_t j = 0; j < i; ++j) seen = seen || names[j] == names[i];
    if (seen || verdicts[i].fault != IndexCollectionFault::none || !verdicts[i].all_members) {
      continue;
    }
    const std::size_t position = index_position<First>(names[i]);
    c.partitions.push_back({std::string(names[i]), std::string(indexes_v<First>[position].pk)});
  }
  return c;
}

template <class Arg>
void add_collection(std::vector<DesignCollection>& out) {
  if constexpr (IsItemCollection<Arg>::value) {
    [&]<class... Ms>(std::type_identity<ItemCollection<Ms...>>) {
      out.push_back(describe_collection<Ms...>());
    }(std::type_identity<Arg>{});
  }
}

template <class... Entities, class... Args>
AccessPatterns build_access_patterns(TypeSet<Entities...>, TypeSet<Args...>) {
  AccessPatterns design;
  (design.entities.push_back(describe_entity<Entities>()), ...);
  (add_collection<Args>(design.collections), ...);
  design.patterns = design_patterns(design.entities, design.collections);
  return design;
}

template <class T>
struct CollectionChecked {
  static constexpr bool ok = true;
};
template <class... Ms>
struct CollectionChecked<ItemCollection<Ms...>> {
  static constexpr bool ok = CollectionCheck<Ms...>::ok;
};

// Each argument an entity or a collection, each collection valid, then no two entities with one
// discriminator: each failure one error, and nothing built after it.
template <class... Args>
struct DesignCheck {
  static constexpr bool arguments = (design_argument_ok_v<Args> && ...);
  template <bool Arguments, class = void>
  struct Rules {
    static constexpr bool ok = false;
  };
  template <class Unused>
  struct Rules<true, Unused> {
    static constexpr bool collections = (CollectionChecked<Args>::ok && ...);
    static constexpr bool ok = collections && DistinctTypes<design_entities_t<Args...>>::ok;
  };
  static constexpr bool ok = arguments && Rules<arguments>::ok;
};

}  // namespace detail

// The design of the entities and collections Args (see the top of this file).
// Throws: only std::bad_alloc.
// Exception safety: strong.
template <class... Args>
  requires(sizeof...(Args) > 0)
AccessPatterns access_patterns() {
  if constexpr (detail::DesignCheck<Args...>::ok) {
    return detail::build_access_patterns(detail::design_entities_t<Args...>{},
                                         detail::TypeSet<Args...>{});
  } else {
    return {};
  }
}

}  // namespace pksk

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/access_patterns.ipp"
#endif
