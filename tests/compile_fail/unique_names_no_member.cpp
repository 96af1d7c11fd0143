// SPDX-License-Identifier: BSL-1.0
// A unique list that names no member of the entity (a typo): nothing would be unique.
//
// expect: unique_names_no_member_of_the_entity<Account,
// expect: {"emial"}>
#include <array>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Account {
  std::string id;
  std::string email;
  int score{};
};

template <>
struct pksk::Entity<Account> {
  static constexpr std::string_view type = "Account";
  static constexpr std::string_view pk = "ACCOUNT#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array unique = {"emial"};
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "accounts");
  table.put(Account{.id = "1", .email = "a@example.com"});
}
