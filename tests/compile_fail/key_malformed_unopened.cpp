// A malformed key template (unopened): CUSTOMER#id}
//
// Both g++-12 ("In instantiation of 'struct ...'") and clang++-16 ("in instantiation of
// template class '...'") print the failed check with its template arguments, as
// CHECK<Entity, [pksk::detail::]fixed_string<N>{"text"}, ...> (only g++ qualifies
// fixed_string). CheckCompileFail.cmake relies on these substrings of both outputs, which name
// the entity and the offending text:
// expect: key_template_has_brace_without_opening_brace<Customer,
// expect: {"CUSTOMER#id}"}
#include <string>

#include <pksk/key/key.hpp>

struct Customer {
  std::string id;
  std::string name;
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#id}";
  static constexpr std::string_view sk = "A";
};

int main() {
  return static_cast<int>(pksk::partition(Customer{"1", "n"}).value.size());
}
