// SPDX-License-Identifier: BSL-1.0
// A filter compares a nested record's number member with a string. The one error names the
// entity, the member by its path from the entity, its type and the value's:
// expect: condition_compares_a_member_with_a_value_of_another_type<Account,
// expect: {"address.zip"}, int, char
#include <pksk/sqlite.hpp>
#include <string>

struct Address {
  std::string city;
  int zip{};
};
struct Account {
  std::string id;
  Address address;
};
template <>
struct pksk::Entity<Account> {
  static constexpr std::string_view type = "Account";
  static constexpr std::string_view pk = "ACCOUNT#{id}";
  static constexpr std::string_view sk = "A";
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "accounts"};
  auto found =
      table.query<Account>(pksk::PartitionKey{"ACCOUNT#1"},
                           {.filter = pksk::attr(&Account::address, &Address::zip) == "1"});
  return static_cast<int>(found.size());
}
