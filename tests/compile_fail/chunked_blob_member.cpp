// SPDX-License-Identifier: BSL-1.0
// a chunked entity with a member kept in a blob store: a chunked put writes no objects.
//
// expect: a_chunked_entity_keeps_no_member_in_a_blob_store<Reply>
#include <array>
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
  static constexpr std::array stored_in_blob_store = {"message"};
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "forum"};
  table.put(Reply{.thread = "t", .at = "a"});
}
