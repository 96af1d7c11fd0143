// SPDX-License-Identifier: BSL-1.0
#pragma once
// The guard items of unique members (key/unique.hpp), as written and read: each guard names
// its owner (the key of the item that holds the value), the member and the value, so that a
// guard whose owner no longer holds its value (the owner erased by another tool, expired, or
// changed without pksk) can be told from one still held, claimed again by another item, and
// swept. A guard written before guards named their owners (a body of `{}`) names none, and is
// taken as held.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "../../backend/backend.hpp"
#include "../../codec/attribute_value.hpp"
#include "../../codec/body_format.hpp"
#include "../../detail/config.hpp"
#include "../../key/unique.hpp"

namespace pksk::detail {

inline constexpr std::string_view guard_owner_pk = "pksk:owner_pk";
inline constexpr std::string_view guard_owner_sk = "pksk:owner_sk";
inline constexpr std::string_view guard_member = "pksk:member";
inline constexpr std::string_view guard_value = "pksk:value";
// Present (true) on the guard of a member with a key-text function (Entity<T>::unique_values).
inline constexpr std::string_view guard_key_text = "pksk:key_text";

// Who holds a unique value: the owner's key, and the member (its stored name) and value it holds.
// `key_text`: the member's values go through a key-text function, so that another value of
// the owner may hold the same guard.
struct GuardOwner {
  std::string pk{};
  std::string sk{};
  std::string member{};
  AttributeValue value{};
  bool key_text = false;
};

// A guard's owner as read: whether it is there (and not expired at the time judged), and the
// value of the guard's member it has.
struct OwnerRead {
  bool present = false;
  bool expired = false;
  std::optional<AttributeValue> value{};
};

// A guard's body naming its owner, into `out`; returns the guard's size by DynamoDB's measure.
PKSK_DECL std::size_t guard_body(const backend::TableSpec& spec, std::string_view key,
                                 const GuardOwner& owner, BodyFormat format, std::string& out);

// The owner a guard's body names, or nullopt for a guard that names none.
PKSK_DECL std::optional<GuardOwner> parse_guard(std::string_view text, BodyFormat format);

// A claim of a guard: none is there, or it is the claimer's own (an item written again after it
// was deleted without pksk).
PKSK_DECL backend::Condition guard_free_or_owned_by(const backend::TableSpec& spec,
                                                    std::string_view pk, std::string_view sk);
// The guard names this owner (a takeover from a stale owner; a sweep).
PKSK_DECL backend::Condition guard_owned_by(std::string_view pk, std::string_view sk);
// A release: the guard is the releaser's own, or names no owner (older guards).
PKSK_DECL backend::Condition guard_releasable_by(std::string_view pk, std::string_view sk);

// The owner's item as read (`text`, or nullopt for none): its value of the guard's member, and
// whether it expired at `now` (epoch seconds; when the table has a ttl attribute).
PKSK_DECL OwnerRead read_owner(const backend::TableSpec& spec, std::optional<std::string_view> text,
                               BodyFormat format, const GuardOwner& owner, std::int64_t now);
// On the owner's item: it is still as `read` found it letting the guard go (absent, without the
// member, with that other value, or expired at `now`), so that the judgement still holds when a
// guard is taken over or swept. Judged on the value as read rather than as "not the guard's
// value", since a member with a key-text function holds its guard with other texts too.
PKSK_DECL backend::Condition owner_as_read(const backend::TableSpec& spec, const GuardOwner& owner,
                                           const OwnerRead& read, std::int64_t now);

// The top-level attributes `names` of a stored item, each nullopt where absent: the unique
// values of an item read without decoding it (which may no longer decode).
PKSK_DECL void stored_attributes(std::string_view text, BodyFormat format,
                                 std::span<const std::string_view> names,
                                 std::span<std::optional<AttributeValue>> out);

// That the stored item is as it was read: absent (or expired, which a read takes as absent),
// or with these unique values (`names` their stored names).
PKSK_DECL backend::Condition unique_snapshot(const backend::TableSpec& spec, bool present,
                                             std::span<const std::string_view> names,
                                             std::span<const std::optional<AttributeValue>> values,
                                             std::int64_t now);

// The unique values after an update's actions, from those stored: a set's value, none after a
// remove. Any other action on a unique member is a ValidationError naming it (`members`).
PKSK_DECL void unique_values_after_update(std::string_view table, std::string_view type,
                                          std::span<const std::string_view> names,
                                          std::span<const std::string_view> members,
                                          std::span<const backend::UpdateAction> actions,
                                          std::span<std::optional<AttributeValue>> values);

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "../impl/unique_guards.ipp"
#endif
