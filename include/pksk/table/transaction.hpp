// SPDX-License-Identifier: BSL-1.0
#pragma once
// Transaction<Backend>: DynamoDB's TransactWriteItems over one table. Actions (put, update,
// erase, check) are collected with their conditions and sent at commit(): all or nothing, at
// most 100 actions, no two on one item (else ValidationError, nothing written); a condition that
// fails cancels the whole with TransactionCanceled, one reason per action in the order added.
//
// Table::transact() makes one, so table.hpp includes this header; this one reaches the Table
// only inside its templates (instantiated where Table is complete) and includes fwd.hpp, not
// table.hpp.
//
// Over 600 lines on purpose: the commit of writes of entities with unique members (GuardedWrite,
// commit_guarded, plan_guards) plans its guards on the actions' own private state and retries
// over it; in a header of its own it could reach that state only as a friend. The reference's
// Throws and Exception safety lines (docs/reference.md) add the rest.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "../backend/backend.hpp"
#include "../backend/ttl.hpp"
#include "../codec/attribute_value.hpp"
#include "../detail/diagnose.hpp"
#include "../detail/thread_lease.hpp"
#include "../error.hpp"
#include "../expr/attr.hpp"
#include "../expr/expression.hpp"
#include "../extensions/extension.hpp"
#include "../key/entity.hpp"
#include "../key/unique.hpp"
#include "detail/chunks.hpp"
#include "detail/entity_writes.hpp"
#include "detail/item_encoding.hpp"
#include "detail/messages.hpp"
#include "detail/unique_guards.hpp"
#include "detail/unique_writes.hpp"
#include "detail/versioning.hpp"
#include "detail/write_conditions.hpp"
#include "fwd.hpp"

namespace pksk {

namespace diagnostics {
// Transaction::put, update or erase of a chunked entity (Entity<T>::chunked): a transaction
// holds items of at most 400 KB and cannot remove the chunks of the version it replaces.
template <class Entity>
struct a_transaction_cannot_write_a_chunked_entity;
}  // namespace diagnostics

// Up to 100 writes and checks on distinct items, all applied or none (DynamoDB's
// TransactWriteItems; on SQLite, one transaction): table.transact().put(a).erase(b).commit(). The
// conditions are evaluated on the items as they were before any of the writes.
template <Backend B>
class Transaction {
 public:
  // The actions are kept per thread between transactions (see add()): a Transaction belongs to
  // the thread that made it.
  // Throws: nothing.
  // Exception safety: nothrow.
  explicit Transaction(Table<B>& table) : table_(&table) {}
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // As Table::put. A versioned entity's non-const item gets its new version written back when
  // the transaction commits, so the caller's next write of it is not stale; the item must then
  // outlive commit().
  // Throws: KeyError if a key member's value cannot be part of a key, EncodeError if a member
  // cannot be written, ItemTooLarge past 400 KB, ValidationError for a value the transaction cannot
  // hold (a blob member over its threshold).
  // Exception safety: basic: on an exception the action may be left half-added; discard the
  // Transaction rather than commit it. Nothing is written before commit().
  template <class Item, class... Conditions>
    requires EntityType<std::remove_cvref_t<Item>>
  Transaction& put(Item&& item, const Conditions&... conditions) {
    static_assert(!(detail::is_return_part_v<std::remove_cvref_t<Conditions>> || ...),
                  "pksk: return_old and return_stored_on_failure ask a single write for an item; "
                  "a transaction's action cannot (TransactionCanceled gives the reasons)");
    static_assert(
        detail::checked_v<detail::Diagnose<
            !detail::chunked_v<std::remove_cvref_t<Item>>,
            diagnostics::a_transaction_cannot_write_a_chunked_entity<std::remove_cvref_t<Item>>>>);
    using T = std::remove_cvref_t<Item>;
    if constexpr (detail::transforms_put_v<T>) {
      // The item as the extensions make it is what is written, and lives until commit(), which
      // hands it back to a non-const argument.
      auto written = std::make_shared<T>(std::as_const(item));
      detail::extensions_t<T>::before_put(*written,
                                          table_->write_context(WriteOperation::transaction_put));
      put_action(*written, conditions...);
      T* target = nullptr;
      if constexpr (detail::writes_back_v<Item>) target = &item;
      written_back_.push_back([written, target] {
        if (target != nullptr) *target = *written;
      });
      return *this;
    } else {
      return put_action(std::forward<Item>(item), conditions...);
    }
  }

