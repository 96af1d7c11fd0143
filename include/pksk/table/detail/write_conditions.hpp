// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a write asks besides its item: its conditions (if_absent, exists, when(expr), and the
// version a versioned entity was read at), and an update's parts sorted into actions and
// conditions, with the actions that keep the item's index keys and version right. From the
// key, the parts and the table's spec alone; put, update, erase and a transaction's actions
// all build theirs here.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../backend/backend.hpp"
#include "../../codec/null_optionals.hpp"
#include "../../error.hpp"
#include "../../expr/attr.hpp"
#include "../../expr/expression.hpp"
#include "../../expr/update.hpp"
#include "../../key/entity.hpp"
#include "../../key/index.hpp"
#include "../../key/key.hpp"
#include "../../key/stored_names.hpp"
#include "../../reflect/reflect.hpp"
#include "../index_upkeep.hpp"
#include "add_ranges.hpp"
#include "entity_writes.hpp"
#include "messages.hpp"

namespace pksk::detail {

template <EntityType T>
void add_condition(const backend::TableSpec& spec, ConditionParts& parts, const IfAbsentTag&) {
  parts.item_absent(spec.pk_attribute);
}
template <EntityType T>
void add_condition(const backend::TableSpec& spec, ConditionParts& parts, const ExistsTag&) {
  parts.item_present(spec.pk_attribute);
}
template <EntityType T, class U>
void add_condition(const backend::TableSpec&, ConditionParts& parts, const When<U>& when) {
  static_assert(std::is_same_v<T, U>,
                "pksk: the condition is on another entity than the item written (when(...) on "
                "U guards a write of T)");
  parts.add(when.node);
}

// return_old and return_stored_on_failure ask something back; they add no condition.
template <EntityType T>
void add_condition(const backend::TableSpec&, ConditionParts&, const ReturnOldTag&) {}
template <EntityType T>
void add_condition(const backend::TableSpec&, ConditionParts&, const ReturnStoredOnFailureTag&) {}

// Where a try_ write (Table::try_put, try_update, try_erase) has its condition's failure
// reported instead of thrown: a part of the write, as return_old is, so that it travels with
// the write's other parts to the request (backend::WriteReturns::failure).
struct ReportFailure {
  std::optional<ConditionFailed>* to;
};
template <EntityType T>
void add_condition(const backend::TableSpec&, ConditionParts&, const ReportFailure&) {}

template <class Part>
inline constexpr bool is_return_part_v =
    std::is_same_v<Part, ReturnOldTag> || std::is_same_v<Part, ReturnStoredOnFailureTag> ||
    std::is_same_v<Part, ReportFailure>;

// The failure report a write's parts carry, or null: the write throws its ConditionFailed.
template <class... Parts>
std::optional<ConditionFailed>* failure_report(const Parts&... parts) noexcept {
  std::optional<ConditionFailed>* to = nullptr;
  (
      [&](const auto& part) {
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(part)>, ReportFailure>)
          to = part.to;
      }(parts),
      ...);
  return to;
}
// Whether `failure` holds a failure the write reported rather than threw.
inline bool reported(const std::optional<ConditionFailed>* failure) noexcept {
  return failure != nullptr && failure->has_value();
}

// What Table::upsert and Transaction::upsert hand update(): every member the entity declares,
// but its key and version members, each set to the item's value, or removed where the item
// has none (an empty optional, an empty string set, which a put would leave out; an empty
// optional is set to NULL for an entity with empty_optional_as_null). Attributes
// the struct does not declare are not named, so they are kept.
template <EntityType T>
struct EveryMember {
  const T& item;
};
template <class Part>
inline constexpr bool is_every_member_v = false;
template <class T>
inline constexpr bool is_every_member_v<EveryMember<T>> = true;

// Whether a part of an update (or a write's argument after the item) is a condition rather than
// an action or a return_ tag.
template <class Part>
inline constexpr bool is_condition_part_v = !requires(const Part& part) { part.action; } &&
                                            !is_return_part_v<Part> && !is_every_member_v<Part>;

// What a put's or an erase's arguments after the item ask back.
template <class... Parts>
inline constexpr bool returns_old_v =
    (std::is_same_v<std::remove_cvref_t<Parts>, ReturnOldTag> || ...);
template <class... Parts>
inline constexpr bool returns_stored_v =
    (std::is_same_v<std::remove_cvref_t<Parts>, ReturnStoredOnFailureTag> || ...);
// What put and erase return: `Plain`, or with return_old the item replaced or removed.
template <class T, class Plain, class... Parts>
using old_item_result_t = std::conditional_t<returns_old_v<Parts...>, std::optional<T>, Plain>;

template <class... Parts>
inline constexpr bool has_conditions_v = (is_condition_part_v<std::remove_cvref_t<Parts>> || ...);

// A put's or an erase's condition: the caller's, and for a versioned entity the version the
// item (or the key) carries.
template <EntityType T, class... Conditions>
std::optional<backend::Condition> write_condition(const backend::TableSpec& spec, const T& item,
                                                  const Conditions&... conditions) {
  [[maybe_unused]] constexpr bool version_spelled = version_spelled_v<T>;
  ConditionParts parts;
  (detail::add_condition<T>(spec, parts, conditions), ...);
  if constexpr (VersionedEntity<T>) {
    parts.version_is(spec.pk_attribute, stored_names_v<T>[version_index_v<T>],
                     get_field<version_index_v<T>>(item));
  }
  return std::move(parts).combined();
}

