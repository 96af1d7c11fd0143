#pragma once
// The error hierarchy. Every error pksk throws derives from pksk::Error, itself a
// std::runtime_error, so `catch (const std::exception&)` still sees them all.

#include <stdexcept>
#include <string>

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

class ConditionFailed : public Error {
 public:
  using Error::Error;
};

class TransactionCanceled : public Error {
 public:
  using Error::Error;
};

class ItemTooLarge : public Error {
 public:
  using Error::Error;
};

// The store itself failed: SQLite's or DynamoDB's own message is part of what().
class BackendError : public Error {
 public:
  using Error::Error;
};

}  // namespace pksk
