// SPDX-License-Identifier: BSL-1.0
// Options for a unique member the unique list does not name (a typo): they would apply to
// nothing, and the email would stay case-sensitive.
//
// expect: unique_value_names_no_unique_member_of_the_entity<Account,
// expect: {"emial"}>
#include <array>
#include <string>
#include <string_view>
#include <tuple>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Account {
  std::string id;
  std::string email;
};

inline std::string lower_case(std::string_view text) {
  return std::string(text);
}

template <>
struct pksk::Entity<Account> {
  static constexpr std::string_view type = "Account";
  static constexpr std::string_view pk = "ACCOUNT#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array unique = {"email"};
  static constexpr std::tuple unique_values{pksk::unique_value<"emial">(lower_case)};
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "accounts");
  table.put(Account{.id = "1", .email = "a@example.com"});
}
