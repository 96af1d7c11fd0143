// SPDX-License-Identifier: BSL-1.0
// A filter on a key member the entity keeps only in its keys (store_key_members = false): it is
// no attribute, so the filter would never hold. One error naming the rule, the entity and the
// member (see update_key_member_argument.cpp for how each compiler says it).
// expect-gcc: pksk::diagnostics::condition_names_a_member_kept_only_in_the_keys()
// expect-gcc: with Entity = LeanOrder
// expect-gcc: {"order_id"}
// expect-clang: call to consteval function 'pksk::detail::ConditionMember<LeanOrder,
// expect-clang-source: pksk::attr(&LeanOrder::order_id)
// expect-clang-note: condition_names_a_member_kept_only_in_the_keys<LeanOrder,
// expect-clang-note: {"order_id"}>
#include <string>

#include <pksk/pksk.hpp>

struct LeanOrder {
  std::string customer_id;
  std::string order_id;
  std::string status;
};

template <>
struct pksk::Entity<LeanOrder> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr bool store_key_members = false;
};

int main() {
  auto fine = pksk::attr(&LeanOrder::status) == "open";  // a stored member: fine
  auto filter = pksk::attr(&LeanOrder::order_id) == "o1";
  (void)fine;
  (void)filter;
}
