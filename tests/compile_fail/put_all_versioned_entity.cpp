// SPDX-License-Identifier: BSL-1.0
// put_all of a versioned entity: a batch write carries no condition, so the version each item
// was read at could not be checked. The one error names the entity:
// expect: a_batch_cannot_check_the_version_of_a_versioned_entity<Cart>
#include <vector>

#include "shop.hpp"

void save(pksk::Table<pksk::AnyBackend>& table, const std::vector<Cart>& carts) {
  table.put_all(carts);
}

int main() {}
