// SPDX-License-Identifier: BSL-1.0
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <pksk/backend/emulation/evaluate.hpp>
#include <pksk/codec/codec.hpp>

#include "test_codec_types.hpp"

using namespace codec_test;
using namespace std::chrono_literals;

namespace {

Everything sample() {
  using namespace std::chrono;
  Everything e;
  e.text = "caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80 \"q\" \\ \n\t\x01";
  e.flag = true;
  e.i8 = -128;
  e.u8 = 255;
  e.i16 = -32768;
  e.u16 = 65535;
  e.i32 = std::numeric_limits<std::int32_t>::min();
  e.u32 = std::numeric_limits<std::uint32_t>::max();
  e.i64 = std::numeric_limits<std::int64_t>::min();
  e.u64 = std::numeric_limits<std::uint64_t>::max();
  e.f = 0.1f;
  e.d = 5e-324;
  e.status = Status::shipped;
  e.maybe_int = -1;
  e.maybe_address = Address{"Paris", "75001"};
  e.names = {"a", "", "c"};
  e.items = {{"sku-1", 1, 0.1}, {"sku-2", -2, 1e308}, {"sku-3", 3, -0.0}};
  e.matrix = {{1, 2}, {}, {3}};
  e.bits = {false, true};
  e.sparse = {std::nullopt, "y"};
  e.groups = {{"evens", {2, 4}}, {"empty", {}}};
  e.addresses = {{"home", {"Oslo", std::nullopt}}};
  e.tags = {"b", "a"};
  e.at = sys_days{1901y / March / 4} + 1ns;
  e.home = {"Lyon", "69001"};
  return e;
}

template <class T>
std::string av_of(const T& value) {
  std::string out;
  pksk::encode_attribute_values(value, out);
  return out;
}

template <class T>
T round_trip(const T& value) {
  pksk::BodyDecoder decoder;
  T out{};
  decoder.decode_attribute_values(av_of(value), out);
  return out;
}

std::string decode_error(std::string_view json) {
  pksk::BodyDecoder decoder;
  Everything out;
  try {
    decoder.decode_attribute_values(json, out);
  } catch (const pksk::DecodeError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("attribute values: exact text of an Order") {
  const Order order{.customer_id = "123",
                    .order_id = "2020-12-06",
                    .status = "shipped",
                    .total = 59.98,
                    .items = {{"A-1", 2, 19.99}},
                    .note = std::nullopt};
  CHECK(av_of(order) ==
        R"({"customer_id":{"S":"123"},"order_id":{"S":"2020-12-06"},"status":{"S":"shipped"},)"
        R"("total":{"N":"59.98"},"items":{"L":[{"M":{"sku":{"S":"A-1"},"qty":{"N":"2"},)"
        R"("price":{"N":"19.99"}}}]}})");
}

TEST_CASE("attribute values: exact text of every member type") {
  Everything e = sample();
  e.text = "t\"";
  e.d = 0.5;
  e.f = -2.5f;
  e.maybe_int.reset();
  e.maybe_address = Address{"Paris", std::nullopt};
  e.groups = {{"g", {1}}};
  e.addresses.clear();
  e.tags.clear();  // DynamoDB has no empty set: omitted
  e.at = std::chrono::sys_days{std::chrono::year{2024} / 2 / 29} + 23h + 59min + 58s + 123456789ns;
  CHECK(av_of(e) ==
        R"({"text":{"S":"t\""},"flag":{"BOOL":true},"i8":{"N":"-128"},"u8":{"N":"255"},)"
        R"("i16":{"N":"-32768"},"u16":{"N":"65535"},"i32":{"N":"-2147483648"},)"
        R"("u32":{"N":"4294967295"},"i64":{"N":"-9223372036854775808"},)"
        R"("u64":{"N":"18446744073709551615"},"f":{"N":"-2.5"},"d":{"N":"0.5"},)"
        R"("status":{"S":"shipped"},"maybe_address":{"M":{"city":{"S":"Paris"}}},)"
        R"("names":{"L":[{"S":"a"},{"S":""},{"S":"c"}]},)"
        R"("items":{"L":[{"M":{"sku":{"S":"sku-1"},"qty":{"N":"1"},"price":{"N":"0.1"}}},)"
        R"({"M":{"sku":{"S":"sku-2"},"qty":{"N":"-2"},"price":{"N":"1e+308"}}},)"
        R"({"M":{"sku":{"S":"sku-3"},"qty":{"N":"3"},"price":{"N":"-0"}}}]},)"
        R"("matrix":{"L":[{"L":[{"N":"1"},{"N":"2"}]},{"L":[]},{"L":[{"N":"3"}]}]},)"
        R"("bits":{"L":[{"BOOL":false},{"BOOL":true}]},"sparse":{"L":[{"NULL":true},{"S":"y"}]},)"
        R"("groups":{"M":{"g":{"L":[{"N":"1"}]}}},"addresses":{"M":{}},)"
        R"("at":{"S":"2024-02-29T23:59:58.123456789Z"},)"
        R"("home":{"M":{"city":{"S":"Lyon"},"zip":{"S":"69001"}}}})");

  e.tags = {"y", "x"};
  CHECK(av_of(e).find(R"("tags":{"SS":["x","y"]})") != std::string::npos);
}

TEST_CASE("attribute values: every member type round-trips") {
  const Everything e = sample();
  const Everything back = round_trip(e);
  CHECK(back == e);
  CHECK(std::signbit(back.items[2].price));

  Everything empty_set = e;
  empty_set.tags.clear();
  CHECK(round_trip(empty_set) == empty_set);

  for (double d : {0.1, 1e308, -0.0, 5e-324, 2.2250738585072009e-308, 1.0 / 3}) {
    Everything x;
    x.d = d;
    CHECK(round_trip(x).d == d);
  }
  for (float f :
       {std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min(), 0.3f}) {
    Everything x;
    x.f = f;
    CHECK(round_trip(x).f == f);
  }
  for (auto tp :
       {std::chrono::system_clock::time_point::min(), std::chrono::system_clock::time_point::max(),
        std::chrono::system_clock::time_point{-1ns}}) {
    Everything x;
    x.at = tp;
    CHECK(round_trip(x).at == tp);
  }
}

TEST_CASE("attribute values: Hana structs") {
  CHECK(av_of(AdaptedPoint{.x = 1, .hidden = 3, .y = 0.25}) ==
        R"({"x":{"N":"1"},"y":{"N":"0.25"}})");
  Defined d;
  d.name = "Ada";
  d.age = 36;
  CHECK(av_of(d) == R"({"name":{"S":"Ada"},"age":{"N":"36"}})");
  CHECK(round_trip(d) == d);
  d.status = Status::pending;
  CHECK(round_trip(d) == d);
}

TEST_CASE("attribute values: NULL means empty, unknown attributes are ignored") {
  pksk::BodyDecoder decoder;
  Everything out;
  out.maybe_int = 3;
  out.tags = {"stale"};
  decoder.decode_attribute_values(
      R"({"pk":{"S":"CUSTOMER#1"},"sk":{"S":"A"},"maybe_int":{"NULL":true},)"
      R"("blob":{"B":"AAEC"},"nums":{"NS":["1","2"]},"deep":{"M":{"x":{"L":[{"N":"1"}]}}},)"
      R"("text":{"S":"caf\u00e9 \uD83D\uDE00"},"sparse":{"L":[{"NULL":true}]}})",
      out);
  CHECK_FALSE(out.maybe_int);
  CHECK(out.tags.empty());  // absent: an empty set is stored as no attribute
  CHECK(out.text == "caf\xC3\xA9 \xF0\x9F\x98\x80");
  CHECK(out.sparse == std::vector<std::optional<std::string>>{std::nullopt});
}

TEST_CASE("attribute values: DecodeErrors name the path and the attribute type") {
  CHECK(decode_error(R"({"items":{"L":[{"M":{}},{"M":{"qty":{"S":"2"}}}]}})") ==
        "at $.items[1].qty: expected an integer, found an attribute of type S");
  CHECK(decode_error(R"({"items":{"L":[{"M":{"qty":{"N":"2.5"}}}]}})") ==
        "at $.items[0].qty: expected an integer, found the number \"2.5\"");
  CHECK(decode_error(R"({"i8":{"N":"-129"}})") ==
        "at $.i8: expected an integer between -128 and 127, found the number -129");
  CHECK(decode_error(R"({"u64":{"N":"18446744073709551616"}})") ==
        "at $.u64: expected an integer between 0 and 18446744073709551615, found the number "
        "\"18446744073709551616\"");
  CHECK(decode_error(R"({"d":{"N":"abc"}})") ==
        "at $.d: expected a number, found the number \"abc\"");
  CHECK_THAT(decode_error(R"({"d":{"N":"inf"}})"), Catch::StartsWith("at $.d: expected a finite"));
  CHECK(decode_error(R"({"text":"plain"})") ==
        "at $.text: expected an AttributeValue, found something other than an AttributeValue");
  CHECK(decode_error(R"({"text":{"X":"1"}})") ==
        "at $.text: expected an AttributeValue, found something other than an AttributeValue");
  CHECK(decode_error(R"({"home":{"L":[]}})") ==
        "at $.home: expected an object, found an attribute of type L");
  // A string set may come as a list of strings (a copy of an SQLite file writes one), but only
  // of strings.
  CHECK(decode_error(R"({"tags":{"L":[{"S":"a"}]}})") == "no error");
  CHECK(decode_error(R"({"tags":{"L":[{"S":"a"},{"N":"1"}]}})") ==
        "at $.tags[1]: expected a string, found an attribute of type N");
  CHECK(decode_error(R"({"tags":{"M":{}}})") ==
        "at $.tags: expected an array of strings, found an attribute of type M");
  CHECK(decode_error(R"({"status":{"S":"lost"}})") ==
        "at $.status: expected one of pending, shipped, cancelled, found \"lost\"");
  CHECK_THAT(decode_error(R"({"at":{"S":"2024-01-01"}})"),
             Catch::StartsWith("at $.at: expected an ISO 8601 timestamp"));
  CHECK(decode_error(R"({"flag":{"NULL":true}})") ==
        "at $.flag: expected a boolean, found an attribute of type NULL");
  CHECK_THAT(decode_error(R"({"text":{"S":"x"})"), Catch::Contains("invalid JSON"));
}

TEST_CASE("attribute values: whitespace around tags decodes as the compact form does") {
  // The reader looks for the expected tag right after each wrapper's brace; with whitespace
  // there, or another tag first (NULL in `sparse`), it classifies the wrapper's first key.
  const Everything e = sample();
  std::string spaced;
  bool in_string = false, escaped = false;
  for (const char c : av_of(e)) {
    if (in_string) {
      spaced += c;
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '}' || c == ']') spaced += "\n ";
    spaced += c;
    if (c == '"') in_string = true;
    if (c == '{' || c == '[' || c == ':' || c == ',') spaced += " \t";
  }
  pksk::BodyDecoder decoder;
  Everything out;
  decoder.decode_attribute_values(spaced, out);
  CHECK(out == e);
}

TEST_CASE("attribute values: one decoder serves both formats in turn") {
  pksk::BodyDecoder decoder;
  const Everything e = sample();
  std::string body;
  pksk::encode_body(e, body);
  const std::string av = av_of(e);
  Everything out;
  for (int i = 0; i < 3; ++i) {
    decoder.decode(body, out);
    CHECK(out == e);
    decoder.decode_attribute_values(av, out);
    CHECK(out == e);
  }
}

TEST_CASE("attribute values: number and binary sets in both formats, their size and equality") {
  using pksk::AttributeValue;
  const std::string dynamodb =
      R"({"ns":{"NS":["10","-1.5","2","2.0"]},"bs":{"BS":["AP8=","AA==","AP8="]},"b":{"B":"AA=="}})";
  const AttributeValue item = pksk::parse_attribute_value_body(dynamodb);
  const AttributeValue& ns = *item.find("ns");
  REQUIRE(ns.kind == AttributeValue::Kind::number_set);
  // Sorted by value, "2" and "2.0" one number.
  CHECK(ns.set == std::vector<std::string>{"-1.5", "2", "10"});
  const AttributeValue& bs = *item.find("bs");
  REQUIRE(bs.kind == AttributeValue::Kind::binary_set);
  CHECK(bs.set == std::vector<std::string>{std::string(1, '\0'), std::string("\0\xff", 2)});
  CHECK(std::string(to_string(ns.kind)) == "NS");
  CHECK(std::string(to_string(bs.kind)) == "BS");

  std::string wire;
  pksk::append_item_attribute_value_json(wire, item);
  CHECK(wire == R"({"ns":{"NS":["-1.5","2","10"]},"bs":{"BS":["AA==","AP8="]},"b":{"B":"AA=="}})");

  // The plain body: under the empty name, as binary is, numbers or base64 strings.
  std::string plain;
  pksk::append_plain_json(plain, item);
  CHECK(plain == R"({"ns":{"":[-1.5,2,10]},"bs":{"":["AA==","AP8="]},"b":{"":"AA=="}})");
  const AttributeValue back = pksk::parse_plain_body(plain);
  CHECK(back == item);
  CHECK(back.find("ns")->kind == AttributeValue::Kind::number_set);
  CHECK(back.find("bs")->kind == AttributeValue::Kind::binary_set);
  // A body written before sets had this form reads as it did: an empty-named array of
  // anything else is a map.
  CHECK(pksk::parse_plain_body(R"({"m":{"":[1,"x"]}})").find("m")->kind ==
        AttributeValue::Kind::map);
  CHECK_THROWS_AS(pksk::parse_plain_body(R"({"bs":{"":["not base64!"]}})"), pksk::DecodeError);
  // A plain body is one object, as an AttributeValue body is.
  CHECK_THROWS_WITH(pksk::parse_plain_body(R"({"a":1}{"b":2})"),
                    Catch::Contains("text after the object"));
  CHECK_THROWS_AS(pksk::parse_attribute_value_body(R"({"ns":{"NS":["1x"]}})"), pksk::DecodeError);

  // Sets of different types differ; the same numbers written differently are equal.
  CHECK(AttributeValue::from_number_set({"1.50", "3"}) ==
        AttributeValue::from_number_set({"3", "1.5"}));
  CHECK_FALSE(AttributeValue::from_number_set({"1"}) == AttributeValue::from_set({"1"}));
  CHECK_FALSE(AttributeValue::from_binary_set({"a"}) == AttributeValue::from_set({"a"}));

  // DynamoDB's size: a number set its numbers' sizes, a binary set its bytes.
  CHECK(pksk::attribute_size(ns) ==
        pksk::number_size("-1.5") + pksk::number_size("2") + pksk::number_size("10"));
  CHECK(pksk::attribute_size(bs) == 3);
}

TEST_CASE("attribute values: contains, size and ADD on number and binary sets") {
  using pksk::AttributeValue;
  using pksk::backend::UpdateAction;
  AttributeValue item = AttributeValue::empty_map();
  item.assign("ns", AttributeValue::from_number_set({"1", "2.5"}));
  item.assign("bs", AttributeValue::from_binary_set({"ab", "cd"}));

  using pksk::backend::Condition;
  using pksk::backend::Operand;
  const auto contains = [&](std::string name, AttributeValue operand) {
    Condition c;
    c.op = Condition::Op::contains;
    c.operands.push_back(Operand{.kind = Operand::Kind::path, .path = {{{.name = name}}}});
    c.operands.push_back(Operand{.kind = Operand::Kind::value, .value = std::move(operand)});
    return pksk::backend::evaluate(c, item);
  };
  CHECK(contains("ns", AttributeValue::from_number("2.50")));
  CHECK_FALSE(contains("ns", AttributeValue::from_number("2.4")));
  CHECK_FALSE(contains("ns", AttributeValue::from_string("1")));
  CHECK(contains("bs", AttributeValue::from_binary("cd")));
  CHECK_FALSE(contains("bs", AttributeValue::from_string("cd")));
  Condition size;
  size.op = Condition::Op::eq;
  size.operands.push_back(Operand{.kind = Operand::Kind::size, .path = {{{.name = "bs"}}}});
  size.operands.push_back(Operand{.value = AttributeValue::from_number("2")});
  CHECK(pksk::backend::evaluate(size, item));

  UpdateAction add;
  add.kind = UpdateAction::Kind::add;
  add.path.steps.push_back({.name = "ns"});
  add.value = AttributeValue::from_number_set({"2.50", "3"});
  pksk::backend::apply(add, item);
  CHECK(item.find("ns")->set == std::vector<std::string>{"1", "2.5", "3"});

  add.path.steps[0].name = "bs";
  add.value = AttributeValue::from_binary_set({"ab", "\x01"});
  pksk::backend::apply(add, item);
  CHECK(item.find("bs")->set == std::vector<std::string>{"\x01", "ab", "cd"});

  // A set of another type is refused, as DynamoDB refuses it.
  add.value = AttributeValue::from_number_set({"1"});
  CHECK_THROWS_AS(pksk::backend::apply(add, item), pksk::ValidationError);
}
