// SPDX-License-Identifier: BSL-1.0
// Seed 001: an organisation and its users in one item collection, and the four access patterns
// its composite primary key serves:
//
//   PK             | SK                   | Type
//   ORG#AMAZON     | METADATA#AMAZON      | Organization
//   ORG#AMAZON     | USER#JEFFBEZOS       | User
//   ORG#MICROSOFT  | METADATA#MICROSOFT   | Organization
//   ORG#MICROSOFT  | USER#BILLGATES       | User
//   ORG#MICROSOFT  | USER#SATYANADELLA    | User
//
// 1. an organisation (a get), 2. an organisation and all its users (one query of the
// partition), 3. only its users (a query of the User type: begins_with(SK, "USER#"), derived
// from the User's sort-key template), 4. one user (a get).

#include <cstdio>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Organization {
  std::string org_name;
  std::string display_name;
  std::string plan_type;
};

struct User {
  std::string org_name;
  std::string user_name;
  std::string display_name;
  std::string user_type;
};

template <>
struct pksk::Entity<Organization> {
  static constexpr std::string_view type = "Organization";
  static constexpr std::string_view pk = "ORG#{org_name}";
  static constexpr std::string_view sk = "METADATA#{org_name}";
};

template <>
struct pksk::Entity<User> {
  static constexpr std::string_view type = "User";
  static constexpr std::string_view pk = "ORG#{org_name}";
  static constexpr std::string_view sk = "USER#{user_name}";
};

using OrgWithUsers = pksk::ItemCollection<Organization, User>;

int main(int argc, char** argv) {
  pksk::sqlite::Backend backend{argc > 1 ? argv[1] : "orgs.db"};
  pksk::Table table{backend, "orgs"};

  table.put_all(std::vector<Organization>{{"MICROSOFT", "Microsoft", "Enterprise"},
                                          {"AMAZON", "Amazon", "Pro"}});
  table.put_all(std::vector<User>{{"MICROSOFT", "BILLGATES", "Bill Gates", "Member"},
                                  {"MICROSOFT", "SATYANADELLA", "Satya Nadella", "Admin"},
                                  {"AMAZON", "JEFFBEZOS", "Jeff Bezos", "Admin"}});

  // 1: an organisation, by its name alone.
  const auto microsoft = table.get(Organization{.org_name = "MICROSOFT"});
  std::printf("1. %s: %s plan\n", microsoft->display_name.c_str(), microsoft->plan_type.c_str());

  // 2: the organisation and all its users, one range read.
  const OrgWithUsers org =
      table.query<OrgWithUsers>(pksk::partition(Organization{.org_name = "MICROSOFT"}));
  std::printf("2. %s and %zu users in one query:", org.first<Organization>()->display_name.c_str(),
              org.count<User>());
  for (const User& u : org.items<User>()) std::printf(" %s", u.display_name.c_str());
  std::printf("\n");

  // 3: only the users: the query of one type keeps to its sort-key prefix, "USER#".
  std::printf("3. users of Amazon:");
  for (const User& u : table.query<User>(pksk::partition(Organization{.org_name = "AMAZON"}))) {
    std::printf(" %s (%s)", u.display_name.c_str(), u.user_type.c_str());
  }
  std::printf("\n");

  // 4: one user, by organisation and user name.
  const auto satya = table.get(User{.org_name = "MICROSOFT", .user_name = "SATYANADELLA"});
  std::printf("4. %s is a%s %s\n", satya->display_name.c_str(),
              satya->user_type == "Admin" ? "n" : "", satya->user_type.c_str());
  // A user who is not there is no item, not an error.
  std::printf(
      "   BILLGATES at Amazon: %s\n",
      table.get(User{.org_name = "AMAZON", .user_name = "BILLGATES"}) ? "found" : "not found");
}