// Member K's value as a put stores it: a compressed member's zstd frame, else its value (a
// blob member's inline, refused over its threshold: only put stores objects).
template <class T, std::size_t K, class V>
AttributeValue every_member_value(const V& value) {
  if constexpr (compressed_fields_v<T>[K]) {
    return compressed_value<T>(stored_names_v<T>[K], value);
  } else if constexpr (blob_field_v<T, K>) {
    check_blob_update<T>(top_level(stored_names_v<T>[K]), value);
    return to_attribute_value(value);
  } else {
    return to_attribute_value(value);
  }
}

template <EntityType T>
void add_every_member_action(const T& item, std::vector<backend::UpdateAction>& actions) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    const auto one = [&]<std::size_t K>(std::integral_constant<std::size_t, K>) {
      if constexpr (!is_key_member<T>(K) && !is_version_member<T>(K)) {
        const auto& field = get_field<K>(item);
        using Field = std::remove_cvref_t<decltype(field)>;
        backend::UpdateAction& action = actions.emplace_back();
        action.path = top_level(stored_names_v<T>[K]);
        if constexpr (is_optional_v<Field>) {
          if (!field) {
            // Stored as a put stores it: NULL for an entity that keeps empty optionals so.
            if constexpr (stores_empty_optional_as_null_v<T>) {
              action.value = AttributeValue::null_value();
            } else {
              action.kind = backend::UpdateAction::Kind::remove;
            }
          } else {
            action.value = every_member_value<T, K>(*field);
          }
        } else if constexpr (is_string_set_v<Field> || is_number_set_v<Field> ||
                             is_binary_set_v<Field>) {
          if (field.empty())
            action.kind = backend::UpdateAction::Kind::remove;
          else
            action.value = every_member_value<T, K>(field);
        } else {
          action.value = every_member_value<T, K>(field);
        }
      }
    };
    (one(std::integral_constant<std::size_t, I>{}), ...);
  }(std::make_index_sequence<field_count_v<T>>{});
}

// Sorts an update's parts into actions and conditions. An action on a key member is refused
// at compile time when the member is named (set(&T::m, v), set<&T::m>(v)); what compile time
// cannot see, a path made by attr() and a Hana-adapted struct's member, is refused here.
//
// An update that leaves a string member of an index key unset (add_index_key_actions) would
// create an item put refuses: it gets the condition that the item exists, and `unset` says which
// member, for the error when that condition fails.
template <EntityType T, class... Parts>
std::optional<backend::Condition> update_parts(const backend::TableSpec& spec, const T& key,
                                               std::vector<backend::UpdateAction>& actions,
                                               std::optional<UnsetIndexMember>& unset,
                                               Parts&&... parts) {
  [[maybe_unused]] constexpr bool version_spelled = version_spelled_v<T>;
  const std::size_t first = actions.size();  // after the key members' actions, if given first
  ConditionParts conditions;
  const auto take = [&]<class Part>(Part&& part) {
    using P = std::remove_cvref_t<Part>;
    if constexpr (is_every_member_v<P>) {
      add_every_member_action(part.item, actions);
    } else if constexpr (requires { part.action; }) {
      static_assert(std::is_base_of_v<Update<T>, P>,
                    "pksk: an update action names a member of another entity than the key's");
      const std::size_t index = stored_field_index<T>(part.action.path.steps.front().name);
      const std::string_view member = index < field_count_v<T>
                                          ? field_names_v<T>[index]
                                          : std::string_view(part.action.path.steps.front().name);
      if (index < field_count_v<T> && is_key_member<T>(index)) {
        throw ValidationError(table_context(spec.name, "update", type_name_v<T>) + "the member " +
                              detail::quoted(member) +
                              " is part of the item's key; an update cannot move an item");
      }
      if (index < field_count_v<T> && is_version_member<T>(index)) {
        throw ValidationError(table_context(spec.name, "update", type_name_v<T>) + "the member " +
                              detail::quoted(member) +
                              " is the entity's version: every update sets it to the version "
                              "the key carries plus one");
      }
      // An add to an integer member is guarded against leaving its type's range (add_ranges.hpp).
      if constexpr (!std::is_void_v<added_integer_t<P>>) {
        if (std::optional<AddRange> range = add_range(part))
          conditions.add(range_condition(*range));
      }
      actions.push_back(std::forward<Part>(part).action);
    } else {
      detail::add_condition<T>(spec, conditions, part);
    }
  };
  (take(std::forward<Parts>(parts)), ...);
  if constexpr (index_count_v<T> != 0) {
    unset = detail::add_index_key_actions(spec, key, actions, first);
    if (unset) conditions.item_present(spec.pk_attribute);
  }
  if constexpr (VersionedEntity<T>) {
    const auto current = get_field<version_index_v<T>>(key);
    const std::string_view member = stored_names_v<T>[version_index_v<T>];
    conditions.version_is(spec.pk_attribute, member, current);
    actions.push_back({backend::UpdateAction::Kind::set, top_level(member),
                       AttributeValue::from_number(std::to_string(current + 1))});
  }
  if (actions.size() == first) {
    throw ValidationError(table_context(spec.name, "update", type_name_v<T>) +
                          "an update needs at least one action");
  }
  return std::move(conditions).combined();
}

}  // namespace pksk::detail
