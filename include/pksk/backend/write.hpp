// SPDX-License-Identifier: BSL-1.0
#pragma once
// The raw shapes of writes, one for every way a write is made: alone, in a transaction, in a
// batch. A write names its item by key and carries an optional condition (expression.hpp); a
// backend evaluates it on the stored item (SQLite) or renders it into the request (DynamoDB).

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "../codec/body_format.hpp"
#include "../codec/parsed_item.hpp"
#include "../detail/function_ref.hpp"
#include "../expr/expression.hpp"
#include "../model/raw_item.hpp"

namespace pksk::backend {

// One item as the store holds it. `body` is the item's attributes other than the keys and the
// discriminator, in the backend's BodyFormat; `size` is the whole item's size as DynamoDB
// measures it (codec/item_size.hpp), stored with it so that reads can end 1 MB pages without
// measuring again.
struct ItemView {
  std::string_view pk{};
  std::string_view sk{};
  std::string_view type{};
  std::string_view body{};
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
  std::string_view (*read_sk)(const void* key_source) = nullptr;
  const void* key_source = nullptr;

  std::string_view partition_key() const { return read_pk != nullptr ? read_pk(key_source) : pk; }
  std::string_view sort_key() const { return read_sk != nullptr ? read_sk(key_source) : sk; }
};

struct ItemKey {
  std::string_view pk{};
  std::string_view sk{};
  friend bool operator==(const ItemKey&, const ItemKey&) = default;
};

// What a read hands each row to: visitor(item), and for a batch get visitor(index of the key,
// item). Exceptions it throws leave the backend's call as they are.
using ItemVisitor = detail::FunctionRef<void(const ItemView&)>;
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
};

// The stored item a ConditionFailed carries (WriteReturns::stored_on_failure), copied from a
// row of the store, whose bodies are in `format`.
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
  ItemView item{};
  const Condition* condition = nullptr;
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

struct UpdateRequest {
  ItemKey key{};
  std::string_view type{};
  std::span<const UpdateAction> actions{};
  const Condition* condition = nullptr;
  const UpdateReader* reader = nullptr;
  WriteReturns returns{};  // stored_on_failure only
};

struct EraseRequest {
  ItemKey key{};
  const Condition* condition = nullptr;
  WriteReturns returns{};
};

// A transaction's condition on an item it does not write.
struct CheckRequest {
  ItemKey key{};
  const Condition* condition = nullptr;
};

using WriteRequest = std::variant<PutRequest, UpdateRequest, EraseRequest, CheckRequest>;

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

inline const Condition* condition_of(const WriteRequest& write) noexcept {
  return std::visit([](const auto& w) { return w.condition; }, write);
}

// DynamoDB's limits on one request.
inline constexpr std::size_t max_transaction_actions = 100;
inline constexpr std::size_t max_batch_write_items = 25;
inline constexpr std::size_t max_batch_get_keys = 100;

}  // namespace pksk::backend
