// SPDX-License-Identifier: BSL-1.0
#pragma once
// The raw shapes of writes, one for every way a write is made: alone, in a transaction, in a
// batch. A write names its item by key and carries an optional condition (expression.hpp); a
// backend evaluates it on the stored item (SQLite) or renders it into the request (DynamoDB).

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "../codec/body_format.hpp"
#include "../codec/parsed_item.hpp"
#include "../detail/function_ref.hpp"
#include "../error.hpp"
#include "../expr/expression.hpp"
#include "../model/raw_item.hpp"

namespace pksk::backend {

// One item as the store holds it. `body` is the item's attributes other than the keys and the
// discriminator, in the backend's BodyFormat; `size` is the whole item's size as DynamoDB
// measures it (codec/item_size.hpp), stored with it so that reads can end 1 MB pages without
// measuring again.
struct ItemView {
  // The partition key (read it with partition_key(): see read_pk).
  std::string_view pk{};
  // The sort key (read it with sort_key(): see read_pk).
  std::string_view sk{};
  // The type attribute's value.
  std::string_view type{};
  // The attributes other than the keys and the type, in the backend's BodyFormat.
  std::string_view body{};
  // The whole item's size by DynamoDB's measure.
  std::size_t size = 0;
  // The same attributes already parsed, at their start, when the backend read them from a
  // larger document (a DynamoDB answer): decoders read them in place, once, rather than parse
  // `body` again. Empty: decode `body`. With a parsed item `body` may be empty (its end is not
  // known before it is read): detail::item_text gives the text then.
  ParsedItem live{};
  // A backend that pays for every column it reads (SQLite) may hand a query's row over with
  // `pk` or `sk` unread: read_pk(key_source) and read_sk(key_source) read them then. Few rows
  // need their key (an unknown type, an error, a filter naming it, the page's last), so
  // readers of a row ask partition_key() and sort_key(), never `pk` and `sk`.
  std::string_view (*read_pk)(const void* key_source) = nullptr;
  // Reads the sort key from key_source (see read_pk).
  std::string_view (*read_sk)(const void* key_source) = nullptr;
  // What read_pk and read_sk read from (the backend's statement).
  const void* key_source = nullptr;