  // As Table::update, in the transaction: the actions and conditions on the item with the key of
  // `key`; a versioned entity is checked and incremented as Table::update does.
  // Throws: KeyError if a key member's value cannot be part of a key, EncodeError if a member
  // cannot be written, ItemTooLarge past 400 KB, ValidationError for a value the transaction cannot
  // hold (a blob member over its threshold).
  // Exception safety: basic: on an exception the action may be left half-added; discard the
  // Transaction rather than commit it. Nothing is written before commit().
  template <EntityType T, class... Parts>
  Transaction& update(const T& key, const Parts&... parts) {
    static_assert(!(detail::is_return_part_v<std::remove_cvref_t<Parts>> || ...),
                  "pksk: return_old and return_stored_on_failure ask a single write for an item; "
                  "a transaction's action cannot (TransactionCanceled gives the reasons)");
    static_assert(
        detail::checked_v<detail::Diagnose<
            !detail::chunked_v<T>, diagnostics::a_transaction_cannot_write_a_chunked_entity<T>>>);
    if constexpr (detail::adds_update_parts_v<T>) {
      return std::apply(
          [&](const auto&... added) -> Transaction& {
            return update_action(key, parts..., added...);
          },
          detail::extensions_t<T>::update_parts(
              key, table_->write_context(WriteOperation::transaction_update)));
    } else {
      return update_action(key, parts...);
    }
  }

  // As Table::erase: a versioned entity's item only at the version `key` carries.
  // Throws: KeyError if a key member's value cannot be part of a key.
  // Exception safety: basic, as put: an action may be left half-added. Nothing is written before
  // commit().
  template <EntityType T, class... Conditions>
  Transaction& erase(const T& key, const Conditions&... conditions) {
    static_assert(!(detail::is_return_part_v<std::remove_cvref_t<Conditions>> || ...),
                  "pksk: return_old and return_stored_on_failure ask a single write for an item; "
                  "a transaction's action cannot (TransactionCanceled gives the reasons)");
    static_assert(
        detail::checked_v<detail::Diagnose<
            !detail::chunked_v<T>, diagnostics::a_transaction_cannot_write_a_chunked_entity<T>>>);
    return erase_action(key, conditions...);
  }

  // As Table::upsert: every declared member written, other attributes kept.
  // Throws: KeyError if a key member's value cannot be part of a key, EncodeError if a member
  // cannot be written, ItemTooLarge past 400 KB, ValidationError for a value the transaction cannot
  // hold (a blob member over its threshold).
  // Exception safety: basic: on an exception the action may be left half-added; discard the
  // Transaction rather than commit it. Nothing is written before commit().
  template <EntityType T, class... Conditions>
  Transaction& upsert(const T& item, const Conditions&... conditions) {
    static_assert((detail::is_condition_part_v<std::remove_cvref_t<Conditions>> && ...),
                  "pksk: upsert takes conditions after the item, not update actions");
    static_assert(
        detail::checked_v<detail::Diagnose<
            !detail::chunked_v<T>, diagnostics::a_transaction_cannot_write_a_chunked_entity<T>>>);
    if constexpr (detail::transforms_put_v<T>) {
      // The whole item is written, as by put: extensions change it as they change a put's.
      T written(item);
      detail::extensions_t<T>::before_put(written,
                                          table_->write_context(WriteOperation::transaction_put));
      return update_action(written, detail::EveryMember<T>{written}, conditions...);
    } else {
      return update_action(item, detail::EveryMember<T>{item}, conditions...);
    }
  }

