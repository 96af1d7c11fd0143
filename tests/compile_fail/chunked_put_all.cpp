// SPDX-License-Identifier: BSL-1.0
// put_all of a chunked entity: a batch can neither chunk an item nor remove its chunks.
//
// expect: a_batch_cannot_write_a_chunked_entity<Reply>
#include <string>
#include <vector>

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
  table.put_all(std::vector<Reply>{Reply{.thread = "t", .at = "a"}});
}
