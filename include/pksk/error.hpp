#pragma once
// The error hierarchy. Every error pksk throws derives from pksk::Error, itself a
// std::runtime_error, so `catch (const std::exception&)` still sees them all.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pksk {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// A key field value that cannot be part of a key (it holds the template's delimiter, a NUL
// or invalid UTF-8), or a key that does not fit the table.
class KeyError : public Error {
 public:
  using Error::Error;
};

// An item body that does not decode into its entity: names pk, sk, type and the JSON path.
class DecodeError : public Error {
 public:
  using Error::Error;
};

// A value that cannot be written as an item (NaN, infinity, an unnamed enum value).
class EncodeError : public Error {
 public:
  using Error::Error;
};

// A write's condition (if_absent, exists, when(...), or an optimistic-locking version check)
// was false on the stored item: nothing was written. Names the table, the key and the condition.
class ConditionFailed : public Error {
 public:
  using Error::Error;
};

// Why one action of a canceled transaction did not go through, as DynamoDB's
// CancellationReasons name it.
enum class CancellationReason : unsigned char {
  none,              // this action was fine; another one canceled the transaction
  condition_failed,  // ConditionalCheckFailed
  conflict,          // TransactionConflict: another write held the item
  item_too_large,    // ItemCollectionSizeLimitExceeded / the item would exceed 400 KB
  validation,        // ValidationError: the action itself was invalid
  throttled,         // ThrottlingError / ProvisionedThroughputExceeded
};

inline const char* to_string(CancellationReason reason) noexcept {
  switch (reason) {
    case CancellationReason::none:
      return "none";
    case CancellationReason::condition_failed:
      return "condition failed";
    case CancellationReason::conflict:
      return "conflict";
    case CancellationReason::item_too_large:
      return "item too large";
    case CancellationReason::validation:
      return "validation error";
    case CancellationReason::throttled:
      return "throttled";
  }
  return "unknown";
}

// A transaction was canceled as a whole: nothing of it was written. reasons()[i] is the reason
// of the i-th action, in the order the actions were added.
class TransactionCanceled : public Error {
 public:
  TransactionCanceled(const std::string& what, std::vector<CancellationReason> reasons)
      : Error(what), reasons_(std::move(reasons)) {}
  const std::vector<CancellationReason>& reasons() const noexcept { return reasons_; }

 private:
  std::vector<CancellationReason> reasons_;
};

class ItemTooLarge : public Error {
 public:
  using Error::Error;
};

// A request DynamoDB would refuse as a ValidationException: a bad cursor, between with
// low > high, more than 100 actions in a transaction, two actions on one item, an update of a
// key attribute, a number DynamoDB cannot hold.
class ValidationError : public Error {
 public:
  using Error::Error;
};

// The store itself failed: SQLite's or DynamoDB's own message is part of what().
class BackendError : public Error {
 public:
  using Error::Error;
};

}  // namespace pksk