  // A condition on an item the transaction does not write: check(Customer{.id = "1"},
  // pksk::exists).
  // Throws: KeyError if a key member's value cannot be part of a key.
  // Exception safety: basic, as put: an action may be left half-added. Nothing is written before
  // commit().
  template <EntityType T, class Condition1, class... Conditions>
  Transaction& check(const T& key, const Condition1& condition, const Conditions&... conditions) {
    Action& a = add(Kind::check, type_name_v<T>);
    detail::ConditionParts parts;
    detail::add_condition<T>(table_->spec_, parts, condition);
    (detail::add_condition<T>(table_->spec_, parts, conditions), ...);
    a.condition = std::move(parts).combined();
    detail::format_keys(table_->spec_, key, a.pk, a.sk, "transaction check");
    return *this;
  }

  // The same action on a type that is not an entity: one error saying why, as Table's.
  // Throws: nothing (it does not compile).
  // Exception safety: nothrow.
  template <class Item, class... Conditions>
    requires(!EntityType<std::remove_cvref_t<Item>>)
  Transaction& put(Item&&, const Conditions&...) {
    static_assert(detail::report_not_an_entity<std::remove_cvref_t<Item>>() || true);
    return *this;
  }
  // The same action on a type that is not an entity: one error saying why, as Table's.
  // Throws: nothing (it does not compile).
  // Exception safety: nothrow.
  template <class T, class... Parts>
    requires(!EntityType<T>)
  Transaction& update(const T&, const Parts&...) {
    static_assert(detail::report_not_an_entity<T>() || true);
    return *this;
  }
  // The same action on a type that is not an entity: one error saying why, as Table's.
  // Throws: nothing (it does not compile).
  // Exception safety: nothrow.
  template <class T, class... Conditions>
    requires(!EntityType<T>)
  Transaction& erase(const T&, const Conditions&...) {
    static_assert(detail::report_not_an_entity<T>() || true);
    return *this;
  }
  // The same action on a type that is not an entity: one error saying why, as Table's.
  // Throws: nothing (it does not compile).
  // Exception safety: nothrow.
  template <class T, class... Conditions>
    requires(!EntityType<T>)
  Transaction& upsert(const T&, const Conditions&...) {
    static_assert(detail::report_not_an_entity<T>() || true);
    return *this;
  }
  // The same action on a type that is not an entity: one error saying why, as Table's.
  // Throws: nothing (it does not compile).
  // Exception safety: nothrow.
  template <class T, class... Conditions>
    requires(!EntityType<T>)
  Transaction& check(const T&, const Conditions&...) {
    static_assert(detail::report_not_an_entity<T>() || true);
    return *this;
  }

  // The number of actions added so far.
  // Throws: nothing.
  // Exception safety: nothrow.
  std::size_t size() const noexcept { return used_; }

  // Applies every action, or none. A versioned entity's non-const items get their new version, and
  // extensions' items are handed back, once the transaction is written.
  // Throws: TransactionCanceled if any action's condition was false, a unique value it would claim
  // is held by another item (the message names the member and the value), or the store canceled the
  // transaction (reasons() says which action and why), ValidationError for no action, more than 100
  // (guards of unique values included), or two on one item, BackendError on a backend failure.
  // Exception safety: strong: nothing is written and no argument is changed (unless the store's
  // answer was lost, errc::unknown_outcome: see the main page).
  void commit() {
    if (guarded_.empty()) {
      check_size(used_);
      send_user_reasons(used_);
    } else {
      commit_guarded();
    }
    used_ = 0;
    for (const VersionBump& bump : version_bumps_) bump.increment(bump.item);
    version_bumps_.clear();
    for (const std::function<void()>& write_back : written_back_) write_back();
    written_back_.clear();
  }

 private:
  friend class Table<B>;

