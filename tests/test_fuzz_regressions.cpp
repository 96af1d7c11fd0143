// SPDX-License-Identifier: BSL-1.0
// Regression tests for what fuzzing (fuzz/) found in the library, one test per finding, each
// with the input that showed it.

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include <pksk/codec/codec.hpp>  // the decoder: <pksk/pksk.hpp> leaves it out with PKSK_SEPARATE_COMPILATION
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>

namespace {

struct Tree {
  std::string label;
  std::vector<Tree> children;
};

std::string repeat(std::string_view unit, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += unit;
  return out;
}

}  // namespace

// simdjson On-Demand does not enforce its max_depth but in builds without NDEBUG, where it
// asserts (abort), and decoding a record that contains itself recurses once per level: a body
// 100,000 levels deep overflowed the stack (SIGSEGV) in release builds and aborted in debug
// builds instead of throwing DecodeError.
TEST_CASE("fuzz finding: a self-recursive record nested past the depth limit is a DecodeError") {
  REQUIRE(pksk::detail::max_decode_depth == 1000);
  pksk::BodyDecoder decoder;
  Tree tree;
  // The item is level 1; its k-th descendant is at level 1 + 2k ({"children":[ ... ]}), so
  // descendants up to the 499th are within the limit, and the 500th is at level 1,001.
  const auto body = [](std::size_t k, std::string_view leaf) {
    return repeat(R"({"children":[)", k) + std::string(leaf) + repeat("]}", k);
  };
  SECTION("plain body, 100,000 deep") {
    CHECK_THROWS_WITH(decoder.decode(body(100'000, "{}"), tree),
                      "at $" + repeat(".children[0]", 500) + ": nested deeper than 1000 levels");
  }
  SECTION("AttributeValue JSON, 100,000 deep") {
    // The item is level 1; each descendant adds 4: {"M":{"children":{"L":[ ... ]}}}.
    const std::string json = R"({"children":{"L":[)" +
                             repeat(R"({"M":{"children":{"L":[)", 100'000) + R"({"M":{}})" +
                             repeat("]}}}", 100'000) + "]}}";
    CHECK_THROWS_WITH(decoder.decode_attribute_values(json, tree),
                      Catch::StartsWith("at $.children[0].children[0]") &&
                          Catch::EndsWith(": nested deeper than 1000 levels"));
  }
  SECTION("at the limit") {
    REQUIRE_NOTHROW(decoder.decode(body(499, R"({"label":"leaf"})"), tree));
    const Tree* node = &tree;
    for (std::size_t i = 0; i < 499; ++i) {
      REQUIRE(node->children.size() == 1);
      node = &node->children[0];
    }
    CHECK(node->label == "leaf");
    CHECK_THROWS_WITH(decoder.decode(body(500, "{}"), tree),
                      "at $" + repeat(".children[0]", 500) + ": nested deeper than 1000 levels");
  }
}

namespace {
struct FuzzNode {
  std::string name;
  std::vector<FuzzNode> children;
};
struct FuzzTree {
  FuzzNode tree;
};
}  // namespace

TEST_CASE("fuzz finding: malformed JSON fails alike into a fresh and a reused struct") {
  // A malformed element in an unknown member's value: the list is checked whole before its
  // elements are decoded, whatever the target vector held before.
  const std::string bad = R"({"tree":{"children":[{"":]}]}})";
  pksk::BodyDecoder decoder;
  FuzzTree fresh;
  CHECK_THROWS_AS(decoder.decode(bad, fresh), pksk::DecodeError);
  FuzzTree reused;
  decoder.decode(R"({"tree":{"children":[{"name":"a"},{"name":"b"}]}})", reused);
  REQUIRE(reused.tree.children.capacity() >= 2);
  CHECK_THROWS_AS(decoder.decode(bad, reused), pksk::DecodeError);
}
