// SPDX-License-Identifier: BSL-1.0
// A blob member in the sort-key template: a key is stored in the item as it is.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below.
// expect: blob_member_appears_in_a_key_template<Upload,
// expect: {"name"}>
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
  static constexpr std::array stored_in_blob_store = {"name"};
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "uploads"};
  table.put(Upload{.owner = "o", .name = "n", .data = "d"});
  (void)table.get(Upload{.owner = "o", .name = "n"});
}