  // A write of an entity with unique members (guard<T>), and what commit() worked out for it.
  struct GuardedWrite {
    std::size_t action = 0;
    std::string_view type;
    std::span<const std::string_view> names;    // the unique members' stored names
    std::span<const std::string_view> members;  // and their names in the entity
    bool (*reads_as)(const backend::ItemView&) = nullptr;
    // Per member: the text a value keys its guard by (nullopt: it claims none), and whether the
    // member has a key-text function of its own.
    std::span<std::optional<std::string> (*const)(const AttributeValue&)> key_texts;
    std::span<const bool> has_key_text;
    std::optional<std::vector<std::optional<AttributeValue>>> fixed_after;  // nullopt: update
    std::optional<backend::Condition> condition;  // the caller's, before the snapshot joined it
    // Per attempt: the stored item, the values after the write, where the guards' actions went.
    bool present = false;
    std::vector<std::optional<AttributeValue>> before, after;
    std::vector<std::optional<std::string>> before_keys, after_keys;
    std::vector<std::size_t> claimed, checked, released;
    // Across attempts: a former owner to take a guard over from, as it was read; an old value's
    // guard that another item holds now.
    std::vector<std::optional<detail::GuardOwner>> stale;
    std::vector<detail::OwnerRead> stale_read;
    std::vector<char> not_ours;

    std::optional<std::string> key_text(std::size_t u,
                                        const std::optional<AttributeValue>& value) const {
      if (!value) return std::nullopt;
      return key_texts[u](*value);
    }
  };
  // What the transaction found taken: a value another item holds (for Table's single writes).
  struct Taken {
    std::string_view type;
    std::string_view member;
    std::string value;
  };

  template <class Item, class... Conditions>
  Transaction& put_action(Item&& item, const Conditions&... conditions) {
    using T = std::remove_cvref_t<Item>;
    Action& a = add(Kind::put, type_name_v<T>);
    a.condition = detail::write_condition<T>(table_->spec_, item, conditions...);
    a.stored_on_failure = detail::returns_stored_v<Conditions...>;  // Table's single writes
    if constexpr (VersionedEntity<T>) {
      a.version = detail::versioned_write(item, sizeof...(Conditions) != 0);
      if constexpr (!std::is_const_v<std::remove_reference_t<Item>>) {
        // Written back after commit: the transaction may still be canceled.
        version_bumps_.push_back({&item, [](void* written) {
                                    ++get_field<detail::version_index_v<T>>(
                                        *static_cast<T*>(written));
                                  }});
      }
    }
    // Bodies of one transaction are alike: each starts with room for the largest so far,
    // instead of growing by doublings from empty.
    a.body.reserve(body_capacity_);
    a.size = detail::encode_versioned(table_->body_format(), table_->spec_, item, a.pk, a.sk,
                                      a.body, step("put"));
    body_capacity_ = std::max(body_capacity_, a.body.size());
    if constexpr (detail::UniqueEntity<T>) guard<T>(detail::unique_values(item));
    return *this;
  }

  template <EntityType T, class... Parts>
  Transaction& update_action(const T& key, const Parts&... parts) {
    Action& a = add(Kind::update, type_name_v<T>);
    a.stored_on_failure = detail::returns_stored_v<Parts...>;  // Table's single writes
    std::optional<detail::UnsetIndexMember> unset;
    a.condition = detail::update_parts(table_->spec_, key, a.actions, unset, parts...);
    if constexpr (VersionedEntity<T>) {
      a.version = detail::versioned_write(
          key, (detail::is_condition_part_v<std::remove_cvref_t<Parts>> || ...));
    }
    detail::format_keys(table_->spec_, key, a.pk, a.sk, step("update"));
    detail::add_key_member_actions(key, a.actions);
    if constexpr (detail::UniqueEntity<T>) guard<T>(std::nullopt);
    return *this;
  }

  template <EntityType T, class... Conditions>
  Transaction& erase_action(const T& key, const Conditions&... conditions) {
    Action& a = add(Kind::erase, type_name_v<T>);
    a.condition = detail::write_condition(table_->spec_, key, conditions...);
    a.stored_on_failure = detail::returns_stored_v<Conditions...>;  // Table's single writes
    if constexpr (VersionedEntity<T>) {
      a.version = detail::versioned_write(key, sizeof...(Conditions) != 0);
    }
    detail::format_keys(table_->spec_, key, a.pk, a.sk, step("erase"));
    if constexpr (detail::UniqueEntity<T>) guard<T>(std::vector<std::optional<AttributeValue>>{});
    return *this;
  }

