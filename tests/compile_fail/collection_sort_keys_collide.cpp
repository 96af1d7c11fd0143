// ItemCollection members whose sort-key templates differ but can produce the same key
// ("TEAM#{team}" and "{topic}#{n}" both give "TEAM#x").
//
// Both g++-12 ("In instantiation of 'struct ...'") and clang++-16 ("in instantiation of
// template class '...'") print the failed check with its template arguments, as
// CHECK<Entity, [pksk::detail::]fixed_string<N>{"text"}, ...> (only g++ qualifies
// fixed_string). CheckCompileFail.cmake relies on these substrings of both outputs, which name
// the entity and the offending text:
// expect: item_collection_members_have_sort_keys_that_can_collide<Customer,
// expect: {"TEAM#{team}"}, Invoice,
// expect: {"{topic}#{n}"}, false>
#include <string>

#include <pksk/key/key.hpp>

struct Customer {
  std::string id;
  std::string team;
};
struct Invoice {
  std::string customer_id;
  std::string topic;
  std::string n;
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "TEAM#{team}";
};
template <>
struct pksk::Entity<Invoice> {
  static constexpr std::string_view type = "Invoice";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "{topic}#{n}";
};

static_assert(pksk::detail::check_collection_members<Customer, Invoice>());

int main() {}
