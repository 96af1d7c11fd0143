// SPDX-License-Identifier: BSL-1.0
// Two Entity<T>::unique_values entries for one member: which options hold would depend on the
// order, so it is refused.
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

template <>
struct pksk::Entity<Account> {
  static constexpr std::string_view type = "Account";
  static constexpr std::string_view pk = "ACCOUNT#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array unique = {"email"};
  static constexpr std::tuple unique_values{pksk::unique_value<"email">({.claim_empty = false}),
                                            pksk::unique_value<"email">()};
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "accounts");
  table.put(Account{.id = "1", .email = "a@example.com"});
}