  // The last action writes an entity with unique members: commit() works out its guards.
  // `after`: a put's unique values, an erase's (none); nullopt for an update, whose values
  // follow from the stored item's and its actions.
  template <detail::UniqueEntity T>
  void guard(std::optional<std::vector<std::optional<AttributeValue>>> after) {
    GuardedWrite& g = guarded_.emplace_back();
    g.action = used_ - 1;
    g.type = type_name_v<T>;
    g.names = detail::unique_stored_names_v<T>;
    g.members = detail::unique_member_names_v<T>;
    g.reads_as = [](const backend::ItemView& row) { return detail::stored_as<T>(row); };
    g.key_texts = detail::unique_key_texts_v<T>;
    g.has_key_text = detail::unique_has_key_text_v<T>;
    g.fixed_after = std::move(after);
    const std::size_t n = g.names.size();
    g.stale.resize(n);
    g.stale_read.resize(n);
    g.not_ours.assign(n, 0);
  }

  // What an action's errors name: the transaction's step, or the caller's own call when the
  // transaction is a single write of Table's (single_write_: "put", "update", ...).
  std::string step(std::string_view operation) const {
    if (!single_write_.empty()) return std::string(single_write_);
    return "transaction " + std::string(operation);
  }

  std::string where() const {
    return "pksk table " + detail::quoted(table_->name()) + ", transaction: ";
  }
  void check_size(std::size_t actions) const {
    if (actions == 0 || actions > backend::max_transaction_actions) {
      throw ValidationError(
          where() + "a transaction holds 1 to " + std::to_string(backend::max_transaction_actions) +
          " actions, not " + std::to_string(actions) +
          (guarded_.empty() ? std::string()
                            : std::string(" (the unique values' guards included)")));
    }
  }

  // Sends the used_ actions; a cancellation is rethrown with the reasons of the first `user`
  // (the caller's actions, not the guards'), and what it says of stale versions.
  void send_user_reasons(std::size_t user) {
    try {
      send();
    } catch (const TransactionCanceled& canceled) {
      rethrow_for_user(canceled, user_reasons(canceled, user));
    }
  }
  std::vector<CancellationReason> user_reasons(const TransactionCanceled& canceled,
                                               std::size_t user) const {
    const std::vector<CancellationReason>& all = canceled.reasons();
    return {all.begin(), all.begin() + static_cast<std::ptrdiff_t>(std::min(user, all.size()))};
  }
  [[noreturn]] void rethrow_for_user(const TransactionCanceled& canceled,
                                     std::vector<CancellationReason> reasons,
                                     std::string message = {}) const {
    if (message.empty()) message = canceled.what();
    std::vector<std::shared_ptr<const RawItem>> stored = canceled.stored_items();
    if (stored.size() > reasons.size()) stored.resize(reasons.size());
    const TransactionCanceled user(message, std::move(reasons), canceled.native(),
                                   std::move(stored));
    const std::span<const Action> done(actions_->data(), user.reasons().size());
    if (std::none_of(done.begin(), done.end(), [](const Action& a) { return a.version; })) {
      throw user;
    }
    std::vector<std::optional<detail::VersionedWrite>> versions;
    for (const Action& a : done) versions.push_back(a.version);
    detail::throw_canceled_versions(user, versions);
  }

