// SPDX-License-Identifier: BSL-1.0
// a transaction's put of a chunked entity: at most 400 KB an item, and no old chunks removed.
//
// expect: a_transaction_cannot_write_a_chunked_entity<Reply>
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
  table.transact().put(Reply{.thread = "t", .at = "a"}).commit();
}
