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
};

}  // namespace pksk
