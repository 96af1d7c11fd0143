// SPDX-License-Identifier: BSL-1.0
// update of a chunked entity: its members are in its chunks, not in the item an update changes.
//
// expect: update_cannot_change_a_chunked_entity_put_it_whole<Reply>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Reply {
  std::string thread;
  std::string at;
  std::string message;
  long long rev{};
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
  table.update(Reply{.thread = "t", .at = "a"}, pksk::set(&Reply::message, std::string("x")));
}
