// SPDX-License-Identifier: BSL-1.0
// Seed 000, the item collection patterns:
//
// 1. A user profile: the profile, addresses, payment methods and preferences share the user's
//    partition, so the whole profile is one query, one kind of item a prefix query, and one
//    item a get. Related items change together in one transaction.
// 2. A gaming hierarchy: an account's characters and their inventories under hierarchical sort
//    keys (CHARACTER#warrior#stats, CHARACTER#warrior#inventory::armor), read at each level
//    by begins_with, and every inventory across characters by a contains filter on the sort key.
// 3. Many-to-many: students and courses. An enrolment lives in the student's partition; an
//    inverted secondary index (the table's keys swapped) reads the other direction, a course's
//    students. The student's own profile names no index, so it is not in it (a sparse index).

#include <cstdio>
#include <string>
#include <vector>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

// ------------------------------------------------------------------- 1. a user profile

struct Profile {
  std::string user_id;
  std::string name;
  std::string email;
};
struct Address {
  std::string user_id;
  std::string label;  // home, work
  std::string street;
  std::string city;
};
struct PaymentMethod {
  std::string user_id;
  std::string card_id;
  std::string last4;
  std::string expires;
};
struct Preference {
  std::string user_id;
  std::string name;
  std::string value;
};

template <>
struct pksk::Entity<Profile> {
  static constexpr std::string_view type = "Profile";
  static constexpr std::string_view pk = "USER#{user_id}";
  static constexpr std::string_view sk = "PROFILE#main";
};
template <>
struct pksk::Entity<Address> {
  static constexpr std::string_view type = "Address";
  static constexpr std::string_view pk = "USER#{user_id}";
  static constexpr std::string_view sk = "ADDRESS#{label}";
};
template <>
struct pksk::Entity<PaymentMethod> {
  static constexpr std::string_view type = "PaymentMethod";
  static constexpr std::string_view pk = "USER#{user_id}";
  static constexpr std::string_view sk = "PAYMENT#{card_id}";
};
template <>
struct pksk::Entity<Preference> {
  static constexpr std::string_view type = "Preference";
  static constexpr std::string_view pk = "USER#{user_id}";
  static constexpr std::string_view sk = "PREFERENCE#{name}";
};

using UserProfile = pksk::ItemCollection<Profile, Address, PaymentMethod, Preference>;

template <class Table>
void user_profile(Table& table) {
  std::printf("== 1. user profile\n");
  table.put(Profile{"123", "Ada Lovelace", "ada@example.com"});
  table.put(Address{"123", "home", "12 St James's Square", "London"});
  table.put(Address{"123", "work", "1 Analytical Row", "London"});
  table.put(PaymentMethod{"123", "card_001", "4242", "2027-01"});
  table.put(PaymentMethod{"123", "card_002", "0005", "2026-06"});
  table.put(Preference{"123", "theme", "dark"});
  const pksk::PartitionKey user = pksk::partition(Profile{.user_id = "123"});

  const auto whole = table.template query<UserProfile>(user);
  std::printf(
      "whole profile: %zu items in one query: %s, %zu addresses, %zu cards, %zu "
      "preferences\n",
      whole.size(), whole.template first<Profile>()->name.c_str(), whole.template count<Address>(),
      whole.template count<PaymentMethod>(), whole.template count<Preference>());
  std::printf("addresses only (begins_with ADDRESS#):");
  for (const Address& a : table.template query<Address>(user)) std::printf(" %s", a.label.c_str());
  std::printf("\n");
  const auto home = table.get(Address{.user_id = "123", .label = "home"});
  std::printf("one address: %s, %s\n", home->street.c_str(), home->city.c_str());

  // Moving house: the address and the profile change together, or neither does.
  table.transact()
      .put(Address{"123", "home", "5 Marylebone Road", "London"})
      .update(Profile{.user_id = "123"}, pksk::set(&Profile::email, "ada@analytical.example"))
      .commit();
  const auto after = table.template query<UserProfile>(user);
  std::printf("after one transaction: %s, home at %s\n",
              after.template first<Profile>()->email.c_str(),
              after.template first<Address>()->street.c_str());
}

