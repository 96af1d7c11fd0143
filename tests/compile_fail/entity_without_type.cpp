// SPDX-License-Identifier: BSL-1.0
// A pksk::Entity specialization without `type`: the struct is then no entity, and every call
// taking it failed overload resolution, naming neither the entity nor what it lacked. Writes,
// reads and a transaction's actions alike: the one error names the entity and `type`.
//
// expect: entity_specialisation_must_declare_a_constant_string<Post,
// expect: {"type"}>
#include <string>
#include <vector>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Post {
  std::string id;
  std::string body;
};

template <>
struct pksk::Entity<Post> {
  static constexpr std::string_view pk = "POST#{id}";
  static constexpr std::string_view sk = "A";
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "posts");
  const Post post{.id = "1", .body = "hello"};
  table.put(post);
  const std::optional<Post> found = table.get(post);
  table.erase(post);
  const std::vector<Post> posts = table.query<Post>(pksk::PartitionKey{"POST#1"});
  table.transact().put(post).erase(post).commit();
  return static_cast<int>(posts.size()) + (found ? 1 : 0);
}
