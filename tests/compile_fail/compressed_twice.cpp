// SPDX-License-Identifier: BSL-1.0
// A member named twice in Entity<T>::compressed.
//
// expect: member_is_compressed_twice<Reply,
// expect: {"message"}>
#include <array>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Reply {
  std::string thread;
  std::string at;
  std::string message;
  std::string quote;
};

template <>
struct pksk::Entity<Reply> {
  static constexpr std::string_view type = "Reply";
  static constexpr std::string_view pk = "THREAD#{thread}";
  static constexpr std::string_view sk = "REPLY#{at}";
  static constexpr std::array compressed = {"message", "quote", "message"};
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "forum"};
  table.put(Reply{.thread = "t", .at = "a", .message = "m"});
  (void)table.get(Reply{.thread = "t", .at = "a"});
}
