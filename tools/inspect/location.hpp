// SPDX-License-Identifier: BSL-1.0
#pragma once
// Where pksk-inspect reads or writes: an SQLite file or a DynamoDB table, opened as an
// AnyBackend so that every command runs the same code on either, and the pksk tables found
// there with the key attributes' names each was made with.

#include <stdexcept>
#include <string>
#include <vector>

#include <pksk/backend/any_backend.hpp>

namespace pksk::inspect {

// A command-line mistake: exit status 2, and the usage reminder.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Anything else that stops a command: exit status 1.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The key attributes' names asked for on the command line, for a table whose names cannot
// be read from where it is stored (a DynamoDB table's type attribute, a new SQLite table).
struct KeyNames {
  std::string pk = "pk";
  std::string sk = "sk";
  std::string type = "type";
  KeyType sk_type = KeyType::string;  // --sk-type N: a DynamoDB table whose sort key is a number
};

struct Location {
  std::string text;  // as given: FILE.db or dynamodb://TABLE?...
  std::string kind;  // "SQLite" or "DynamoDB"
  AnyBackend backend{};
  // The pksk tables there: every one of an SQLite file, in name order (those whose columns
  // are not pksk's go to `foreign`); for DynamoDB the one the address names.
  std::vector<backend::TableSpec> tables{};
  std::vector<std::string> foreign{};
};

// `create`: write, and create a missing DynamoDB table whatever the address says (copy's target).
enum class Access { read, write, create };

// Opens `text`. Reading never creates anything: a missing file or table is a Failure. Writing
// creates the SQLite file, and the table when asked (an SQLite table always; a DynamoDB one
// with create=1 in its address, or with Access::create).
Location open_location(const std::string& text, Access access, const KeyNames& names,
                       const std::string& new_table);

// The one table a command works on: `name` if given, else the only one there.
const backend::TableSpec& choose_table(const Location& where, const std::string& name);

}  // namespace pksk::inspect
