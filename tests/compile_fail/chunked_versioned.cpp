// SPDX-License-Identifier: BSL-1.0
// a chunked entity with a version member: the version would be kept in the head only.
//
// expect: a_chunked_entity_has_no_version_index_unique_members_or_ttl<Reply>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Reply {
  std::string thread;
  std::string at;
  std::string message;
  long long rev{};
};

template <>
struct pksk::Entity<Reply> {
  static constexpr std::string_view type = "Reply";
  static constexpr std::string_view pk = "THREAD#{thread}";
  static constexpr std::string_view sk = "REPLY#{at}";
  static constexpr bool chunked = true;
  static constexpr std::string_view version = "rev";
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "forum"};
  table.put(Reply{.thread = "t", .at = "a"});
}
