// SPDX-License-Identifier: BSL-1.0
// append on a compressed bytes member: its stored value is a zstd frame, which DynamoDB
// cannot append to.
// One error naming the rule, the entity and the member (see update_key_member_argument.cpp
// for how each compiler says it).
// expect-gcc: pksk::diagnostics::update_action_adds_or_appends_to_a_compressed_member()
// expect-gcc: with Entity = Reply
// expect-gcc: {"attachment"}
// expect-clang: call to consteval function 'pksk::detail::MemberRefusing<Reply,
// expect-clang-source: pksk::append(&Reply::attachment
// expect-clang-note: update_action_adds_or_appends_to_a_compressed_member<Reply,
// expect-clang-note: {"attachment"}>
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include <pksk/pksk.hpp>

struct Reply {
  std::string thread;
  std::string at;
  std::string message;
  std::vector<std::byte> attachment;
  int likes{};
};

template <>
struct pksk::Entity<Reply> {
  static constexpr std::string_view type = "Reply";
  static constexpr std::string_view pk = "THREAD#{thread}";
  static constexpr std::string_view sk = "REPLY#{at}";
  static constexpr std::array compressed = {"message", "attachment"};
};

int main() {
  auto fine = pksk::add(&Reply::likes, 1);  // a number: fine
  auto action = pksk::append(&Reply::attachment, std::vector<std::byte>{std::byte{1}});
  (void)fine;
  (void)action;
}