  // A commit with writes of entities with unique members: each such item's stored unique values
  // are read, its action conditioned on them, and the guards of the values that change claimed
  // and released, in the same transaction. A claim that finds its value held by an item that
  // no longer holds it (erased or changed by another tool, expired) takes the guard over next
  // time; a conflict, or a stored item that changed since it was read, is tried again.
  void commit_guarded() {
    constexpr int attempts = 8;
    const std::size_t user = used_;
    for (GuardedWrite& g : guarded_) g.condition = (*actions_)[g.action].condition;
    for (int attempt = 1;; ++attempt) {
      used_ = user;
      const std::int64_t now = backend::ttl_now(table_->spec_);
      for (GuardedWrite& g : guarded_) plan_guards(g, now);
      check_size(used_);
      try {
        send();
        return;
      } catch (const TransactionCanceled& canceled) {
        const std::vector<CancellationReason>& reasons = canceled.reasons();
        const auto failed_at = [&](std::size_t i) {
          return i < reasons.size() && reasons[i] == CancellationReason::condition_failed;
        };
        bool again = false;
        for (GuardedWrite& g : guarded_) {
          for (std::size_t u = 0; u < g.names.size(); ++u) {
            if (failed_at(g.claimed[u])) {
              // The value's guard is held: by an item that holds the value (taken), or by one
              // that let it go, from which it is taken over next time.
              // The holder holds it while its value has the same key text (another case of an
              // email, for a member that lower-cases).
              std::optional<detail::GuardOwner> holder;
              detail::OwnerRead read;
              const std::string key =
                  detail::unique_guard_key(g.type, g.names[u], *g.after_keys[u]);
              const bool there = table_->read_guard(key, holder);
              if (there && holder) read = table_->read_owner(*holder, now);
              if (there && (!holder || (read.present && !read.expired &&
                                        g.key_text(u, read.value) == g.after_keys[u]))) {
                std::vector<CancellationReason> mine = user_reasons(canceled, user);
                mine[g.action] = CancellationReason::condition_failed;
                taken_ = Taken{g.type, g.members[u], g.after[u]->text};
                rethrow_for_user(canceled, std::move(mine),
                                 where() + "action " + std::to_string(g.action) + ", a write of " +
                                     std::string(g.type) + ": the unique member " +
                                     detail::quoted(g.members[u]) + " has the value " +
                                     detail::quoted(g.after[u]->text) +
                                     ", which another item holds");
              }
              g.stale[u] = std::move(holder);
              g.stale_read[u] = std::move(read);
              again = true;
            }
            if (failed_at(g.checked[u])) {  // the former owner holds the value again
              g.stale[u].reset();
              again = true;
            }
            if (failed_at(g.released[u])) {  // another item holds the old value now
              g.not_ours[u] = 1;
              again = true;
            }
          }
        }
        if (attempt == attempts) rethrow_for_user(canceled, user_reasons(canceled, user));
        if (again || canceled.retryable()) continue;
        // An action's condition failed: the caller's, or a guarded item's stored values changed
        // since they were read, and it is tried again.
        bool changed = false;
        for (GuardedWrite& g : guarded_) {
          if (!failed_at(g.action)) continue;
          const bool present = g.present;
          const std::vector<std::optional<AttributeValue>> before = g.before;
          read_stored(g);
          changed = changed || g.present != present || g.before != before;
        }
        if (!changed) rethrow_for_user(canceled, user_reasons(canceled, user));
      }
    }
  }

  // The stored unique values of g's item, read from its attributes, not decoded: an item that
  // no longer decodes (an enumerator removed, a member edited by another tool) can still be
  // replaced or erased.
  void read_stored(GuardedWrite& g) {
    const Action& a = (*actions_)[g.action];
    g.before.assign(g.names.size(), std::nullopt);
    g.present = table_->backend().get(
        table_->handle_, backend::ItemKey{a.pk, a.sk}, [&](const backend::ItemView& row) {
          if (!g.reads_as(row)) {
            detail::throw_wrong_type(table_->name(), row, g.type,
                                     single_write_.empty() ? "transaction" : single_write_);
          }
          detail::stored_attributes(detail::item_text(row.live, row.body), table_->format_now(),
                                    g.names, g.before);
        });
  }

