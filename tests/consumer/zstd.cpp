// SPDX-License-Identifier: BSL-1.0
// A consumer with compressed members (pksk::zstd): a reply past 400 KB of text is
// stored and read back whole.
#include <array>
#include <cstdio>
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
  std::string text;
  while (text.size() < 500'000) text += "a reply that repeats itself ";
  table.put(Reply{.thread = "t", .at = "1", .message = text});
  const auto read = table.get(Reply{.thread = "t", .at = "1"});
  if (!read || read->message != text) {
    std::puts("the compressed reply did not read back");
    return 1;
  }
  std::puts("pksk::zstd: a 500 KB reply stored compressed and read back");
}
