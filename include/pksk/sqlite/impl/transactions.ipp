// SPDX-License-Identifier: BSL-1.0
#pragma once
// Several writes in one SQLite transaction: transact (all or nothing, with DynamoDB's
// cancellation reasons) and batch_write (unconditional puts and erases).

#include "backend_impl.ipp"

namespace pksk::sqlite {

// Whether a transaction's write asks for the stored item its condition is found false on.
inline bool stored_on_failure(const backend::WriteRequest& write) {
  return std::visit(
      [](const auto& w) {
        if constexpr (requires { w.returns; }) {
          return w.returns.stored_on_failure;
        } else {
          return false;
        }
      },
      write);
}

inline void Backend::Impl::transact(TableHandle table,
                                    std::span<const backend::WriteRequest> writes) {
  Call k = enter(table);
  for (const backend::WriteRequest& write : writes) check_key(k.t, "transaction", key_of(write));
  detail::WriteTransaction transaction(k.c, k.t.name, "transaction");
  std::vector<std::optional<AttributeValue>> items(writes.size());
  std::vector<CancellationReason> reasons(writes.size(), CancellationReason::none);
  // The stored items of the writes whose condition failed and that asked for them.
  std::vector<std::shared_ptr<const RawItem>> stored;
  bool canceled = false;
  for (std::size_t i = 0; i < writes.size(); ++i) {
    // The stored item is read for a condition to judge and for an update to apply to; an
    // unconditional put or erase does not look at it, as put and erase alone do not.
    const backend::Condition* condition = condition_of(writes[i]);
    if (condition == nullptr && !std::holds_alternative<backend::UpdateRequest>(writes[i]))
      continue;
    std::optional<Stored> row;
    const bool asks = stored_on_failure(writes[i]);
    items[i] = load(k, key_of(writes[i]), asks ? &row : nullptr);
    if (condition != nullptr && !evaluate(*condition, items[i] ? *items[i] : no_item())) {
      reasons[i] = CancellationReason::condition_failed;
      canceled = true;
      if (asks && row) {
        stored.resize(writes.size());
        stored[i] = backend::stored_item(row->view(), BodyFormat::json);
      }
    }
  }
  if (canceled) {
    throw backend::emulation::transaction_canceled(backend_name, k.t.name, std::move(reasons),
                                                   std::move(stored));
  }
  for (std::size_t i = 0; i < writes.size(); ++i) {
    if (const auto* put = std::get_if<backend::PutRequest>(&writes[i])) {
      insert(k, put->item);
    } else if (const auto* update = std::get_if<backend::UpdateRequest>(&writes[i])) {
      try {
        const bool found = items[i].has_value();
        const Stored stored = updated(k.t, *update, std::move(items[i]));
        // Read above in this transaction: a stored item's row is written in place.
        if (found)
          rewrite(k, stored.view());
        else
          insert(k, stored.view());
      } catch (const ValidationError&) {
        reasons[i] = CancellationReason::validation;
        throw_canceled(k.t, reasons);
      } catch (const ItemTooLarge&) {
        reasons[i] = CancellationReason::item_too_large;
        throw_canceled(k.t, reasons);
      }
    } else if (const auto* erase = std::get_if<backend::EraseRequest>(&writes[i])) {
      remove(k, erase->key);
    }
  }
  transaction.commit();
}

inline void Backend::Impl::batch_write(TableHandle table,
                                       std::span<const backend::WriteRequest> writes,
                                       std::vector<std::size_t>& unprocessed) {
  Call k = enter(table);
  unprocessed.clear();
  for (const backend::WriteRequest& write : writes) check_key(k.t, "batch write", key_of(write));
  detail::WriteTransaction transaction(k.c, k.t.name, "batch write");
  for (const backend::WriteRequest& write : writes) {
    if (const auto* put = std::get_if<backend::PutRequest>(&write)) {
      insert(k, put->item);
    } else if (const auto* erase = std::get_if<backend::EraseRequest>(&write)) {
      remove(k, erase->key);
    } else {
      throw ValidationError(detail::context(k.t.name, "batch write") +
                            "holds an update or a check; a batch takes puts and erases only");
    }
  }
  transaction.commit();
}

inline void Backend::Impl::throw_canceled(const detail::TableState& t,
                                          std::vector<CancellationReason> reasons) {
  throw backend::emulation::transaction_canceled(backend_name, t.name, std::move(reasons));
}

}  // namespace pksk::sqlite
