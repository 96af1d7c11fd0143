// SPDX-License-Identifier: BSL-1.0
// A number sort key with literal text around it: a number is the whole key or nothing.
//
// expect: number_key_spec_must_be_the_whole_sort_key_template<Reading,
// expect: {"READING#{seq:number}"}
#include <cstdint>
#include <string>

#include <pksk/pksk.hpp>

struct Reading {
  std::string device;
  std::int64_t seq{};
};

template <>
struct pksk::Entity<Reading> {
  static constexpr std::string_view type = "Reading";
  static constexpr std::string_view pk = "DEVICE#{device}";
  static constexpr std::string_view sk = "READING#{seq:number}";
};

int main() {
  return static_cast<int>(pksk::sort_key(Reading{.device = "d1", .seq = 4}).size());
}
