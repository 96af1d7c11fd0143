// SPDX-License-Identifier: BSL-1.0
// A compressed member of a type that cannot be compressed: only text and bytes are.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below.
// expect: compressed_member_must_be_a_string_or_binary<Reply,
// expect: {"likes"}
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
  static constexpr std::array compressed = {"message", "likes"};
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "forum"};
  table.put(Reply{.thread = "t", .at = "a", .message = "m"});
  (void)table.get(Reply{.thread = "t", .at = "a"});
}
