// SPDX-License-Identifier: BSL-1.0
// A unique member of a type with no text to key a guard by (a double: 0.1 + 0.2 is no 0.3).
//
// expect: unique_member_is_not_a_string_integer_enum_or_time<Account,
// expect: {"score"}>
#include <array>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Account {
  std::string id;
  std::string email;
  double score{};
};

template <>
struct pksk::Entity<Account> {
  static constexpr std::string_view type = "Account";
  static constexpr std::string_view pk = "ACCOUNT#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array unique = {"score"};
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "accounts");
  table.put(Account{.id = "1", .email = "a@example.com"});
}
