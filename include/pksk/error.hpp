// SPDX-License-Identifier: BSL-1.0
#pragma once
// The error model. Every error pksk throws derives from pksk::Error, itself a
// std::runtime_error, so `catch (const std::exception&)` still sees them all. An error is data,
// not only text: code() says what went wrong as a pksk::errc (an error code of pksk's own
// category, comparable with `==` and convertible to std::error_code), retryable() whether the
// same request may succeed if sent again later, native() the store's own answer (SQLite's extended
// result code, DynamoDB's error type and HTTP status) and cause() the error it wraps, when it wraps
// one. Nothing in pksk decides anything by reading what(): the message is for people.
//
// The category is a Boost.System category with an id of its own, as Boost.Beast's and
// Boost.MySQL's are: a code made in one shared library compares equal to the same code made
// in another even when each holds its own copy of the category object (a std::error_category
// compares by address); and a code is the boost::system::error_code that Asio and Beast hand to
// completion handlers.

#include <cstddef>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/system/error_category.hpp>
#include <boost/system/error_code.hpp>

namespace pksk {

// What went wrong, whichever backend saw it. Each subclass of Error carries its own codes
// (KeyError: invalid_key, ...; has_own_class says which codes have a class); BackendError
// carries only the codes of a store's own failures, from throttled on, so that an error is
// always caught by the class its code names. New codes are added at the end: a code's value
// never changes.
enum class errc : int {
  // 0 means success, as in every error code enumeration.
  invalid_key = 1,       // KeyError: a key member value that cannot be part of a key
  decode_failed,         // DecodeError: a stored item that does not decode into its entity
  encode_failed,         // EncodeError: a value that cannot be written (NaN, an unnamed enum)
  condition_failed,      // ConditionFailed: a write's condition was false; nothing written
  transaction_canceled,  // TransactionCanceled: nothing of the transaction was written
  item_too_large,        // ItemTooLarge: past 400 KB by DynamoDB's measure
  validation,            // ValidationError: a request DynamoDB would refuse as invalid
  // The store refuses requests for now: DynamoDB's throttling (after the backend's own
  // retries), or SQLite's write lock held by another connection past the busy timeout.
  throttled,
  // Another transaction held the item: DynamoDB's TransactionConflict on a write that is not
  // itself in a transaction (a canceled transaction is transaction_canceled, its reasons
  // saying conflict).
  conflict,
  // The store could not be reached or answered with a server error, after the backend's own
  // retries: DynamoDB's 5xx, a refused or dropped connection, a timeout.
  unavailable,
  // The request may or may not have been applied: its answer was lost, and sending it again
  // could apply it twice. Not retryable blindly; read the item to find out.
  unknown_outcome,
  corrupt,          // the store's data is damaged or is not a pksk store (SQLite: not a database)
  missing_table,    // the table does not exist, and the backend was not asked to create it
  schema_mismatch,  // the table exists with another key schema, columns or indexes
  access_denied,    // the credentials were refused or lack a permission; a read-only file
  io_error,         // the file system failed: cannot open, disk full, an I/O error
  misuse,           // a call the API cannot serve: an empty handle, a moved-from backend
  backend_failure,  // any other failure of the store; native() says which
  // ChunkMissing (a DecodeError): a chunked item's head names a chunk that is not stored.
  chunk_missing,
  // BlobError (a DecodeError): a blob member's object is missing from the blob store, or its
  // bytes are not those its item records.
  blob_failed,
};

// Whether errors of this code are thrown as a class of their own (KeyError, DecodeError,
// ChunkMissing, BlobError, EncodeError, ConditionFailed, TransactionCanceled, ItemTooLarge,
// ValidationError) rather than as a BackendError.
// Throws: nothing.
// Exception safety: nothrow.
constexpr bool has_own_class(errc code) noexcept {
  switch (code) {
    case errc::invalid_key:
    case errc::decode_failed:
    case errc::encode_failed:
    case errc::condition_failed:
    case errc::transaction_canceled:
    case errc::item_too_large:
    case errc::validation:
    case errc::chunk_missing:
    case errc::blob_failed:
      return true;
    default:
      return false;
  }
}

namespace detail {
class ErrorCategory final : public boost::system::error_category {
 public:
  // "pksk-err" in ASCII: the id by which Boost.System compares categories.
  static constexpr unsigned long long id = 0x706b736b2d657272ULL;
  constexpr ErrorCategory() noexcept : boost::system::error_category(id) {}

