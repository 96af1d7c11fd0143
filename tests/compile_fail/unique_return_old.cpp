// SPDX-License-Identifier: BSL-1.0
// return_old on a put of an entity with unique members: the put is a transaction with its
// guard items, which returns no old item.
//
// expect: return_old_cannot_be_asked_of_a_write_of_an_entity_with_unique_members<Account>
#include <array>
#include <string>

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
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "accounts");
  const auto old = table.put(Account{.id = "1", .email = "a@example.com"}, pksk::return_old);
  return old ? 0 : 1;
}
