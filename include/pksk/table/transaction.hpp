#pragma once
// Transaction<Backend>: DynamoDB's TransactWriteItems over one table. Actions (put, update,
// erase, check) are collected with their conditions and sent at commit(): all or nothing, at
// most 100 actions, no two on one item (else ValidationError, nothing written); a condition that
// fails cancels the whole with TransactionCanceled, one reason per action in the order added.

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../backend/backend.hpp"
#include "../error.hpp"
#include "../expr/attr.hpp"
#include "table.hpp"

namespace pksk {

template <Backend B>
class Transaction {
 public:
  explicit Transaction(Table<B>& table) : table_(&table) {}

  template <class Item, class... Conditions>
    requires EntityType<std::remove_cvref_t<Item>>
  Transaction& put(const Item& item, const Conditions&... conditions) {
    using T = std::remove_cvref_t<Item>;
    Action& a = add(Kind::put, type_name_v<T>);
    a.condition = table_->write_condition(item, conditions...);
    // Bodies of one transaction are alike: each starts with room for the largest so far,
    // instead of growing by doublings from empty.
    a.body.reserve(body_capacity_);
    a.size = table_->encode_versioned(item, a.pk, a.sk, a.body, "transaction put");
    body_capacity_ = std::max(body_capacity_, a.body.size());
    return *this;
  }

  template <EntityType T, class... Parts>
  Transaction& update(const T& key, const Parts&... parts) {
    Action& a = add(Kind::update, type_name_v<T>);
    a.condition = table_->update_parts(key, a.actions, parts...);
    table_->format_keys(key, a.pk, a.sk, "transaction update");
    return *this;
  }

  template <EntityType T, class... Conditions>
  Transaction& erase(const T& key, const Conditions&... conditions) {
    Action& a = add(Kind::erase, type_name_v<T>);
    detail::ConditionParts parts;
    (table_->template add_condition<T>(parts, conditions), ...);
    a.condition = std::move(parts).combined();
    table_->format_keys(key, a.pk, a.sk, "transaction erase");
    return *this;
  }

  // A condition on an item the transaction does not write: check(Customer{.id = "1"},
  // pksk::exists).
  template <EntityType T, class Condition1, class... Conditions>
  Transaction& check(const T& key, const Condition1& condition, const Conditions&... conditions) {
    Action& a = add(Kind::check, type_name_v<T>);
    detail::ConditionParts parts;
    table_->template add_condition<T>(parts, condition);
    (table_->template add_condition<T>(parts, conditions), ...);
    a.condition = std::move(parts).combined();
    table_->format_keys(key, a.pk, a.sk, "transaction check");
    return *this;
  }

  std::size_t size() const noexcept { return actions_.size(); }

  void commit() {
    const auto where = [&] {
      return "pksk table " + detail::quoted(table_->name()) + ", transaction: ";
    };
    if (actions_.empty() || actions_.size() > max_transaction_actions) {
      throw ValidationError(where() + "a transaction holds 1 to " +
                            std::to_string(max_transaction_actions) + " actions, not " +
                            std::to_string(actions_.size()));
    }
    std::vector<WriteRequest> writes;
    writes.reserve(actions_.size());
    for (const Action& a : actions_) {
      const ItemKey key{a.pk, a.sk};
      for (std::size_t i = 0; i < writes.size(); ++i) {
        if (key_of(writes[i]) == key) {
          throw ValidationError(
              where() + "actions " + std::to_string(i) + " and " + std::to_string(writes.size()) +
              " are on the same item pk=" + detail::quoted(a.pk) + " sk=" + detail::quoted(a.sk) +
              "; DynamoDB allows one action per item");
        }
      }
      const Condition* condition = a.condition ? &*a.condition : nullptr;
      switch (a.kind) {
        case Kind::put:
          writes.emplace_back(PutRequest{ItemView{a.pk, a.sk, a.type, a.body, a.size}, condition});
          break;
        case Kind::update:
          writes.emplace_back(UpdateRequest{key, a.type, a.actions, condition});
          break;
        case Kind::erase:
          writes.emplace_back(EraseRequest{key, condition});
          break;
        case Kind::check:
          writes.emplace_back(CheckRequest{key, condition});
          break;
      }
    }
    table_->backend().transact(table_->handle_, writes);
    actions_.clear();
  }

 private:
  enum class Kind : unsigned char { put, update, erase, check };
  struct Action {
    Kind kind = Kind::put;
    std::string_view type;
    std::string pk, sk, body;
    std::size_t size = 0;
    std::vector<UpdateAction> actions;
    std::optional<Condition> condition;
  };

  Action& add(Kind kind, std::string_view type) {
    if (actions_.empty()) actions_.reserve(16);
    Action& a = actions_.emplace_back();
    a.kind = kind;
    a.type = type;
    return a;
  }

  Table<B>* table_;
  // Requests point into the actions, but only from commit(), when no action is added anymore.
  std::vector<Action> actions_;
  std::size_t body_capacity_ = 0;
};

}  // namespace pksk