// ------------------------------------------------------------------ 2. a gaming hierarchy

struct Account {
  std::string account_id;
  int level{};
  long xp{};
};
struct CharacterStats {
  std::string account_id;
  std::string character;
  int hp{};
  int strength{};
  int mana{};
};
struct Inventory {
  std::string account_id;
  std::string character;
  std::string slot;  // armor, weapons
  std::vector<std::string> items;
};

template <>
struct pksk::Entity<Account> {
  static constexpr std::string_view type = "Account";
  static constexpr std::string_view pk = "ACCOUNT#{account_id}";
  static constexpr std::string_view sk = "ACCOUNT#metadata";
};
template <>
struct pksk::Entity<CharacterStats> {
  static constexpr std::string_view type = "CharacterStats";
  static constexpr std::string_view pk = "ACCOUNT#{account_id}";
  static constexpr std::string_view sk = "CHARACTER#{character}#stats";
};
template <>
struct pksk::Entity<Inventory> {
  static constexpr std::string_view type = "Inventory";
  static constexpr std::string_view pk = "ACCOUNT#{account_id}";
  static constexpr std::string_view sk = "CHARACTER#{character}#inventory::{slot}";
};

using GameAccount = pksk::ItemCollection<Account, CharacterStats, Inventory>;

void print_items(const char* title, const GameAccount& items) {
  std::printf("%s: %zu items\n", title, items.size());
  for (const auto& item : items) {
    std::visit(
        [](const auto& i) {
          using T = std::decay_t<decltype(i)>;
          if constexpr (std::is_same_v<T, Account>) {
            std::printf("  account level %d, %ld xp\n", i.level, i.xp);
          } else if constexpr (std::is_same_v<T, CharacterStats>) {
            std::printf("  %s stats: hp %d, str %d, mana %d\n", i.character.c_str(), i.hp,
                        i.strength, i.mana);
          } else {
            std::printf("  %s inventory::%s:", i.character.c_str(), i.slot.c_str());
            for (const std::string& thing : i.items) std::printf(" %s", thing.c_str());
            std::printf("\n");
          }
        },
        item);
  }
}

template <class Table>
void gaming_hierarchy(Table& table) {
  std::printf("== 2. gaming hierarchy\n");
  table.put(Account{"456", 12, 48200});
  table.put(CharacterStats{"456", "warrior", 320, 18, 0});
  table.put(Inventory{"456", "warrior", "armor", {"helmet", "chest"}});
  table.put(Inventory{"456", "warrior", "weapons", {"sword", "shield"}});
  table.put(CharacterStats{"456", "mage", 140, 6, 250});
  table.put(Inventory{"456", "mage", "armor", {"robe"}});
  const pksk::PartitionKey account = pksk::partition(Account{.account_id = "456"});

  print_items("all account data", table.template query<GameAccount>(account));
  // One level down at a time: every character, the warrior, the warrior's inventory.
  print_items("begins_with CHARACTER#",
              table.template query<GameAccount>(account, {.sk = pksk::begins_with("CHARACTER#")}));
  print_items(
      "begins_with CHARACTER#warrior#",
      table.template query<GameAccount>(account, {.sk = pksk::begins_with("CHARACTER#warrior#")}));
  // The levels above span two entities, so their prefixes are spelled out; this one is one
  // entity's, stated from its members: the template gives the prefix, and "warrior" is checked
  // as a key value would be.
  print_items(
      "begins_with CHARACTER#warrior#inventory::",
      table.template query<GameAccount>(
          account, {.sk = pksk::sort_key_of<Inventory>::eq<&Inventory::character>("warrior")}));
  // Across characters: a filter on the sort key, evaluated before anything is decoded.
  print_items("every inventory (contains #inventory::)",
              table.template query<GameAccount>(
                  account, {.filter = pksk::contains(pksk::sort_key, "#inventory::")}));
}