  // One attempt's guards of `g`: its action's condition, and the guards' actions, added last.
  void plan_guards(GuardedWrite& g, std::int64_t now) {
    read_stored(g);
    if (g.fixed_after) {
      g.after = *g.fixed_after;
      g.after.resize(g.names.size());
    } else {
      g.after = g.before;
      detail::unique_values_after_update(table_->name(), g.type, g.names, g.members,
                                         (*actions_)[g.action].actions, g.after);
    }
    backend::Condition snapshot =
        detail::unique_snapshot(table_->spec_, g.present, g.names, g.before, now);
    std::optional<backend::Condition>& condition = (*actions_)[g.action].condition;
    if (g.condition) {
      backend::Condition both{backend::Condition::Op::all, {}, {}};
      both.children.push_back(*g.condition);
      both.children.push_back(std::move(snapshot));
      condition = std::move(both);
    } else {
      condition = std::move(snapshot);
    }
    const std::size_t n = g.names.size();
    constexpr std::size_t none = backend::max_transaction_actions + 1;
    g.claimed.assign(n, none);
    g.checked.assign(n, none);
    g.released.assign(n, none);
    const std::string pk = (*actions_)[g.action].pk;
    const std::string sk = (*actions_)[g.action].sk;
    g.before_keys.resize(n);
    g.after_keys.resize(n);
    for (std::size_t u = 0; u < n; ++u) {
      g.before_keys[u] = g.key_text(u, g.before[u]);
      g.after_keys[u] = g.key_text(u, g.after[u]);
      // A value with the key text of the one before (another case of it) keeps its guard, which
      // is written again to name the value now held: only the guards of key texts move.
      const bool same_key = g.before_keys[u] == g.after_keys[u];
      if (same_key && (!g.after_keys[u] || g.after[u] == g.before[u])) continue;
      if (g.after_keys[u]) {
        g.claimed[u] = used_;
        claim_guard(
            detail::unique_guard_key(g.type, g.names[u], *g.after_keys[u]),
            detail::GuardOwner{pk, sk, std::string(g.names[u]), *g.after[u], g.has_key_text[u]},
            g.stale[u] ? &*g.stale[u] : nullptr);
        if (g.stale[u]) {
          g.checked[u] = used_;
          check_item(g.stale[u]->pk, g.stale[u]->sk,
                     detail::owner_as_read(table_->spec_, *g.stale[u], g.stale_read[u], now));
        }
      }
      if (!same_key && g.before_keys[u] && !g.not_ours[u]) {
        g.released[u] = used_;
        release_guard(detail::unique_guard_key(g.type, g.names[u], *g.before_keys[u]), pk, sk);
      }
    }
  }

  // Sends the used_ actions as one transaction.
  void send() {
    std::vector<backend::WriteRequest> writes;
    writes.reserve(used_);
    // Keys in strictly increasing order are distinct: one comparison a key then. In any other
    // order every pair is compared, so that the error names the first pair, as it always did.
    const std::span<const Action> actions(actions_->data(), used_);
    bool increasing = true;
    for (std::size_t i = 1; i < actions.size() && increasing; ++i) {
      const int pk = actions[i - 1].pk.compare(actions[i].pk);
      increasing = pk < 0 || (pk == 0 && actions[i - 1].sk < actions[i].sk);
    }
    for (const Action& a : actions) {
      const backend::ItemKey key{a.pk, a.sk};
      for (std::size_t i = 0; !increasing && i < writes.size(); ++i) {
        if (key_of(writes[i]) == key) {
          throw ValidationError(where() + "actions " + std::to_string(i) + " and " +
                                std::to_string(writes.size()) + " are on the same item " +
                                detail::key_text(key) + "; DynamoDB allows one action per item");
        }
      }
      const backend::Condition* condition = a.condition ? &*a.condition : nullptr;
      const backend::WriteReturns returns{nullptr, a.stored_on_failure};
      switch (a.kind) {
        case Kind::put:
          writes.emplace_back(backend::PutRequest{
              backend::ItemView{a.pk, a.sk, a.type, a.body, a.size}, condition, returns});
          break;
        case Kind::update:
          writes.emplace_back(
              backend::UpdateRequest{key, a.type, a.actions, condition, nullptr, returns});
          break;
        case Kind::erase:
          writes.emplace_back(backend::EraseRequest{key, condition, returns});
          break;
        case Kind::check:
          writes.emplace_back(backend::CheckRequest{key, condition});
          break;
      }
    }
    table_->backend().transact(table_->handle_, writes);
  }

