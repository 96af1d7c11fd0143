// A key field whose type cannot be part of a key (bool).
//
// Both g++-12 ("In instantiation of 'struct ...'") and clang++-16 ("in instantiation of
// template class '...'") print the failed check with its template arguments, as
// CHECK<Entity, [pksk::detail::]fixed_string<N>{"text"}, ...> (only g++ qualifies
// fixed_string). CheckCompileFail.cmake relies on these substrings of both outputs, which name
// the entity and the offending text:
// expect: key_field_type_not_supported<Flag,
// expect: {"ENABLED#{enabled}"}
// expect: {"enabled"}, bool, false>
#include <string>

#include <pksk/key/key.hpp>

struct Flag {
  std::string id;
  bool enabled{};
};

template <>
struct pksk::Entity<Flag> {
  static constexpr std::string_view type = "Flag";
  static constexpr std::string_view pk = "FLAG#{id}";
  static constexpr std::string_view sk = "ENABLED#{enabled}";
};

int main() {
  return static_cast<int>(pksk::sort_key(Flag{"1", true}).size());
}
