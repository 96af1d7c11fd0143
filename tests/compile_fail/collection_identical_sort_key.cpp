// ItemCollection members whose sort-key templates are identical.
//
// Both g++-12 ("In instantiation of 'struct ...'") and clang++-16 ("in instantiation of
// template class '...'") print the failed check with its template arguments, as
// CHECK<Entity, [pksk::detail::]fixed_string<N>{"text"}, ...> (only g++ qualifies
// fixed_string). CheckCompileFail.cmake relies on these substrings of both outputs, which name
// the entity and the offending text:
// expect: item_collection_members_have_identical_sort_key_templates<Customer,
// expect: {"A"}, Invoice,
// expect: {"A"}, false>
#include <string>

#include <pksk/key/key.hpp>

struct Customer {
  std::string id;
};
struct Invoice {
  std::string customer_id;
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<Invoice> {
  static constexpr std::string_view type = "Invoice";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "A";
};

static_assert(pksk::detail::check_collection_members<Customer, Invoice>());

int main() {}
