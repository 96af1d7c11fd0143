// SPDX-License-Identifier: BSL-1.0
// The backend contract, <pksk/backend.hpp>, is what a backend of one's own compiles against: it
// must not bring the JSON parser or the reflection libraries the rest of pksk uses, whose
// headers are most of a translation unit's preprocessed size. Included first, before anything
// that could bring them, and checked by their include guards.

#include <pksk/backend.hpp>

#ifdef SIMDJSON_H
#error "<pksk/backend.hpp> includes simdjson"
#endif
#ifdef BOOST_HANA_CONFIG_HPP
#error "<pksk/backend.hpp> includes Boost.Hana"
#endif
#ifdef BOOST_PFR_CORE_HPP
#error "<pksk/backend.hpp> includes Boost.PFR"
#endif

#include <catch2/catch.hpp>

#include <string>

TEST_CASE("the backend contract: a parsed item's text comes from the parser that made it") {
  // What a backend that parses its answers hands over (codec/parsed_item.hpp).
  std::string answer = R"({"name":{"S":"Ada"}})";
  const pksk::ParsedItem parsed(&answer, [](void* object) -> std::string_view {
    return *static_cast<std::string*>(object);
  });
  CHECK(pksk::detail::item_text(parsed, {}) == answer);
  CHECK(pksk::detail::item_text(parsed, "body") == "body");  // a body given is the text
  CHECK(pksk::detail::item_text(pksk::ParsedItem{}, "body") == "body");
}
