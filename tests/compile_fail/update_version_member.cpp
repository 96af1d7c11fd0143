// SPDX-License-Identifier: BSL-1.0
// An update action on a versioned entity's version member: every write sets it to the version
// the caller read plus one, so an action of the caller's on it would be overridden. With the
// member as a template argument the one error names the entity and the member:
// expect: update_changes_the_version_member_of_a_versioned_entity<Cart,
// expect: {"rev"}>
#include "shop.hpp"

int main() {
  auto action = pksk::set<&Cart::rev>(7);
  (void)action;
}
