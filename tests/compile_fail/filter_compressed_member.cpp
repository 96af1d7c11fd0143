// SPDX-License-Identifier: BSL-1.0
// A filter on a compressed member: its stored value is zstd-compressed bytes, which no
// comparison can see into. One error naming the rule, the entity and the member (see
// update_key_member_argument.cpp for how each compiler says it).
// expect-gcc: pksk::diagnostics::condition_names_a_compressed_member()
// expect-gcc: with Entity = Reply
// expect-gcc: {"message"}
// expect-clang: call to consteval function 'pksk::detail::ConditionMember<Reply,
// expect-clang-source: pksk::attr(&Reply::message)
// expect-clang-note: condition_names_a_compressed_member<Reply,
// expect-clang-note: {"message"}>
#include <array>
#include <string>

#include <pksk/pksk.hpp>

struct Reply {
  std::string thread;
  std::string at;
  std::string author;
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
  auto fine = pksk::attr(&Reply::author) == "ada";  // a string member not compressed: fine
  auto filter = pksk::attr(&Reply::message) == "hello";
  (void)fine;
  (void)filter;
}
