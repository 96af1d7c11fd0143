// SPDX-License-Identifier: BSL-1.0
// An ItemCollection of a member with a sort key and one without: their items belong in tables
// of different key schemas, so they never share a partition.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below (substrings of both compilers' spelling:
// g++ qualifies fixed_string, clang does not):
// expect: item_collection_mixes_members_with_and_without_a_sort_key<Customer,
// expect: {"A"}, Session>
#include <string>

#include <pksk/pksk.hpp>

struct Customer {
  std::string id;
};
struct Session {
  std::string customer_id;
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<Session> {  // no sort key: a table keyed by the partition key alone
  static constexpr std::string_view type = "Session";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
};

int main() {
  const pksk::ItemCollection<Session, Customer> collection;
  return static_cast<int>(collection.size());
}
