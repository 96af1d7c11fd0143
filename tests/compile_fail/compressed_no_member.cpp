// SPDX-License-Identifier: BSL-1.0
// A name in Entity<T>::compressed that no member has (a typo of "message").
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below.
// expect: compressed_names_no_member_of_the_entity<Reply,
// expect: {"mesage"}>
#include <array>
#include <optional>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Reply {
  std::string thread;
  std::string at;
  std::string message;
  int likes{};
};

template <>
struct pksk::Entity<Reply> {
  static constexpr std::string_view type = "Reply";
  static constexpr std::string_view pk = "THREAD#{thread}";
  static constexpr std::string_view sk = "REPLY#{at}";
  static constexpr std::array compressed = {"mesage"};
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "forum"};
  table.put(Reply{.thread = "t", .at = "a", .message = "m"});
  (void)table.get(Reply{.thread = "t", .at = "a"});
}
