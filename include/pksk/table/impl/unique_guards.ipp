// SPDX-License-Identifier: BSL-1.0
#pragma once
// detail/unique_guards.hpp's functions: inline in a header-only build, compiled once by
// <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "../../backend/backend.hpp"
#include "../../codec/attribute_value.hpp"
#include "../../codec/attribute_value_json.hpp"
#include "../../codec/attribute_value_read.hpp"
#include "../../detail/quoted.hpp"
#include "../../error.hpp"
#include "../detail/entity_writes.hpp"
#include "../detail/messages.hpp"
#include "../detail/unique_guards.hpp"

namespace pksk::detail {

namespace guards {
inline backend::Condition equals(std::string_view name, AttributeValue value) {
  return {backend::Condition::Op::eq,
          {path_operand(top_level(name)), value_operand(std::move(value))},
          {}};
}
inline backend::Condition both(backend::Condition a, backend::Condition b) {
  backend::Condition all{backend::Condition::Op::all, {}, {}};
  all.children.push_back(std::move(a));
  all.children.push_back(std::move(b));
  return all;
}
inline backend::Condition either(backend::Condition a, backend::Condition b) {
  backend::Condition any{backend::Condition::Op::any, {}, {}};
  any.children.push_back(std::move(a));
  any.children.push_back(std::move(b));
  return any;
}
}  // namespace guards

PKSK_DECL std::size_t guard_body(const backend::TableSpec& spec, std::string_view key,
                                 const GuardOwner& owner, BodyFormat format, std::string& out) {
  AttributeValue item = AttributeValue::empty_map();
  item.assign(guard_owner_pk, AttributeValue::from_string(owner.pk));
  item.assign(guard_owner_sk, AttributeValue::from_string(owner.sk));
  item.assign(guard_member, AttributeValue::from_string(owner.member));
  item.assign(guard_value, owner.value);
  if (owner.key_text) item.assign(guard_key_text, AttributeValue::from_bool(true));
  out.clear();
  if (format == BodyFormat::json) {
    append_plain_json(out, item);
  } else {
    append_item_attribute_value_json(out, item);
  }
  return spec.pk_attribute.size() + spec.sk_attribute.size() + 2 * key.size() +
         spec.type_attribute.size() + unique_guard_type.size() + attributes_size(item);
}

PKSK_DECL std::optional<GuardOwner> parse_guard(std::string_view text, BodyFormat format) {
  const AttributeValue item = parse_body(text, format);
  const AttributeValue* pk = item.find(guard_owner_pk);
  const AttributeValue* sk = item.find(guard_owner_sk);
  const AttributeValue* member = item.find(guard_member);
  const AttributeValue* value = item.find(guard_value);
  if (pk == nullptr || sk == nullptr || member == nullptr || value == nullptr) return std::nullopt;
  return GuardOwner{pk->text, sk->text, member->text, *value, item.find(guard_key_text) != nullptr};
}

PKSK_DECL backend::Condition guard_owned_by(std::string_view pk, std::string_view sk) {
  return guards::both(guards::equals(guard_owner_pk, AttributeValue::from_string(std::string(pk))),
                      guards::equals(guard_owner_sk, AttributeValue::from_string(std::string(sk))));
}

PKSK_DECL backend::Condition guard_free_or_owned_by(const backend::TableSpec& spec,
                                                    std::string_view pk, std::string_view sk) {
  return guards::either(
      {backend::Condition::Op::not_exists, {path_operand(top_level(spec.pk_attribute))}, {}},
      guard_owned_by(pk, sk));
}

PKSK_DECL backend::Condition guard_releasable_by(std::string_view pk, std::string_view sk) {
  return guards::either(
      {backend::Condition::Op::not_exists, {path_operand(top_level(guard_owner_pk))}, {}},
      guard_owned_by(pk, sk));
}

PKSK_DECL OwnerRead read_owner(const backend::TableSpec& spec, std::optional<std::string_view> text,
                               BodyFormat format, const GuardOwner& owner, std::int64_t now) {
  OwnerRead read;
  if (!text) return read;
  read.present = true;
  const AttributeValue item = parse_body(*text, format);
  if (const AttributeValue* value = item.find(owner.member)) read.value = *value;
  if (!spec.ttl_attribute.empty()) {
    const AttributeValue* ttl = item.find(spec.ttl_attribute);
    read.expired = ttl != nullptr && ttl->kind == AttributeValue::Kind::number &&
                   std::stod(ttl->text) <= static_cast<double>(now);
  }
  return read;
}

PKSK_DECL backend::Condition owner_as_read(const backend::TableSpec& spec, const GuardOwner& owner,
                                           const OwnerRead& read, std::int64_t now) {
  using Op = backend::Condition::Op;
  backend::Condition absent{Op::not_exists, {path_operand(top_level(spec.pk_attribute))}, {}};
  if (!read.present && spec.ttl_attribute.empty()) return absent;
  backend::Condition expired{Op::le,
                             {path_operand(top_level(spec.ttl_attribute)),
                              value_operand(AttributeValue::from_number(std::to_string(now)))},
                             {}};
  // A read takes an expired item as absent.
  if (!read.present) return guards::either(std::move(absent), std::move(expired));
  if (read.expired) return expired;  // whatever it holds, it holds nothing while expired
  backend::Condition same =
      read.value ? guards::equals(owner.member, *read.value)
                 : backend::Condition{Op::not_exists, {path_operand(top_level(owner.member))}, {}};
  if (spec.ttl_attribute.empty()) return same;
  return guards::either(std::move(same), std::move(expired));
}

PKSK_DECL void stored_attributes(std::string_view text, BodyFormat format,
                                 std::span<const std::string_view> names,
                                 std::span<std::optional<AttributeValue>> out) {
  const AttributeValue item = parse_body(text, format);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const AttributeValue* value = item.find(names[i]);
    out[i] = value == nullptr ? std::nullopt : std::optional<AttributeValue>(*value);
  }
}