// ------------------------------------------------------ 3. many-to-many, inverted index

struct Student {
  std::string student_id;
  std::string name;
};
struct Enrollment {
  std::string student_id;
  std::string course_id;
  std::string term;
};

template <>
struct pksk::Entity<Student> {
  static constexpr std::string_view type = "Student";
  static constexpr std::string_view pk = "STUDENT#{student_id}";
  static constexpr std::string_view sk = "PROFILE";
};
// gsi1 holds each enrolment under the course: the table's keys swapped.
template <>
struct pksk::Entity<Enrollment> {
  static constexpr std::string_view type = "Enrollment";
  static constexpr std::string_view pk = "STUDENT#{student_id}";
  static constexpr std::string_view sk = "COURSE#{course_id}";
  static constexpr std::array indexes = {
      pksk::Index{"gsi1", "COURSE#{course_id}", "STUDENT#{student_id}"}};
};

using StudentRecord = pksk::ItemCollection<Student, Enrollment>;

template <class Table>
void many_to_many(Table& table) {
  std::printf("== 3. many-to-many through an inverted index\n");
  table.put_all(std::vector<Student>{{"ada", "Ada"}, {"alan", "Alan"}, {"grace", "Grace"}});
  table.put_all(std::vector<Enrollment>{{"ada", "MATH101", "2026-autumn"},
                                        {"ada", "CS201", "2026-autumn"},
                                        {"alan", "CS201", "2026-autumn"},
                                        {"alan", "LOGIC301", "2027-spring"},
                                        {"grace", "CS201", "2027-spring"}});

  const auto ada =
      table.template query<StudentRecord>(pksk::partition(Student{.student_id = "ada"}));
  std::printf("%s takes:", ada.template first<Student>()->name.c_str());
  for (const Enrollment& e : ada.template items<Enrollment>()) {
    std::printf(" %s", e.course_id.c_str());
  }
  std::printf("\n");

  // The other direction, one query of the index: CS201's students.
  std::printf("CS201 has:");
  for (const Enrollment& e :
       table.index("gsi1").template query<Enrollment>(pksk::PartitionKey{"COURSE#CS201"})) {
    std::printf(" %s (%s)", e.student_id.c_str(), e.term.c_str());
  }
  std::printf("\n");
  // With a filter, and a page at a time: the spring students of CS201, two items evaluated per
  // page.
  auto page = table.index("gsi1").template query_page<Enrollment>(
      pksk::PartitionKey{"COURSE#CS201"},
      {.limit = 2, .filter = pksk::attr(&Enrollment::term) == "2027-spring"});
  // The first page evaluated ada and alan and kept neither: empty, with a cursor, as DynamoDB's.
  std::printf("CS201 in spring, page by page:");
  for (;;) {
    std::printf(" [");
    for (std::size_t i = 0; i < page.items.size(); ++i) {
      std::printf("%s%s", i ? " " : "", page.items[i].student_id.c_str());
    }
    std::printf("]");
    if (!page.next) break;
    page = table.index("gsi1").template query_page<Enrollment>(
        pksk::PartitionKey{"COURSE#CS201"},
        {.limit = 2, .start = page.next, .filter = pksk::attr(&Enrollment::term) == "2027-spring"});
  }
  std::printf("\n");

  // Dropping a course moves nothing by hand: the enrolment and its index entry go together.
  table.erase(Enrollment{.student_id = "alan", .course_id = "CS201"});
  std::printf(
      "CS201 after alan drops it: %zu students\n",
      table.index("gsi1").template query<Enrollment>(pksk::PartitionKey{"COURSE#CS201"}).size());
}

int main(int argc, char** argv) {
  pksk::sqlite::Backend backend{argc > 1 ? argv[1] : "patterns.db"};
  pksk::Table profiles{backend, "profiles"};
  user_profile(profiles);
  pksk::Table games{backend, "games"};
  gaming_hierarchy(games);
  pksk::Table school{backend, "school", {.indexes = {"gsi1"}}};
  many_to_many(school);
}
