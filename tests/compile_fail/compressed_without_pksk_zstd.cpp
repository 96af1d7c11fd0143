// SPDX-License-Identifier: BSL-1.0
// An entity with a compressed member in a program that does not link the CMake target
// pksk::zstd (so PKSK_ZSTD is not defined): one compile error naming the entity and the member,
// rather than a page of undefined ZSTD_* symbols when the program is linked.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below.
// expect: compressed_member_needs_libzstd_link_the_target_pksk_zstd<Reply,
// expect: {"message"}>
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
  static constexpr std::array compressed = {"message"};
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "forum"};
  table.put(Reply{.thread = "t", .at = "a", .message = "m"});
  (void)table.get(Reply{.thread = "t", .at = "a"});
}
