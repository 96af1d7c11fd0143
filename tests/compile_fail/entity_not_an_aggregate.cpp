// SPDX-License-Identifier: BSL-1.0
// A pksk::Entity specialization for a class whose members pksk cannot see: it has a constructor
// of its own, so it is no aggregate (Boost.PFR reads aggregates only), and it is not adapted to
// Boost.Hana either. The one error names the class.
//
// expect: entity_is_neither_an_aggregate_nor_a_hana_struct<Post>
#include <string>
#include <utility>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Post {
  explicit Post(std::string post_id) : id(std::move(post_id)) {}
  std::string id;
  std::string body;
};

template <>
struct pksk::Entity<Post> {
  static constexpr std::string_view type = "Post";
  static constexpr std::string_view pk = "POST#{id}";
  static constexpr std::string_view sk = "A";
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "posts");
  table.put(Post{"1"});
}
