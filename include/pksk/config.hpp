#pragma once
// Settings a user may override per table.

#include <string>

namespace pksk {

struct TableOptions {
  // The key attributes' names (DynamoDB's key schema; the SQLite backend's columns). No entity
  // member may be named as one of them or as the type attribute.
  std::string pk_attribute = "pk";
  std::string sk_attribute = "sk";
  // The attribute (SQLite column) that holds each item's entity type: the discriminator
  // ItemCollection dispatches on. ElectroDB calls it "__edb_e__", dynamodb-toolbox "_et".
  std::string type_attribute = "type";
  // A secret that signs the cursors this table hands out (HMAC-SHA256), and without whose
  // signature it refuses one: set it when cursors travel through clients (a page token in an
  // API), so that an edited or forged cursor is a ValidationError, not a query steered
  // elsewhere. Empty: cursors carry a checksum only. Every process serving the same pages
  // needs the same key.
  std::string cursor_key;
};

}  // namespace pksk