PKSK_DECL backend::Condition unique_snapshot(const backend::TableSpec& spec, bool present,
                                             std::span<const std::string_view> names,
                                             std::span<const std::optional<AttributeValue>> values,
                                             std::int64_t now) {
  using Op = backend::Condition::Op;
  if (!present) {
    backend::Condition absent{Op::not_exists, {path_operand(top_level(spec.pk_attribute))}, {}};
    if (spec.ttl_attribute.empty()) return absent;
    return guards::either(std::move(absent),
                          {Op::le,
                           {path_operand(top_level(spec.ttl_attribute)),
                            value_operand(AttributeValue::from_number(std::to_string(now)))},
                           {}});
  }
  backend::Condition all{Op::all, {}, {}};
  for (std::size_t u = 0; u < values.size(); ++u) {
    if (!values[u]) {
      all.children.push_back({Op::not_exists, {path_operand(top_level(names[u]))}, {}});
    } else {
      all.children.push_back(guards::equals(names[u], *values[u]));
    }
  }
  return all;
}

PKSK_DECL void unique_values_after_update(std::string_view table, std::string_view type,
                                          std::span<const std::string_view> names,
                                          std::span<const std::string_view> members,
                                          std::span<const backend::UpdateAction> actions,
                                          std::span<std::optional<AttributeValue>> values) {
  for (const backend::UpdateAction& action : actions) {
    for (std::size_t u = 0; u < names.size(); ++u) {
      if (action.path.steps.front().name != names[u]) continue;
      if (action.path.steps.size() == 1 && action.kind == backend::UpdateAction::Kind::set) {
        values[u] = action.value;
      } else if (action.path.steps.size() == 1 &&
                 action.kind == backend::UpdateAction::Kind::remove) {
        values[u].reset();
      } else {
        throw ValidationError(table_context(table, "update", type) + "the unique member " +
                              quoted(members[u]) + " is changed by set or remove only");
      }
    }
  }
}

}  // namespace pksk::detail
