// SPDX-License-Identifier: BSL-1.0
// A key-text function that cannot be called as std::string(std::string_view): here it takes a
// std::string& to change in place.
//
// expect: unique_value_key_text_is_not_a_function_of_string_view_returning_string<Account,
// expect: {"email"}>
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

inline void lower_case(std::string& text) {
  text.clear();
}

template <>
struct pksk::Entity<Account> {
  static constexpr std::string_view type = "Account";
  static constexpr std::string_view pk = "ACCOUNT#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array unique = {"email"};
  static constexpr std::tuple unique_values{pksk::unique_value<"email">(lower_case)};
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "accounts");
  table.put(Account{.id = "1", .email = "a@example.com"});
}
