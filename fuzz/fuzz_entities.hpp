// SPDX-License-Identifier: BSL-1.0
#pragma once
// The entities the fuzz targets decode into and format keys of. Kitchen covers every member
// kind the codec supports (README of this folder lists them); the key entities cover every
// kind of key field: strings, signed and unsigned integers of each width, and an enum.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <pksk/pksk.hpp>

namespace fuzz {

enum class Color { red, green, blue = 7 };

struct Inner {
  std::string name;
  std::optional<std::int32_t> count;
  std::vector<double> weights;
  friend bool operator==(const Inner&, const Inner&) = default;
};

struct Middle {
  Inner inner;
  std::vector<Inner> inners;
  std::optional<Color> color;
  friend bool operator==(const Middle&, const Middle&) = default;
};

// Contains itself: the decoder recurses once per level of the document.
struct Tree {
  std::string label;
  std::vector<Tree> children;
  friend bool operator==(const Tree&, const Tree&) = default;
};

struct Kitchen {
  std::string s;
  bool b{};
  std::int8_t i8{};
  std::uint8_t u8{};
  std::int16_t i16{};
  std::uint16_t u16{};
  std::int32_t i32{};
  std::uint32_t u32{};
  std::int64_t i64{};
  std::uint64_t u64{};
  float f{};
  double d{};
  Color color{};
  std::optional<std::string> opt_s;
  std::optional<std::int64_t> opt_i;
  std::optional<Inner> opt_inner;
  std::vector<std::string> strings;
  std::vector<bool> bits;
  std::vector<std::optional<std::int16_t>> sparse;
  std::vector<std::vector<std::uint16_t>> matrix;  // lists of numbers (uint8_t would be bytes)
  std::map<std::string, std::int32_t> counts;
  std::map<std::string, Inner> by_name;
  std::map<std::string, std::optional<double>> maybe;
  std::set<std::string> tags;
  std::chrono::system_clock::time_point at{};
  std::optional<std::chrono::system_clock::time_point> maybe_at;
  Middle middle;
  std::vector<Middle> middles;
  Tree tree;
  friend bool operator==(const Kitchen&, const Kitchen&) = default;
};

// A fuzz property failed: print and abort, which libFuzzer reports as a crash with the input.
[[noreturn]] inline void fail(const char* property, std::string_view detail = {}) {
  std::fprintf(stderr, "pksk fuzz: property violated: %s\n%.*s\n", property,
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

}  // namespace fuzz
