// SPDX-License-Identifier: BSL-1.0
// Entity<T>::indexes declared as a C array rather than the std::array the documentation shows:
// its uses saw a pointer, and the errors (six on clang) named neither the entity nor `indexes`.
//
// expect: entity_indexes_must_be_a_std_array_of_pksk_Index<Post>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Post {
  std::string id;
  std::string author;
};

template <>
struct pksk::Entity<Post> {
  static constexpr std::string_view type = "Post";
  static constexpr std::string_view pk = "POST#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr pksk::Index indexes[] = {{"gsi1", "AUTHOR#{author}", "POST#{id}"}};
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "posts", {.indexes = {"gsi1"}});
  table.put(Post{.id = "1", .author = "ada"});
  return static_cast<int>(table.index("gsi1").query<Post>(pksk::PartitionKey{"AUTHOR#ada"}).size());
}
