// SPDX-License-Identifier: BSL-1.0
// An update action on a versioned entity's version member, with the member as an argument:
// refused at compile time as with the member as a template argument (update_version_member.cpp),
// in the compile-time conversion of the argument, as for a key member
// (update_key_member_argument.cpp says how each compiler reports it).
// expect-gcc: pksk::diagnostics::update_action_targets_the_version_member_of_a_versioned_entity()
// expect-gcc: with Entity = Cart
// expect-gcc: {"rev"}
// expect-clang: call to consteval function 'pksk::detail::NonKeyMember<Cart,
// expect-clang-source: pksk::add(&Cart::rev, 1)
// expect-clang-note: update_action_targets_the_version_member_of_a_versioned_entity<Cart,
// expect-clang-note: {"rev"}>
#include "shop.hpp"

int main() {
  auto action = pksk::add(&Cart::rev, 1);
  (void)action;
}