  const char* name() const noexcept override { return "pksk"; }
  std::string message(int value) const override {
    switch (static_cast<errc>(value)) {
      case errc::invalid_key:
        return "invalid key";
      case errc::decode_failed:
        return "an item does not decode";
      case errc::encode_failed:
        return "a value cannot be encoded";
      case errc::condition_failed:
        return "condition failed";
      case errc::transaction_canceled:
        return "transaction canceled";
      case errc::item_too_large:
        return "item too large";
      case errc::validation:
        return "invalid request";
      case errc::throttled:
        return "throttled";
      case errc::conflict:
        return "conflict with a transaction";
      case errc::unavailable:
        return "store unavailable";
      case errc::unknown_outcome:
        return "outcome unknown";
      case errc::corrupt:
        return "store corrupt";
      case errc::missing_table:
        return "table does not exist";
      case errc::schema_mismatch:
        return "table schema does not match";
      case errc::access_denied:
        return "access denied";
      case errc::io_error:
        return "I/O error";
      case errc::misuse:
        return "API misuse";
      case errc::backend_failure:
        return "backend failure";
      case errc::chunk_missing:
        return "a chunk of a chunked item is missing";
      case errc::blob_failed:
        return "a blob member's object is missing or damaged";
    }
    return value == 0 ? "success" : "unknown pksk error";
  }
};
}  // namespace detail

// The category's object: constant-initialised, so that no guard is taken on each call.
// Throws: nothing.
// Exception safety: nothrow.
inline const boost::system::error_category& error_category() noexcept {
  static constexpr detail::ErrorCategory category;
  return category;
}

// The error code of `code`, in pksk's category (found by ADL: `boost::system::error_code ec =
// code`).
// Throws: nothing.
// Exception safety: nothrow.
inline boost::system::error_code make_error_code(errc code) noexcept {
  return {static_cast<int>(code), error_category()};
}

// Whether a failure of this kind may go away when the same request is sent again later.
// Throws: nothing.
// Exception safety: nothrow.
constexpr bool is_retryable(errc code) noexcept {
  return code == errc::throttled || code == errc::conflict || code == errc::unavailable;
}

// Where an error came from, in the store's own words.
struct NativeError {
  // The store that answered: none for an error pksk raised itself.
  enum class Origin : unsigned char { none, sqlite, dynamodb };
  Origin origin = Origin::none;  // which store's words code and type are
  // SQLite: the extended result code (SQLITE_BUSY_SNAPSHOT, ...). DynamoDB: the HTTP status,
  // 0 when no answer came.
  int code = 0;
  // DynamoDB: the error type without its namespace ("ConditionalCheckFailedException").
  // SQLite: sqlite3_errstr() of the code.
  std::string type{};
};

// The base of every error pksk throws: what went wrong as code() and kind(), whether to retry,
// the store's own answer and the error it wraps. Subclasses name the kind a caller catches.
class Error : public std::runtime_error {
 public:
  // `what` is the message for people; retryable() starts as is_retryable(code).
  // Throws: only std::bad_alloc (copying the message).
  // Exception safety: strong.
  Error(errc code, const std::string& what, NativeError native = {},
        std::exception_ptr cause = nullptr)
      : std::runtime_error(what),
        code_(code),
        retryable_(is_retryable(code)),
        native_(std::move(native)),
        cause_(std::move(cause)) {}

  // What went wrong as an error code of pksk's category (compare with `== errc::...`).
  // Throws: nothing.
  // Exception safety: nothrow.
  boost::system::error_code code() const noexcept { return make_error_code(code_); }
  // What went wrong as the enumerator, for a switch.
  // Throws: nothing.
  // Exception safety: nothrow.
  errc kind() const noexcept { return code_; }
  // Whether the same request may succeed if sent again later (throttling, a conflict, the
  // store unavailable; a transaction canceled only by conflicts or throttling).
  // Throws: nothing.
  // Exception safety: nothrow.
  bool retryable() const noexcept { return retryable_; }
  // The store's own answer: SQLite's extended result code, DynamoDB's error type and status.
  // Throws: nothing.
  // Exception safety: nothrow.
  const NativeError& native() const noexcept { return native_; }
  // The error this one wraps (std::rethrow_exception to inspect it), or null.
  // Throws: nothing.
  // Exception safety: nothrow.
  const std::exception_ptr& cause() const noexcept { return cause_; }

 protected:
  // For a subclass whose retryability depends on more than its code (TransactionCanceled).
  // Throws: nothing.
  // Exception safety: nothrow.
  void set_retryable(bool retryable) noexcept { retryable_ = retryable; }

 private:
  errc code_;
  bool retryable_;
  NativeError native_;
  std::exception_ptr cause_;
};

namespace detail {
// The base of the subclasses a caller catches by kind; each fixes its code.
template <errc Code>
class ErrorOf : public Error {
 public:
  explicit ErrorOf(const std::string& what, NativeError native = {},
                   std::exception_ptr cause = nullptr)
      : Error(Code, what, std::move(native), std::move(cause)) {}

