// A key field whose type cannot be part of a key (bool).
//
// g++-12 and clang++-16 both print the failed check with its template arguments:
//   g++:   In instantiation of 'struct pksk::detail::CHECK<ENTITY,
//   pksk::detail::fixed_string<N>{"..."}, ...>' clang: in instantiation of template class
//   'pksk::detail::CHECK<ENTITY, fixed_string<N>{"..."}, ...>'
// (fixed_string is qualified by g++ only). CheckCompileFail.cmake relies on these substrings
// of both outputs, which name the entity and the offending text:
// expect: key_field_type_not_supported<Flag,
// expect: {"ENABLED#{enabled}"}
// expect: {"enabled"}, bool, false>
#include <string>

#include <pksk/key.hpp>

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
