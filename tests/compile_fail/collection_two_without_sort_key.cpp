// SPDX-License-Identifier: BSL-1.0
// An ItemCollection of two members without a sort key: a partition of their table holds one
// item, and their (empty) sort-key templates are identical.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below (substrings of both compilers' spelling:
// g++ qualifies fixed_string, clang does not):
// expect: item_collection_members_have_identical_sort_key_templates<Session,
// expect: Token,
#include <string>

#include <pksk/pksk.hpp>

struct Session {
  std::string id;
};
struct Token {
  std::string id;
};

template <>
struct pksk::Entity<Session> {
  static constexpr std::string_view type = "Session";
  static constexpr std::string_view pk = "KEY#{id}";
};
template <>
struct pksk::Entity<Token> {
  static constexpr std::string_view type = "Token";
  static constexpr std::string_view pk = "KEY#{id}";
};

int main() {
  const pksk::ItemCollection<Session, Token> collection;
  return static_cast<int>(collection.size());
}
