// SPDX-License-Identifier: BSL-1.0
#pragma once
// What Table derives from an entity to write it: its version member (optimistic locking), which
// members its keys are built from (an update may not touch them, and sets them on an item it
// creates), and the conditions a write carries, combined into one tree.

#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../codec/attribute_value.hpp"
#include "../../expr/attr.hpp"
#include "../../expr/expression.hpp"
#include "../../key/entity.hpp"
#include "../../key/key.hpp"
#include "../../key/read_back.hpp"
#include "../../key/stored_names.hpp"
#include "../../reflect/reflect.hpp"

namespace pksk {

namespace detail {

inline backend::AttributePath top_level(std::string_view name) {
  return backend::AttributePath{{{std::string(name), 0, false}}};
}

// The pieces of one write's condition, joined with AND.
class ConditionParts {
 public:
  void add(backend::Condition c) { parts_.push_back(std::move(c)); }
  void item_absent(std::string_view pk_attribute) {
    add({backend::Condition::Op::not_exists, {path_operand(top_level(pk_attribute))}, {}});
  }
  void item_present(std::string_view pk_attribute) {
    add({backend::Condition::Op::exists, {path_operand(top_level(pk_attribute))}, {}});
  }
  // Optimistic locking: the stored version must be the one the caller read (0: a new item).
  template <std::integral V>
  void version_is(std::string_view pk_attribute, std::string_view version_member, V expected) {
    if (expected == 0) {
      item_absent(pk_attribute);
    } else {
      add({backend::Condition::Op::eq,
           {path_operand(top_level(version_member)),
            value_operand(AttributeValue::from_number(std::to_string(expected)))},
           {}});
    }
  }
  std::optional<backend::Condition> combined() && {
    if (parts_.empty()) return std::nullopt;
    if (parts_.size() == 1) return std::move(parts_.front());
    return backend::Condition{backend::Condition::Op::all, {}, std::move(parts_)};
  }

 private:
  std::vector<backend::Condition> parts_;
};

// An item an update creates has the key attributes, the type and what the actions write
// (DynamoDB's UpdateItem); without its key members it would decode with default ones. So each
// is set from `key` where it is absent: a stored item's are left as they are. No action of the
// user names one (Table::update_parts refuses that), so no path is given two actions, which
// DynamoDB refuses. format_keys checks the values before the request is sent.
//
// update() writes these actions over the first ones of its per-thread vector, reusing what
// they hold (a warm update allocates nothing for them); a transaction appends them.
template <class M>
void assign_key_member_action(backend::UpdateAction& action, std::string_view name,
                              const M& value) {
  action.kind = backend::UpdateAction::Kind::set_if_not_exists;
  action.path.steps.resize(1);
  action.path.steps.front().name.assign(name);
  action.path.steps.front().is_index = false;
  if constexpr (std::is_same_v<M, std::string>) {
    action.value.kind = AttributeValue::Kind::string;
    action.value.text.assign(value);
  } else {
    action.value = to_attribute_value(value);
  }
}

template <EntityType T>
void assign_key_member_actions(const T& key, std::vector<backend::UpdateAction>& actions) {
  constexpr auto& keys = stored_key_members_v<T>;
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (assign_key_member_action(actions[K], stored_names_v<T>[keys.index[K]],
                              get_field<keys.index[K]>(key)),
     ...);
  }(std::make_index_sequence<keys.count>{});
}

template <EntityType T>
void add_key_member_actions(const T& key, std::vector<backend::UpdateAction>& actions) {
  constexpr auto& keys = stored_key_members_v<T>;
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (actions.push_back({backend::UpdateAction::Kind::set_if_not_exists,
                        top_level(stored_names_v<T>[keys.index[K]]),
                        to_attribute_value(get_field<keys.index[K]>(key))}),
     ...);
  }(std::make_index_sequence<keys.count>{});
}

}  // namespace detail
}  // namespace pksk
