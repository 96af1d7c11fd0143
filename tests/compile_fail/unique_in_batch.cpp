// SPDX-License-Identifier: BSL-1.0
// put_all of an entity with unique members: a batch has no conditions, so no guard could be
// claimed with its item.
//
// expect: a_batch_cannot_keep_the_guards_of_an_entity_with_unique_members<Account>
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
  table.put_all(std::array{Account{.id = "1", .email = "a@example.com"}});
}
