// A malformed key template (adjacent): CUSTOMER#{id}{name}
//
// g++-12 and clang++-16 both print the failed check with its template arguments:
//   g++:   In instantiation of 'struct pksk::detail::CHECK<ENTITY,
//   pksk::detail::fixed_string<N>{"..."}, ...>' clang: in instantiation of template class
//   'pksk::detail::CHECK<ENTITY, fixed_string<N>{"..."}, ...>'
// (fixed_string is qualified by g++ only). CheckCompileFail.cmake relies on these substrings
// of both outputs, which name the entity and the offending text:
// expect: key_template_has_adjacent_fields<Customer,
// expect: {"CUSTOMER#{id}{name}"}
// expect: {"{id}{name}"}
#include <string>

#include <pksk/key.hpp>

struct Customer {
  std::string id;
  std::string name;
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}{name}";
  static constexpr std::string_view sk = "A";
};

int main() {
  return static_cast<int>(pksk::partition(Customer{"1", "n"}).value.size());
}
