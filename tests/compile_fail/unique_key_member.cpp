// SPDX-License-Identifier: BSL-1.0
// A unique member the item's key is built from: the key is unique already, and a guard would
// only double the write.
//
// expect: unique_member_is_part_of_the_items_key<Account,
// expect: {"id"}>
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
  static constexpr std::array unique = {"id"};
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "accounts");
  table.put(Account{.id = "1", .email = "a@example.com"});
}
