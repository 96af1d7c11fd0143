// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a read of R returns (query_result_t<R>), and what one query or scan call asks of the
// backend, worked out once before its first page (detail::ReadPlan): the filter with the
// table's attribute names, the projection and its decode masks, and the key condition that
// keeps a query of one entity to that entity's items.

#include <array>
#include <bitset>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "../backend/backend.hpp"
#include "../detail/config.hpp"
#include "../detail/diagnose.hpp"
#include "../error.hpp"
#include "../expr/expression.hpp"
#include "../expr/filter.hpp"
#include "../key/condition.hpp"
#include "../key/entity.hpp"
#include "../key/index.hpp"
#include "../key/key.hpp"
#include "../model/collection.hpp"
#include "../reflect/reflect.hpp"
#include "detail/messages.hpp"
#include "query.hpp"

namespace pksk {

namespace diagnostics {
// query<R>, scan<R>, each<R> or another read of an R that is neither an entity (a type with a
// pksk::Entity<R> specialization giving its type, pk and sk) nor an ItemCollection.
template <class R>
struct read_type_is_neither_an_entity_nor_an_item_collection;
}  // namespace diagnostics

namespace detail {

// The one error of a read of R that is neither an entity nor an ItemCollection: for an R with
// an Entity specialization, what the specialization lacks.
template <class R>
consteval bool report_unreadable() {
  if constexpr (specialises_entity<R>) {
    return report_not_an_entity<R>();
  } else {
    return diagnose_v<false, diagnostics::read_type_is_neither_an_entity_nor_an_item_collection<R>>;
  }
}

// What a read of R returns; `readable` is false for an R that is neither an entity nor an
// ItemCollection of entities, whose one error this is: query<R>, scan<R> and the rest then
// compile to nothing (run_query and run_scan), so that nothing else is reported.
template <class R>
struct QueryResult {
  static_assert(report_unreadable<R>() || true);
  static constexpr bool readable = false;
  using type = std::vector<R>;
};

template <class... Ts>
struct QueryResult<ItemCollection<Ts...>> {
  static constexpr bool readable = true;
  using type = ItemCollection<Ts...>;
};

template <class T>
  requires EntityType<T>
struct QueryResult<T> {
  static constexpr bool readable = true;
  using type = std::vector<T>;
};

template <class R>
inline constexpr bool readable_v = QueryResult<R>::readable;

// A collection's first member: its members share one partition-key shape.
template <class R>
struct CollectionFirst;
template <class T, class... Ts>
struct CollectionFirst<ItemCollection<T, Ts...>> {
  using type = T;
};

// An ItemCollection whose members are all entities (one that is not is reported by the
// collection itself, and nothing is compiled for it here).
template <class R>
inline constexpr bool entity_collection_v = false;
template <class... Ts>
inline constexpr bool entity_collection_v<ItemCollection<Ts...>> = (EntityType<Ts> && ...);

}  // namespace detail

// What query<R> returns: R itself for an ItemCollection, std::vector<T> for an entity T.
template <class R>
using query_result_t = typename detail::QueryResult<R>::type;

namespace detail {

// The fields a projection decodes: one mask for an entity, one per member for a collection.
template <class R>
struct SelectionMask;
template <class T>
  requires EntityType<T>
struct SelectionMask<T> {
  using type = std::bitset<field_count_v<T>>;
};
template <class... Ts>
struct SelectionMask<ItemCollection<Ts...>> {
  using type = typename ItemCollection<Ts...>::Masks;
};

template <class R>
struct CollectionTypes;
template <class... Ts>
struct CollectionTypes<ItemCollection<Ts...>> {
  static constexpr std::array<std::string_view, sizeof...(Ts)> value = [] {
    // A collection with a member that is not an entity is reported by ItemCollection itself.
    if constexpr ((EntityType<Ts> && ...)) {
      return std::array<std::string_view, sizeof...(Ts)>{type_name_v<Ts>...};
    } else {
      return std::array<std::string_view, sizeof...(Ts)>{};
    }
  }();
};

// What one query or scan call reads, whatever it reads: the filter with the table's attribute
// names and the attributes projected.
struct ReadPlanBase {
  std::optional<backend::Condition> filter;
  std::vector<std::string_view> projection;
  bool selected = false;
  bool keep_undecodable = false;

