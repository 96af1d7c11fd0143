// SPDX-License-Identifier: BSL-1.0
// A format spec that is not one pksk knows ("week"): time buckets are year, month, day and
// hour; shard(N) takes 1 to 65536.
//
// expect: malformed_key_template_unknown_format_spec<Reading,
// expect: {"DEVICE#{device}#{at:week}"}
// expect: {"week"}>
#include <chrono>
#include <string>

#include <pksk/pksk.hpp>

struct Reading {
  std::string device;
  std::chrono::system_clock::time_point at;
};

template <>
struct pksk::Entity<Reading> {
  static constexpr std::string_view type = "Reading";
  static constexpr std::string_view pk = "DEVICE#{device}#{at:week}";
  static constexpr std::string_view sk = "{at}";
};

int main() {
  return static_cast<int>(pksk::partition(Reading{.device = "d1"}).value.size());
}
