// SPDX-License-Identifier: BSL-1.0
// A number in a partition key, which is a string: ":number" belongs to the sort key alone.
//
// expect: number_key_spec_must_be_the_whole_sort_key_template<Reading,
// expect: {"{device:number}"}
#include <cstdint>

#include <pksk/pksk.hpp>

struct Reading {
  std::int64_t device{};
  std::int64_t seq{};
};

template <>
struct pksk::Entity<Reading> {
  static constexpr std::string_view type = "Reading";
  static constexpr std::string_view pk = "{device:number}";
  static constexpr std::string_view sk = "{seq:number}";
};

int main() {
  return static_cast<int>(pksk::partition(Reading{.device = 1, .seq = 4}).value.size());
}
