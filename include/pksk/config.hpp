#pragma once
// Settings a user may override per table.

#include <string>

namespace pksk {

struct TableOptions {
  // The attribute (SQLite column) that holds each item's entity type: the discriminator
  // ItemCollection dispatches on. ElectroDB calls it "__edb_e__", dynamodb-toolbox "_et".
  std::string type_attribute = "type";
};

}  // namespace pksk