  // A guard of a unique value for `owner`: where none is, or where it is the owner's own, or,
  // with `stale`, where it is that former owner's (which no longer holds the value: the caller
  // checks that in the same transaction, check_item).
  void claim_guard(const std::string& key, const detail::GuardOwner& owner,
                   const detail::GuardOwner* stale) {
    const backend::TableSpec& spec = table_->spec_;
    Action& a = add(Kind::put, detail::unique_guard_type);
    a.pk = key;
    a.sk = key;
    a.size = detail::guard_body(spec, key, owner, table_->format_now(), a.body);
    a.condition = stale != nullptr ? detail::guard_owned_by(stale->pk, stale->sk)
                                   : detail::guard_free_or_owned_by(spec, owner.pk, owner.sk);
  }
  // Removes the guard `key` if it is the owner's (or names no owner).
  void release_guard(const std::string& key, std::string_view owner_pk, std::string_view owner_sk) {
    Action& a = add(Kind::erase, detail::unique_guard_type);
    a.pk = key;
    a.sk = key;
    a.condition = detail::guard_releasable_by(owner_pk, owner_sk);
  }
  // A condition on an item, as check() has, for an item of any type.
  void check_item(std::string_view pk, std::string_view sk, backend::Condition condition) {
    Action& a = add(Kind::check, {});
    a.pk = pk;
    a.sk = sk;
    a.condition = std::move(condition);
  }

  enum class Kind : unsigned char { put, update, erase, check };
  struct Action {
    Kind kind = Kind::put;
    std::string_view type;
    std::string pk, sk, body;
    std::size_t size = 0;
    std::vector<backend::UpdateAction> actions;
    std::optional<backend::Condition> condition;
    std::optional<detail::VersionedWrite> version;  // a versioned entity's write
    // The cancellation carries the item this action's condition was found false on (only the
    // single writes of Table ask, for return_stored_on_failure).
    bool stored_on_failure = false;
  };
  // A versioned item put from a non-const object, whose version commit() increments.
  struct VersionBump {
    void* item;
    void (*increment)(void*);
  };

  // The next action, reusing one a former transaction on this thread left, with the capacity
  // of its key and body strings: a warm transaction allocates for its conditions and updates
  // only. Key strings are overwritten by format_keys, bodies by the encoder.
  Action& add(Kind kind, std::string_view type) {
    if (used_ == actions_->size()) {
      if (actions_->empty()) actions_->reserve(16);
      actions_->emplace_back();
    }
    Action& a = (*actions_)[used_++];
    a.kind = kind;
    a.type = type;
    a.size = 0;
    a.actions.clear();
    a.condition.reset();
    a.version.reset();
    a.stored_on_failure = false;
    return a;
  }

  Table<B>* table_;
  // Requests point into the actions, but only from commit(), when no action is added anymore.
  // The first used_ of *actions_ are this transaction's: the thread's, or a fresh vector when
  // the thread's is taken (two transactions built at once on one thread).
  detail::ThreadLease<std::vector<Action>> actions_;
  std::size_t used_ = 0;
  std::size_t body_capacity_ = 0;
  std::vector<VersionBump> version_bumps_;
  // Items put as their entity's extensions changed them (kept until commit), each handed back
  // to the caller's object after the version bumps.
  std::vector<std::function<void()>> written_back_;
  std::vector<GuardedWrite> guarded_;
  std::optional<Taken> taken_;
  // The Table call this transaction is the whole of (an entity with unique members written
  // alone), whose name its errors carry; empty for a transaction of the caller's.
  std::string_view single_write_;
};

}  // namespace pksk