 protected:
  // For a subclass whose errors are of this kind and carry a code of their own (ChunkMissing
  // is a DecodeError whose code is chunk_missing).
  ErrorOf(errc code, const std::string& what, NativeError native, std::exception_ptr cause)
      : Error(code, what, std::move(native), std::move(cause)) {}
};
}  // namespace detail

// A key field value that cannot be part of a key (it holds the template's delimiter, a NUL
// or invalid UTF-8), or a key that does not fit the table.
class KeyError : public detail::ErrorOf<errc::invalid_key> {
 public:
  using ErrorOf::ErrorOf;
};

// An item body that does not decode into its entity: names pk, sk, type and the JSON path.
class DecodeError : public detail::ErrorOf<errc::decode_failed> {
 public:
  using ErrorOf::ErrorOf;

 protected:
  // For ChunkMissing and BlobError, which carry codes of their own.
  // Throws: only std::bad_alloc (copying the message).
  // Exception safety: strong.
  DecodeError(errc code, const std::string& what, NativeError native, std::exception_ptr cause)
      : ErrorOf(code, what, std::move(native), std::move(cause)) {}
};

// A chunked item (Entity<T>::chunked) whose head names a chunk that is not stored, also after
// the item was read again. Code: chunk_missing.
class ChunkMissing : public DecodeError {
 public:
  // Throws: only std::bad_alloc (copying the message).
  // Exception safety: strong.
  explicit ChunkMissing(const std::string& what, NativeError native = {},
                        std::exception_ptr cause = nullptr)
      : DecodeError(errc::chunk_missing, what, std::move(native), std::move(cause)) {}
};

// A blob member's object that is missing from the blob store, or whose bytes are not those its
// item records (their size or SHA-256 differ): names the table, the item's key and the member.
// Code: blob_failed.
class BlobError : public DecodeError {
 public:
  // Throws: only std::bad_alloc (copying the message).
  // Exception safety: strong.
  explicit BlobError(const std::string& what, NativeError native = {},
                     std::exception_ptr cause = nullptr)
      : DecodeError(errc::blob_failed, what, std::move(native), std::move(cause)) {}
};

// A value that cannot be written as an item (NaN, infinity, an unnamed enum value).
class EncodeError : public detail::ErrorOf<errc::encode_failed> {
 public:
  using ErrorOf::ErrorOf;
};

struct RawItem;  // model/raw_item.hpp

// A write's condition (if_absent, exists, when(...), or an optimistic-locking version check)
// was false on the stored item: nothing was written. Names the table, the key and the condition.
class ConditionFailed : public detail::ErrorOf<errc::condition_failed> {
 public:
  using ErrorOf::ErrorOf;
  // With the item the condition was found false on (`stored`, null when none was asked for).
  // Throws: only std::bad_alloc (copying the message).
  // Exception safety: strong.
  ConditionFailed(const std::string& what, NativeError native, std::exception_ptr cause,
                  std::shared_ptr<const RawItem> stored)
      : ErrorOf(what, std::move(native), std::move(cause)), stored_(std::move(stored)) {}

  // The item the condition was found false on, when the write asked for it
  // (pksk::return_stored_on_failure; DynamoDB's ReturnValuesOnConditionCheckFailure): decode it
  // with decode_body<T>(*stored()). Null when the write did not ask, or no item had the key.
  // Throws: nothing.
  // Exception safety: nothrow.
  const RawItem* stored() const noexcept { return stored_.get(); }
  // The same item, shared: to keep it past the error's lifetime.
  // Throws: nothing.
  // Exception safety: nothrow.
  const std::shared_ptr<const RawItem>& stored_item() const noexcept { return stored_; }

