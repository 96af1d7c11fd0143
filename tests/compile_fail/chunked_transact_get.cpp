// SPDX-License-Identifier: BSL-1.0
// transact_get of a chunked entity: its chunks are read after their head, not as of one
// moment, which a transactional read promises.
//
// expect: transact_get_cannot_read_a_chunked_entity<Reply>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Reply {
  std::string thread;
  std::string at;
  std::string message;
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
  auto [reply] = table.transact_get(Reply{.thread = "t", .at = "a"});
  return reply ? 1 : 0;
}
