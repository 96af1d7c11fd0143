// SPDX-License-Identifier: BSL-1.0
// An entity with unique members in a transaction: its guards are written by Table's own writes,
// each a transaction of its own.
//
// expect: a_transaction_cannot_write_an_entity_with_unique_members<Account>
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
  static constexpr std::array unique = {"email"};
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "accounts");
  table.transact().put(Account{.id = "1", .email = "a@example.com"}).commit();
}
