// SPDX-License-Identifier: BSL-1.0
// A filter on a member of a collection's chunked entity: the table holds a large Reply as a
// head without its members, so the filter would drop it whatever its author. The one error
// names the collection and its chunked entity:
// expect: ItemCollection<Thread, Reply>, Reply>
#include <string>
#include <vector>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Thread {
  std::string id;
  std::string subject;
};
struct Reply {
  std::string thread;
  std::string at;
  std::string author;
  std::vector<std::byte> message;
};
template <>
struct pksk::Entity<Thread> {
  static constexpr std::string_view type = "Thread";
  static constexpr std::string_view pk = "THREAD#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<Reply> {
  static constexpr std::string_view type = "Reply";
  static constexpr std::string_view pk = "THREAD#{thread}";
  static constexpr std::string_view sk = "REPLY#{at}";
  static constexpr bool chunked = true;
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "forum"};
  auto forum = table.query<pksk::ItemCollection<Thread, Reply>>(
      pksk::PartitionKey{"THREAD#1"}, {.filter = pksk::attr(&Reply::author) == std::string("ada")});
  return static_cast<int>(forum.size());
}