  // The partition key, read now if the backend left it unread.
  // Throws: what read_pk throws (SQLite's BackendError).
  // Exception safety: strong.
  std::string_view partition_key() const { return read_pk != nullptr ? read_pk(key_source) : pk; }
  // The sort key, read now if the backend left it unread.
  // Throws: what read_sk throws (SQLite's BackendError).
  // Exception safety: strong.
  std::string_view sort_key() const { return read_sk != nullptr ? read_sk(key_source) : sk; }
};

// An item's key: partition key and sort key (empty for a table without one).
struct ItemKey {
  // The partition key.
  std::string_view pk{};
  // The sort key.
  std::string_view sk{};
  friend bool operator==(const ItemKey&, const ItemKey&) = default;
};

// What a read hands each row to: visitor(item), and for a batch get visitor(index of the key,
// item). Exceptions it throws leave the backend's call as they are.
using ItemVisitor = detail::FunctionRef<void(const ItemView&)>;
// What a batch or transactional get hands each item to, with the index of its key.
using IndexedItemVisitor = detail::FunctionRef<void(std::size_t, const ItemView&)>;

// What a single write may ask back besides its own result (DynamoDB's ReturnValues ALL_OLD and
// ReturnValuesOnConditionCheckFailure ALL_OLD), in every write that is not part of a
// transaction or a batch. A transaction's put, update or erase may ask stored_on_failure too:
// the TransactionCanceled then carries the item at that action's index
// (TransactionCanceled::stored(i)).
struct WriteReturns {
  // Called with the item the write replaced or removed, if there was one, once the write is
  // applied: a backend that can still undo the write (SQLite, before it commits) calls it
  // before, so that an exception from it writes nothing. Null: not asked (put and erase only).
  const ItemVisitor* old_item = nullptr;
  // When the write's condition is false, the ConditionFailed thrown carries the item it was
  // evaluated on (ConditionFailed::stored(); none when no item had the key).
  bool stored_on_failure = false;
  // Where the write reports its condition's failure instead of throwing it, for callers to
  // whom a failed condition is ordinary control flow (Table's try_put, try_update, try_erase:
  // a stale version in a retry loop). Non-null: a backend may emplace the ConditionFailed it
  // would throw here and return having written nothing (erase returns false, update calls no
  // visitor). Optional for a backend: the caller also catches a ConditionFailed thrown.
  std::optional<ConditionFailed>* failure = nullptr;
};

// The stored item a ConditionFailed carries (WriteReturns::stored_on_failure), copied from a
// row of the store, whose bodies are in `format`.
// Throws: only std::bad_alloc.
// Exception safety: strong.
inline std::shared_ptr<const RawItem> stored_item(const ItemView& row, BodyFormat format) {
  return std::make_shared<const RawItem>(RawItem{std::string(row.partition_key()),
                                                 std::string(row.sort_key()),
                                                 std::string(row.type),
                                                 std::string(detail::item_text(row.live, row.body)),
                                                 format,
                                                 {}});
}

// Writes the item whole, replacing any item with its key.
struct PutRequest {
  // The item to write.
  ItemView item{};
  // Only if this holds on the stored item (null: always), else ConditionFailed.
  const Condition* condition = nullptr;
  // What the write hands back besides its result.
  WriteReturns returns{};
};

// Changes some attributes of the item, creating it (with its key and type) if absent.
class BodyPatch;  // codec/body_patch.hpp

// How the caller reads an update's result while a backend that patches a stored plain JSON body
// (SQLite's) works on it, so that the result is read in the pass that splits the stored body
// rather than decoded again from the written one. Optional: a backend may ignore it and hand
// the written item to the update's visitor to decode, as it must when the item is created.
struct UpdateReader {
  // Splits the stored `body` into `patch`, as patch.parse(body, names) does (DecodeError as it
  // throws), reading the members the patch keeps into the caller's item on the way.
  detail::FunctionRef<void(std::string_view body, std::span<const std::string_view> names,
                           BodyPatch& patch)>
      split;
  // After the actions, before the visitor is called: the patch's named members as the item now
  // has them (patch.named()). The visitor still sees the item as written.
  detail::FunctionRef<void(const AttributeValue& named)> finish;
};

// DynamoDB's UpdateItem: the actions applied to the item with `key`, created with its key and type
// if absent.
struct UpdateRequest {
  // The item updated.
  ItemKey key{};
  // The type attribute of an item the update creates.
  std::string_view type{};
  // The actions, applied in order.
  std::span<const UpdateAction> actions{};
  // Only if this holds on the stored item (null: always), else ConditionFailed.
  const Condition* condition = nullptr;
  // How the caller reads the result on the way, or null (see UpdateReader).
  const UpdateReader* reader = nullptr;
  WriteReturns returns{};  // stored_on_failure only
};

// DynamoDB's DeleteItem: removes the item with `key`.
struct EraseRequest {
  // The item removed.
  ItemKey key{};
  // Only if this holds on the stored item (null: always), else ConditionFailed.
  const Condition* condition = nullptr;
  // What the write hands back besides whether it removed an item.
  WriteReturns returns{};
};

// A transaction's condition on an item it does not write.
struct CheckRequest {
  // The item checked.
  ItemKey key{};
  // What must hold on it, or the transaction is canceled.
  const Condition* condition = nullptr;
};

// One action of a transaction or a batch (batches hold puts and erases only).
using WriteRequest = std::variant<PutRequest, UpdateRequest, EraseRequest, CheckRequest>;

// The key the action is on.
// Throws: nothing.
// Exception safety: nothrow.
inline ItemKey key_of(const WriteRequest& write) noexcept {
  return std::visit(
      [](const auto& w) -> ItemKey {
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(w)>, PutRequest>) {
          return {w.item.pk, w.item.sk};
        } else {
          return w.key;
        }
      },
      write);
}

// The action's condition, or null.
// Throws: nothing.
// Exception safety: nothrow.
inline const Condition* condition_of(const WriteRequest& write) noexcept {
  return std::visit([](const auto& w) { return w.condition; }, write);
}

// DynamoDB's limits on one request.
inline constexpr std::size_t max_transaction_actions = 100;
// The most writes in one BatchWriteItem.
inline constexpr std::size_t max_batch_write_items = 25;
// The most keys in one BatchGetItem.
inline constexpr std::size_t max_batch_get_keys = 100;

}  // namespace pksk::backend