 private:
  std::shared_ptr<const RawItem> stored_;
};

// Why one action of a canceled transaction did not go through, as DynamoDB's
// CancellationReasons name it.
enum class CancellationReason : unsigned char {
  none,              // this action was fine; another one canceled the transaction
  condition_failed,  // ConditionalCheckFailed
  conflict,          // TransactionConflict: another write held the item
  // ItemCollectionSizeLimitExceeded (a collection past 10 GB on a table with a local secondary
  // index), or the item itself past 400 KB
  item_too_large,
  validation,  // ValidationError: the action itself was invalid
  throttled,   // ThrottlingError / ProvisionedThroughputExceeded
};

// The reason in words, for messages ("condition failed"); static storage.
// Throws: nothing.
// Exception safety: nothrow.
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
// of the i-th action, in the order the actions were added. retryable() when every action that
// failed failed for a conflict or throttling, which the same transaction may not meet again.
class TransactionCanceled : public detail::ErrorOf<errc::transaction_canceled> {
 public:
  // `reasons`: one per action, in the order the actions were added.
  // Throws: only std::bad_alloc (copying the message).
  // Exception safety: strong.
  TransactionCanceled(const std::string& what, std::vector<CancellationReason> reasons,
                      NativeError native = {})
      : ErrorOf(what, std::move(native)), reasons_(std::move(reasons)) {
    bool transient = false;
    bool permanent = false;
    for (const CancellationReason reason : reasons_) {
      if (reason == CancellationReason::conflict || reason == CancellationReason::throttled) {
        transient = true;
      } else if (reason != CancellationReason::none) {
        permanent = true;
      }
    }
    set_retryable(transient && !permanent);
  }
  // With the stored item each action's condition was found false on, for the actions that
  // asked for it (backend::WriteReturns::stored_on_failure, DynamoDB's
  // ReturnValuesOnConditionCheckFailure in a transaction): stored[i] is action i's, null where
  // it did not ask, its condition held, or no item had the key.
  // Throws: std::bad_alloc.
  // Exception safety: strong.
  TransactionCanceled(const std::string& what, std::vector<CancellationReason> reasons,
                      NativeError native, std::vector<std::shared_ptr<const RawItem>> stored)
      : TransactionCanceled(what, std::move(reasons), std::move(native)) {
    stored_ = std::move(stored);
  }
  // The reason of each action, in the order the actions were added.
  // Throws: nothing.
  // Exception safety: nothrow.
  const std::vector<CancellationReason>& reasons() const noexcept { return reasons_; }
  // Action i's stored item, as above; null when there is none.
  // Throws: nothing.
  // Exception safety: nothrow.
  const RawItem* stored(std::size_t action) const noexcept {
    return action < stored_.size() ? stored_[action].get() : nullptr;
  }
  // Every action's stored item, as above, shared.
  // Throws: nothing.
  // Exception safety: nothrow.
  const std::vector<std::shared_ptr<const RawItem>>& stored_items() const noexcept {
    return stored_;
  }

 private:
  std::vector<CancellationReason> reasons_;
  std::vector<std::shared_ptr<const RawItem>> stored_;
};

// An item past 400 KB by DynamoDB's measure (codec/item_size.hpp), as it is or as an update
// would leave it: nothing was written.
class ItemTooLarge : public detail::ErrorOf<errc::item_too_large> {
 public:
  using ErrorOf::ErrorOf;
};

// A request DynamoDB would refuse as a ValidationException: a bad cursor, between with
// low > high, more than 100 actions in a transaction, two actions on one item, an update of a
// key attribute, a number DynamoDB cannot hold.
class ValidationError : public detail::ErrorOf<errc::validation> {
 public:
  using ErrorOf::ErrorOf;
};

// The store itself failed, or was used in a way it cannot serve: code() says which (throttled,
// unavailable, corrupt, missing_table, ...), native() what the store answered. A code that has
// its own class (has_own_class) is never a BackendError's: throw_error throws that class.
class BackendError : public Error {
 public:
  // `code`: one of the store's own failures (throttled, unavailable, corrupt, ...).
  // Throws: only std::bad_alloc (copying the message).
  // Exception safety: strong.
  BackendError(errc code, const std::string& what, NativeError native = {},
               std::exception_ptr cause = nullptr)
      : Error(has_own_class(code) ? errc::backend_failure : code, what, std::move(native),
              std::move(cause)) {}
};

// Throws the class `code` names (has_own_class), else a BackendError: for code that maps a
// store's answer to a code and must not turn a ConditionFailed into a BackendError. A
// TransactionCanceled so thrown has no reasons, a ConditionFailed no stored item.
// Throws: always: the error of `code`, as said (std::bad_alloc if the message cannot be copied).
// Exception safety: strong (it changes nothing).
[[noreturn]] inline void throw_error(errc code, const std::string& what, NativeError native = {},
                                     std::exception_ptr cause = nullptr) {
  switch (code) {
    case errc::invalid_key:
      throw KeyError(what, std::move(native), std::move(cause));
    case errc::decode_failed:
      throw DecodeError(what, std::move(native), std::move(cause));
    case errc::chunk_missing:
      throw ChunkMissing(what, std::move(native), std::move(cause));
    case errc::blob_failed:
      throw BlobError(what, std::move(native), std::move(cause));
    case errc::encode_failed:
      throw EncodeError(what, std::move(native), std::move(cause));
    case errc::condition_failed:
      throw ConditionFailed(what, std::move(native), std::move(cause));
    case errc::transaction_canceled:
      throw TransactionCanceled(what, {}, std::move(native));
    case errc::item_too_large:
      throw ItemTooLarge(what, std::move(native), std::move(cause));
    case errc::validation:
      throw ValidationError(what, std::move(native), std::move(cause));
    default:
      throw BackendError(code, what, std::move(native), std::move(cause));
  }
}

}  // namespace pksk

template <>
struct boost::system::is_error_code_enum<pksk::errc> : std::true_type {};
template <>
struct std::is_error_code_enum<pksk::errc> : std::true_type {};