  const backend::Condition* filter_ptr() const noexcept { return filter ? &*filter : nullptr; }
};

// What one query or scan call reads, worked out once before its first page: with the decode
// masks of a projection.
template <class R>
struct ReadPlan : ReadPlanBase {
  typename SelectionMask<R>::type mask{};
};

// What a read's options say that does not depend on what is read: what the page loops need.
struct ReadShape {
  bool has_sk = false;
  bool forward = true;
  std::size_t limit = 0;
  const Cursor* start = nullptr;
  std::size_t segment = 0;
  std::size_t segments = 0;
  bool consistent = false;
};

template <class R>
ReadShape read_shape(const BasicQueryOptions<R>& options) noexcept {
  return {options.sk.has_value(), options.forward,
          options.limit,          options.start ? &*options.start : nullptr,
          options.segment,        options.segments,
          options.consistent};
}

// `type = <type>`, with the table's name for the type attribute.
PKSK_DECL backend::Condition type_is_condition(const backend::TableSpec& spec,
                                               std::string_view type);

template <EntityType T>
backend::Condition type_is_condition(const backend::TableSpec& spec) {
  return type_is_condition(spec, type_name_v<T>);
}

// The plan's filter: `filter` with the table's attribute names; for a scan of one entity type
// (`only_type` not empty), also that type, so that DynamoDB sends no other items (a query's
// key condition already keeps to the type's sort-key prefix).
PKSK_DECL void plan_filter(ReadPlanBase& plan, const backend::TableSpec& spec, const Filter& filter,
                           std::string_view only_type, bool scan);

// The types a read of R keeps: R's for an entity, its members' for a collection (what size()
// counts; the rest go to unknown()).
template <class R>
struct ReadTypes {
  static constexpr std::array<std::string_view, 1> value{type_name_v<R>};
};
template <class... Ts>
struct ReadTypes<ItemCollection<Ts...>> : CollectionTypes<ItemCollection<Ts...>> {};

// Whether a stored item is one R keeps: R's own, or a member type's of a collection R.
template <class R>
struct StoredAsOneOf {
  template <class Row>
  static bool test(const Row& row) {
    return stored_as<R>(row);
  }
};
template <class... Ts>
struct StoredAsOneOf<ItemCollection<Ts...>> {
  template <class Row>
  static bool test(const Row& row) {
    return (stored_as<Ts>(row) || ...);
  }
};
template <class R, class Row>
bool stored_as_one_of(const Row& row) {
  return StoredAsOneOf<R>::test(row);
}

// The plan's filter, narrowed to the items of these types (`type = T`, or `type IN (...)`),
// which a count keeps server-side where a read keeps them while decoding.
PKSK_DECL void plan_type_filter(ReadPlanBase& plan, const backend::TableSpec& spec,
                                std::span<const std::string_view> types);

// A count with a projection (`select`), which reads no member at all.
[[noreturn]] PKSK_DECL void throw_count_with_select(std::string_view table, std::string_view type);

// A projection's member of an entity the read does not read.
[[noreturn]] PKSK_DECL void throw_member_not_read(const backend::TableSpec& spec,
                                                  const SelectedMember& member);

// A query of index `index` for an entity that is not in it.
[[noreturn]] PKSK_DECL void throw_entity_not_in_index(std::string_view table,
                                                      std::string_view index,
                                                      std::string_view type);

// keep_undecodable on a read of one entity type, whose result has no unknown() to keep in.
[[noreturn]] PKSK_DECL void throw_keep_undecodable_without_collection(
    const backend::TableSpec& spec, std::string_view type);

// A query's partition key that the queried type's template cannot produce (check_partition_key).
[[noreturn]] PKSK_DECL void throw_partition_key_not_of_template(std::string_view table,
                                                                std::string_view index,
                                                                std::string_view type,
                                                                std::string_view key_template,
                                                                std::string_view pk);

// The filter with the table's attribute names, the projection and its decode masks.
template <class R>
ReadPlan<R> make_read_plan(const backend::TableSpec& spec, const BasicQueryOptions<R>& options,
                           bool scan) {
  ReadPlan<R> plan;
  std::string_view only_type;
  if constexpr (EntityType<R>) {
    only_type = type_name_v<R>;
    if (options.keep_undecodable) throw_keep_undecodable_without_collection(spec, only_type);
  }
  plan.keep_undecodable = options.keep_undecodable;
  plan_filter(plan, spec, options.filter, only_type, scan);
  if (!options.select.empty()) {
    plan.selected = true;
    for (const SelectedMember& m : options.select.members()) {
      plan.projection.push_back(m.name);
      bool placed = false;
      if constexpr (EntityType<R>) {
        if (m.type == type_name_v<R>) plan.mask.set(m.index), placed = true;
      } else {
        std::apply(
            [&]<class... Bits>(Bits&... bits) {
              std::size_t i = 0;
              const auto& types = CollectionTypes<R>::value;
              ((m.type == types[i++] ? (bits.set(m.index), placed = true) : false), ...);
            },
            plan.mask);
      }
      if (!placed) throw_member_not_read(spec, m);
    }
  }
  return plan;
}

// The begins_with condition that keeps a query of entity T to T's items: its sort key's
// literal prefix, in the table or in the index; none when the prefix is empty.
template <EntityType T>
const KeyCondition* type_prefix_condition(std::string_view table, const TableIndex* index) {
  if (index == nullptr) {
    static const KeyCondition table_prefix = begins_with(std::string(sort_key_prefix_v<T>));
    return table_prefix.first.empty() ? nullptr : &table_prefix;
  }
  static const auto index_prefixes = [] {
    std::array<KeyCondition, index_count_v<T>> out;
    for_each_index<T>(
        [&](auto i) { out[i] = begins_with(std::string(index_sort_key_prefix_v<T, i>)); });
    return out;
  }();
  const std::size_t i = index_position<T>(index->name);
  if (i == index_count_v<T>) throw_entity_not_in_index(table, index->name, type_name_v<T>);
  return index_prefixes[i].first.empty() ? nullptr : &index_prefixes[i];
}

// The first attribute `condition` names (its first path step) that is one of `names`, or null.
inline const std::string* attribute_named_in(const backend::Condition& condition,
                                             std::span<const std::string_view> names) {
  for (const backend::Operand& o : condition.operands) {
    if (o.kind == backend::Operand::Kind::value || o.path.steps.empty()) continue;
    const std::string& name = o.path.steps.front().name;
    for (const std::string_view n : names) {
      if (name == n) return &name;
    }
  }
  for (const backend::Condition& child : condition.children) {
    if (const std::string* found = attribute_named_in(child, names)) return found;
  }
  return nullptr;
}

// A filter of a read of the collection R with a chunked member: the backend applies it to the
// stored items, where that member's large items are heads without its attributes. The type,
// the keys and other members' attributes (a condition on them is scoped to their entity's type)
// hold on a head as on the whole item, so only a filter naming one of the chunked member's
// attributes is refused: typed options refuse it at compile time, this when the read runs.
template <class R>
void check_chunked_collection_filter(std::string_view table, const Filter& filter) {
  if constexpr (entity_collection_v<R>) {
    if (filter.empty()) return;
    const backend::Condition tree = filter.scoped();
    [&]<class... Ts>(std::type_identity<ItemCollection<Ts...>>) {
      const auto check = [&]<class T>(std::type_identity<T>) {
        if constexpr (chunked_v<T>) {
          if (const std::string* name = attribute_named_in(tree, stored_names_v<T>))
            throw_chunked_filter_refused(table, type_name_v<T>, *name);
        }
      };
      (check(std::type_identity<Ts>{}), ...);
    }(std::type_identity<R>{});
  }
}

// T's sort-key template where a query on `index` (null: the table) reads it; empty when T is
// not in that index.
template <EntityType T>
std::string_view sort_key_text_in(const TableIndex* index) noexcept {
  if (index == nullptr) return sort_key_template<T>::text;
  for (const Index& entry : indexes_v<T>) {
    if (entry.name == index->name) return entry.sk;
  }
  return {};
}

// A typed sort-key condition (sort_key_of<T>) formatted for the key space the query reads: an
// entity the query keeps (R, or a member of the collection R), by the sort-key template that
// entity has in the table or index queried. Otherwise its key text would match none of the
// items kept, or others by chance: a ValidationError rather than an empty result.
template <class R>
void check_sort_key_condition(std::string_view table, const KeyCondition& condition,
                              const TableIndex* index) {
  if (condition.built_for == nullptr) return;
  const KeySpace& built = *condition.built_for;
  bool entity_read = false;
  std::string_view template_read;
  const auto consider = [&]<class T>(std::type_identity<T>) {
    if (type_name_v<T> != built.entity) return;
    entity_read = true;
    template_read = sort_key_text_in<T>(index);
  };
  if constexpr (EntityType<R>) {
    consider(std::type_identity<R>{});
  } else {
    [&]<class... Ts>(std::type_identity<ItemCollection<Ts...>>) {
      (consider(std::type_identity<Ts>{}), ...);
    }(std::type_identity<R>{});
  }
  if (entity_read && template_read == built.sort_key_template) return;
  throw_sort_key_condition_of_another_key_space(
      table, index == nullptr ? std::string_view{} : std::string_view(index->name), built,
      ReadTypes<R>::value, entity_read ? template_read : std::string_view{}, entity_read);
}

// ValidationError for a partition key T's template (in `index`, or the table's) cannot produce:
// "ATTENDEE#" for "ATTENDEE#{attendee}" (an empty field), "ATTENDEE#x#y" (a field holding the
// delimiter). Such a query would silently find nothing. An index T is not in is left to
// type_prefix_condition, which names it.
template <EntityType T>
void check_partition_key(std::string_view table, const PartitionKey& pk, const TableIndex* index) {
  if (index == nullptr) {
    using Template = partition_key_template<T>;
    const auto& language = Template::language;
    if (!language_accepts(std::span(language.elems.data(), language.size), pk.value))
      throw_partition_key_not_of_template(table, {}, type_name_v<T>, Template::text, pk.value);
    return;
  }
  for_each_index<T>([&](auto i) {
    if (indexes_v<T>[i].name != index->name) return;
    using Template = index_partition_key_template<T, i>;
    const auto& language = Template::language;
    if (!language_accepts(std::span(language.elems.data(), language.size), pk.value)) {
      throw_partition_key_not_of_template(table, index->name, type_name_v<T>, Template::text,
                                          pk.value);
    }
  });
}

// A query of ItemCollection R on the table (not an index): the table's rules, at compile time
// (collection_rules.hpp), when R's members share partitions only in an index.
template <class R>
inline constexpr bool table_read_checked_v = true;
template <class... Ts>
inline constexpr bool table_read_checked_v<ItemCollection<Ts...>> =
    checked_v<TableCollectionCheck<Ts...>>;

// An ItemCollection read on an index whose templates do not let its members share partitions.
[[noreturn]] PKSK_DECL void throw_collection_not_in_index(std::string_view table,
                                                          std::string_view index,
                                                          IndexCollectionVerdict verdict,
                                                          std::string_view type_a,
                                                          std::string_view type_b);

// T's partition-key template in `index`, or "" when T is not in it.
template <EntityType T>
constexpr std::string_view index_template_text(std::string_view index) noexcept {
  for (const Index& i : indexes_v<T>) {
    if (i.name == index) return i.pk;
  }
  return {};
}

// Whether T's partition-key template in `index` can produce `pk`; nullopt when T is not in it.
template <EntityType T>
std::optional<bool> index_partition_key_fits(const PartitionKey& pk, std::string_view index) {
  std::optional<bool> fits;
  for_each_index<T>([&](auto i) {
    if (fits || indexes_v<T>[i].name != index) return;
    const auto& language = index_partition_key_template<T, i>::language;
    fits = language_accepts(std::span(language.elems.data(), language.size), pk.value);
  });
  return fits;
}

// ValidationError unless the members of ItemCollection<Ts...> that are in `index` share
// partitions there (one partition-key shape, sort keys that cannot collide), and `pk` is a
// partition key one of their templates can produce. Members not in the index are not read.
template <class... Ts>
void check_index_collection(std::string_view table, const PartitionKey& pk, const TableIndex& index,
                            std::type_identity<ItemCollection<Ts...>>) {
  static constexpr std::array<std::string_view, sizeof...(Ts)> types{type_name_v<Ts>...};
  const IndexCollectionVerdict verdict = index_collection_fault<Ts...>(index.name);
  if (verdict.fault != IndexCollectionFault::none) [[unlikely]] {
    throw_collection_not_in_index(table, index.name, verdict, types[verdict.a], types[verdict.b]);
  }
  bool fits = false;
  const std::optional<bool> each[] = {index_partition_key_fits<Ts>(pk, index.name)...};
  std::size_t first = sizeof...(Ts);
  for (std::size_t i = 0; i < sizeof...(Ts); ++i) {
    if (each[i] && first == sizeof...(Ts)) first = i;
    fits = fits || each[i].value_or(false);
  }
  if (!fits) [[unlikely]] {
    const std::array<std::string_view, sizeof...(Ts)> templates{
        index_template_text<Ts>(index.name)...};
    throw_partition_key_not_of_template(table, index.name, types[first], templates[first],
                                        pk.value);
  }
}

}  // namespace detail
}  // namespace pksk

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/read_plan.ipp"
#endif
