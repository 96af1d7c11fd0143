// SPDX-License-Identifier: BSL-1.0
// remove of a member of the item's partition key, with the member as an argument: one error
// naming the rule, the entity and the member (see update_key_member_argument.cpp for how each
// compiler says it).
// expect-gcc: pksk::diagnostics::update_action_targets_a_member_of_the_items_key()
// expect-gcc: with Entity = Customer
// expect-gcc: {"id"}
// expect-clang: call to consteval function 'pksk::detail::NonKeyMember<Customer,
// expect-clang-source: pksk::remove(&Customer::id)
// expect-clang-note: update_action_targets_a_member_of_the_items_key<Customer,
// expect-clang-note: {"id"}>
#include <string>

#include <pksk/pksk.hpp>

struct Customer {
  std::string id;
  std::string email;
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};

int main() {
  auto action = pksk::remove(&Customer::id);
  (void)action;
}
