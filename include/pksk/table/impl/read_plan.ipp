// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of read_plan.hpp that are not templates: inline through it in header-only
// mode, compiled once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <string>
#include <string_view>
#include <utility>

#include "../../error.hpp"
#include "../../expr/filter.hpp"
#include "../detail/messages.hpp"
#include "../read_plan.hpp"

namespace pksk::detail {

PKSK_DECL backend::Condition type_is_condition(const backend::TableSpec& spec,
                                               std::string_view type) {
  backend::Condition condition = Filter::type_equals(type);
  condition.operands[0].path.steps[0].name = spec.type_attribute;
  return condition;
}

PKSK_DECL void plan_filter(ReadPlanBase& plan, const backend::TableSpec& spec, const Filter& filter,
                           std::string_view only_type, bool scan) {
  if (!filter.empty()) {
    plan.filter = filter.resolve(spec.sk_attribute, spec.type_attribute, only_type);
  }
  // Without a type attribute, nothing server-side tells the types apart: the rows are kept by
  // their sort keys while decoding.
  if (scan && !only_type.empty() && !spec.type_attribute.empty()) {
    backend::Condition type = type_is_condition(spec, only_type);
    if (plan.filter) {
      backend::Condition both{backend::Condition::Op::all, {}, {}};
      both.children.push_back(std::move(type));
      both.children.push_back(std::move(*plan.filter));
      plan.filter = std::move(both);
    } else {
      plan.filter = std::move(type);
    }
  }
}

PKSK_DECL void plan_type_filter(ReadPlanBase& plan, const backend::TableSpec& spec,
                                std::span<const std::string_view> types) {
  backend::Condition type = type_is_condition(spec, types.front());
  if (types.size() > 1) {
    type.op = backend::Condition::Op::in;
    for (const std::string_view other : types.subspan(1)) {
      type.operands.push_back(
          {backend::Operand::Kind::value, {}, AttributeValue::from_string(std::string(other))});
    }
  }
  if (!plan.filter) {
    plan.filter = std::move(type);
    return;
  }
  // The type first: the SQLite backend then rejects another type's row by its type column.
  backend::Condition both{backend::Condition::Op::all, {}, {}};
  both.children.push_back(std::move(type));
  if (plan.filter->op == backend::Condition::Op::all) {
    for (backend::Condition& c : plan.filter->children) both.children.push_back(std::move(c));
  } else {
    both.children.push_back(std::move(*plan.filter));
  }
  plan.filter = std::move(both);
}

PKSK_DECL void throw_count_with_select(std::string_view table, std::string_view type) {
  throw ValidationError(table_context(table, "count", type) +
                        "select names members to read, and a count reads none (DynamoDB's " +
                        "Select=COUNT takes no projection): leave select empty");
}

PKSK_DECL void throw_member_not_read(const backend::TableSpec& spec, const SelectedMember& member) {
  throw ValidationError("pksk table " + detail::quoted(spec.name) + ": select names the member " +
                        detail::quoted(member.name) + " of " + detail::quoted(member.type) +
                        ", an entity the query does not read");
}

PKSK_DECL void throw_entity_not_in_index(std::string_view table, std::string_view index,
                                         std::string_view type) {
  throw ValidationError("pksk table " + detail::quoted(table) + ", query of index " +
                        detail::quoted(index) + ": the entity " + detail::quoted(type) +
                        " is not in it (its Entity<T>::indexes does not name it)");
}

PKSK_DECL void throw_keep_undecodable_without_collection(const backend::TableSpec& spec,
                                                         std::string_view type) {
  throw ValidationError("pksk table " + detail::quoted(spec.name) + ", read " + std::string(type) +
                        ": keep_undecodable keeps an item that does not decode in an " +
                        "ItemCollection's unknown(), and a read of " + std::string(type) +
                        " has none: read pksk::ItemCollection<" + std::string(type) + ">");
}

PKSK_DECL void throw_partition_key_not_of_template(std::string_view table, std::string_view index,
                                                   std::string_view type,
                                                   std::string_view key_template,
                                                   std::string_view pk) {
  throw ValidationError(
      "pksk table " + detail::quoted(table) + ", query " + std::string(type) +
      (index.empty() ? std::string() : " on index " + detail::quoted(index)) +
      ": the partition key " + detail::quoted(pk) + " is not one that " + std::string(type) +
      "'s template " + detail::quoted(key_template) +
      " can produce (a field empty, or holding '#' or the next literal's first character): " +
      "the query would find nothing; make the key with " +
      (index.empty() ? std::string("pksk::partition(")
                     : "pksk::partition<\"" + std::string(index) + "\">(") +
      "x), x a " + std::string(type) + " with every member of that template set");
}

PKSK_DECL void throw_collection_not_in_index(std::string_view table, std::string_view index,
                                             IndexCollectionVerdict verdict,
                                             std::string_view type_a, std::string_view type_b) {
  std::string why;
  switch (verdict.fault) {
    case IndexCollectionFault::no_member_in_index:
      why = "the entity " + detail::quoted(type_a) +
            ", the collection's first member, is not in it (its Entity<T>::indexes does not name "
            "it), and its partition keys there are what the query's must be";
      break;
    case IndexCollectionFault::invalid_template:
      why = "a member's key template in it is malformed";
      break;
    case IndexCollectionFault::partition_shapes_differ:
      why = "the partition-key templates of " + detail::quoted(type_a) + " and " +
            detail::quoted(type_b) +
            " in it differ in shape, so their items never share a partition";
      break;
    case IndexCollectionFault::identical_sort_keys:
      why = "the sort-key templates of " + detail::quoted(type_a) + " and " +
            detail::quoted(type_b) + " in it have the same shape, so their keys would collide";
      break;
    case IndexCollectionFault::sort_keys_may_collide:
      why = "the sort-key templates of " + detail::quoted(type_a) + " and " +
            detail::quoted(type_b) + " in it can produce the same key";
      break;
    case IndexCollectionFault::none:
      break;
  }
  throw ValidationError("pksk table " + detail::quoted(table) +
                        ", item collection query of index " + detail::quoted(index) + ": " + why);
}

}  // namespace pksk::detail
