// SPDX-License-Identifier: BSL-1.0
// A member named twice in Entity<T>::stored_in_blob_store.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below.
// expect: member_is_stored_in_the_blob_store_twice<Upload,
// expect: {"data"}>
#include <array>
#include <optional>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Upload {
  std::string owner;
  std::string name;
  std::string data;
  int pages{};
};

template <>
struct pksk::Entity<Upload> {
  static constexpr std::string_view type = "Upload";
  static constexpr std::string_view pk = "USER#{owner}";
  static constexpr std::string_view sk = "UPLOAD#{name}";
  static constexpr std::array stored_in_blob_store = {"data", "data"};
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "uploads"};
  table.put(Upload{.owner = "o", .name = "n", .data = "d"});
  (void)table.get(Upload{.owner = "o", .name = "n"});
}
