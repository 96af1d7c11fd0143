// SPDX-License-Identifier: BSL-1.0
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pksk/codec/attribute_value_json.hpp>
#include <pksk/codec/codec.hpp>
#include <pksk/codec/item_size.hpp>
#include <pksk/reflect/equal.hpp>

#include "test_codec_types.hpp"

using namespace codec_test;
using namespace std::chrono_literals;

namespace {

std::chrono::system_clock::time_point utc(std::chrono::sys_days day,
                                          std::chrono::system_clock::duration since_midnight) {
  return std::chrono::system_clock::time_point{day} + since_midnight;
}

Everything sample() {
  using namespace std::chrono;
  Everything e;
  e.text = "caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80 \"q\" \\ \n\t\x01";
  e.flag = true;
  e.i8 = std::numeric_limits<std::int8_t>::min();
  e.u8 = std::numeric_limits<std::uint8_t>::max();
  e.i16 = -32768;
  e.u16 = 65535;
  e.i32 = std::numeric_limits<std::int32_t>::min();
  e.u32 = std::numeric_limits<std::uint32_t>::max();
  e.i64 = std::numeric_limits<std::int64_t>::min();
  e.u64 = std::numeric_limits<std::uint64_t>::max();
  e.f = 0.1f;
  e.d = 0.1;
  e.status = Status::cancelled;
  e.maybe_int = 0;
  e.maybe_address = Address{"Paris", std::nullopt};
  e.names = {"a", "", "c"};
  e.items = {{"sku-1", 1, 9.99}, {"sku-2", -2, 1e308}, {"sku-3", 3, -0.0}};
  e.matrix = {{1, 2}, {}, {3}};
  e.bits = {true, false, true};
  e.sparse = {"x", std::nullopt, "z"};
  e.groups = {{"evens", {2, 4}}, {"empty", {}}, {"we\"ird key", {1}}};
  e.addresses = {{"home", {"Oslo", "0150"}}};
  e.tags = {"b", "a", "\xC3\xA9"};
  e.at = utc(2024y / February / 29, 23h + 59min + 58s + 123456789ns);
  e.home = {"Lyon", "69001"};
  return e;
}

template <class T>
T round_trip(const T& value) {
  std::string body;
  pksk::encode_body(value, body);
  pksk::BodyDecoder decoder;
  T out{};
  decoder.decode(body, out);
  return out;
}

template <class T>
std::string body_of(const T& value) {
  std::string body;
  pksk::encode_body(value, body);
  return body;
}

std::string decode_error(std::string_view json) {
  pksk::BodyDecoder decoder;
  Everything out;
  try {
    decoder.decode(json, out);
  } catch (const pksk::DecodeError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("body: exact JSON text of an Order") {
  const Order order{.customer_id = "123",
                    .order_id = "2020-12-06",
                    .status = "shipped",
                    .total = 59.98,
                    .items = {{"A-1", 2, 19.99}, {"B-2", 1, 20}}};
  CHECK(body_of(order) ==
        R"({"customer_id":"123","order_id":"2020-12-06","status":"shipped","total":59.98,)"
        R"("items":[{"sku":"A-1","qty":2,"price":19.99},{"sku":"B-2","qty":1,"price":20}]})");

  Order noted = order;
  noted.items.clear();
  noted.note = "leave at door";
  CHECK(body_of(noted) ==
        R"({"customer_id":"123","order_id":"2020-12-06","status":"shipped","total":59.98,)"
        R"("items":[],"note":"leave at door"})");
}

TEST_CASE("body: exact JSON text of every member type") {
  Everything e = sample();
  // A char: assigning a one-character literal makes g++ 12 at -O2 report a bogus -Wrestrict
  // (GCC bug 105329).
  e.text = 't';
  e.f = 1.5f;
  e.d = -0.0;
  e.maybe_int.reset();
  e.addresses.clear();
  e.tags = {"y", "x"};
  e.groups = {{"g", {1}}};
  e.at = utc(std::chrono::sys_days{std::chrono::year{1969} / 12 / 31}, 1ns);
  CHECK(body_of(e) ==
        R"({"text":"t","flag":true,"i8":-128,"u8":255,"i16":-32768,"u16":65535,)"
        R"("i32":-2147483648,"u32":4294967295,"i64":-9223372036854775808,)"
        R"("u64":18446744073709551615,"f":1.5,"d":-0,"status":"cancelled",)"
        R"("maybe_address":{"city":"Paris"},"names":["a","","c"],)"
        R"("items":[{"sku":"sku-1","qty":1,"price":9.99},{"sku":"sku-2","qty":-2,"price":1e+308},)"
        R"({"sku":"sku-3","qty":3,"price":-0}],"matrix":[[1,2],[],[3]],"bits":[true,false,true],)"
        R"("sparse":["x",null,"z"],"groups":{"g":[1]},"addresses":{},"tags":["x","y"],)"
        R"("at":"1969-12-31T00:00:00.000000001Z","home":{"city":"Lyon","zip":"69001"}})");
}

TEST_CASE("body: every member type round-trips") {
  const Everything e = sample();
  const Everything back = round_trip(e);
  CHECK(back == e);
  CHECK(std::signbit(back.items[2].price));
  CHECK(back.at == e.at);
}

TEST_CASE("body: floating point edge values round-trip exactly") {
  for (double d : {0.1, 1e308, -0.0, 5e-324, 2.2250738585072009e-308, -1.7976931348623157e308,
                   123456789.125, 1.0 / 3}) {
    Everything e;
    e.d = d;
    e.f = static_cast<float>(d == 1e308 || d < -1e300 ? 3.4e38 : d);
    const Everything back = round_trip(e);
    CHECK(back.d == d);
    CHECK(std::signbit(back.d) == std::signbit(d));
    CHECK(back.f == e.f);
  }
  for (float f : {std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max(), 0.3f,
                  16777217.0f, 1e-10f}) {
    Everything e;
    e.f = f;
    CHECK(round_trip(e).f == f);
  }
}

TEST_CASE("body: time points keep full precision, before and after the epoch") {
  using namespace std::chrono;
  using Clock = system_clock;
  for (Clock::time_point tp :
       {Clock::time_point{}, utc(1900y / January / 1, 0ns),
        utc(1969y / December / 31, 23h + 59min + 59s + 999999999ns),
        utc(2024y / February / 29, 23h + 59min + 58s + 123456789ns), Clock::time_point::min(),
        Clock::time_point::max(), Clock::time_point{Clock::duration{-1}}}) {
    Everything e;
    e.at = tp;
    CHECK(round_trip(e).at == tp);
  }
  Everything e;
  e.at = utc(2024y / February / 29, 23h + 59min + 58s + 123456789ns);
  CHECK(body_of(e).find(R"("at":"2024-02-29T23:59:58.123456789Z")") != std::string::npos);
  e.at = Clock::time_point{Clock::duration{-1}};
  CHECK(body_of(e).find(R"("at":"1969-12-31T23:59:59.999999999Z")") != std::string::npos);

  // Fewer fraction digits (or none) are accepted; the value is the same instant.
  pksk::BodyDecoder decoder;
  Everything out;
  decoder.decode(R"({"at":"2024-02-29T23:59:58.5Z"})", out);
  CHECK(out.at == utc(2024y / February / 29, 23h + 59min + 58s + 500ms));
  decoder.decode(R"({"at":"1960-01-01T00:00:00Z"})", out);
  CHECK(out.at == utc(1960y / January / 1, 0ns));
}

TEST_CASE("body: a timestamp another program wrote with an offset reads as the instant it names") {
  using namespace std::chrono;
  pksk::BodyDecoder decoder;
  Everything out;
  decoder.decode(R"({"at":"2024-02-29T23:59:58.5+02:00"})", out);
  CHECK(out.at == utc(2024y / February / 29, 21h + 59min + 58s + 500ms));
  decoder.decode(R"({"at":"2024-02-29T23:59:58+00:00"})", out);
  CHECK(out.at == utc(2024y / February / 29, 23h + 59min + 58s));
  decoder.decode(R"({"at":"2024-02-29T20:30:00-05:30"})", out);
  CHECK(out.at == utc(2024y / March / 1, 2h));
  decoder.decode<pksk::BodyFormat::attribute_value>(R"({"at":{"S":"1970-01-01T01:00:00+01:00"}})",
                                                    out);
  CHECK(out.at == system_clock::time_point{});
  // Written back, it is UTC again.
  CHECK(body_of(out).find(R"("at":"1970-01-01T00:00:00)") != std::string::npos);
  for (const char* bad :
       {"2024-02-29T23:59:58+1:00", "2024-02-29T23:59:58+0100", "2024-02-29T23:59:58+24:00",
        "2024-02-29T23:59:58+01:60", "2024-02-29T23:59:58+01:00Z", "2024-02-29T23:59:58+01:0"}) {
    CHECK_THAT(decode_error(std::string(R"({"at":")") + bad + "\"}"),
               Catch::StartsWith("at $.at: expected an ISO 8601 timestamp") &&
                   Catch::Contains("or an offset such as +02:00"));
  }
}

TEST_CASE("body: a Hana-adapted struct and a Hana-defined struct") {
  const AdaptedPoint p{.x = 1.5, .hidden = 7, .y = -2};
  CHECK(body_of(p) == R"({"x":1.5,"y":-2})");
  const AdaptedPoint back = round_trip(p);
  CHECK(back.x == 1.5);
  CHECK(back.y == -2);
  CHECK(back.hidden == 0);  // not a field

  Defined d;
  d.name = "Ada";
  d.age = 36;
  d.status = Status::shipped;
  CHECK(body_of(d) == R"({"name":"Ada","age":36,"status":"shipped"})");
  CHECK(round_trip(d) == d);
}

TEST_CASE("body: string escaping and unicode") {
  Address a;
  a.city = std::string("\"\\/\b\f\n\r\t\x01\x1f\x7f") + "\xC3\xA9\xE6\x97\xA5\xF0\x9F\x98\x80";
  CHECK(body_of(a) ==
        "{\"city\":\"\\\"\\\\/"
        "\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\xC3\xA9\xE6\x97\xA5\xF0\x9F\x98\x80\"}");
  CHECK(round_trip(a) == a);

  a.city = std::string("nul\0inside", 10);
  CHECK(body_of(a) == "{\"city\":\"nul\\u0000inside\"}");
  CHECK(round_trip(a) == a);

  // Escapes that encode_body never writes are still read: \u escapes, surrogate pairs, \/.
  pksk::BodyDecoder decoder;
  Address out;
  decoder.decode(R"({"city":"caf\u00e9 \u65e5\u672c \uD83D\uDE00 \/"})", out);
  CHECK(out.city == "caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80 /");
}

TEST_CASE("body: NaN and infinities are EncodeErrors naming the field path") {
  std::string body;
  Order order;
  order.items = {{"a", 1, 1}, {"b", 1, std::numeric_limits<double>::quiet_NaN()}};
  REQUIRE_THROWS_AS(pksk::encode_body(order, body), pksk::EncodeError);
  REQUIRE_THROWS_WITH(pksk::encode_body(order, body),
                      Catch::Contains("$.items[1].price") && Catch::Contains("NaN"));
  order.items.clear();
  order.total = -std::numeric_limits<double>::infinity();
  REQUIRE_THROWS_WITH(pksk::encode_body(order, body),
                      Catch::Contains("$.total") && Catch::Contains("infinity"));
  Everything e;
  e.f = std::numeric_limits<float>::infinity();
  REQUIRE_THROWS_WITH(pksk::encode_body(e, body), Catch::Contains("$.f"));
}

TEST_CASE("body: an enum value without a name is an EncodeError") {
  Everything e;
  e.status = static_cast<Status>(3);
  std::string body;
  REQUIRE_THROWS_AS(pksk::encode_body(e, body), pksk::EncodeError);
  REQUIRE_THROWS_WITH(pksk::encode_body(e, body),
                      Catch::Contains("$.status") && Catch::Contains("3"));
}

TEST_CASE("body: DecodeErrors name the path, what was expected and what was found") {
  CHECK(decode_error(R"({"items":[{},{},{"qty":"two"}]})") ==
        "at $.items[2].qty: expected an integer, found a string");
  CHECK(decode_error(R"({"items":[{"qty":1.5}]})") ==
        "at $.items[0].qty: expected an integer, found the number 1.5");
  CHECK(decode_error(R"({"i8":128})") ==
        "at $.i8: expected an integer between -128 and 127, found the number 128");
  CHECK(decode_error(R"({"u8":-1})") ==
        "at $.u8: expected an integer between 0 and 255, found the number -1");
  CHECK(decode_error(R"({"u32":4294967296})") ==
        "at $.u32: expected an integer between 0 and 4294967295, found the number 4294967296");
  CHECK_THAT(decode_error(R"({"i64":9223372036854775808})"),
             Catch::StartsWith("at $.i64: expected an integer between -9223372036854775808 and "
                               "9223372036854775807, found"));
  CHECK_THAT(decode_error(R"({"u64":-1})"), Catch::StartsWith("at $.u64: expected an integer"));
  CHECK_THAT(decode_error(R"({"u64":18446744073709551616})"),
             Catch::StartsWith("at $.u64: expected an integer between 0 and"));
  CHECK(decode_error(R"({"text":12})") == "at $.text: expected a string, found the number 12");
  CHECK(decode_error(R"({"flag":"yes"})") == "at $.flag: expected a boolean, found a string");
  CHECK(decode_error(R"({"d":null})") == "at $.d: expected a number, found null");
  CHECK_THAT(decode_error(R"({"f":1e39})"),
             Catch::StartsWith("at $.f: expected a number in the range of float, found"));
  CHECK(decode_error(R"({"status":"lost"})") ==
        "at $.status: expected one of pending, shipped, cancelled, found \"lost\"");
  CHECK(decode_error(R"({"status":1})") ==
        "at $.status: expected an enumerator name (one of pending, shipped, cancelled), found "
        "the number 1");
  CHECK_THAT(decode_error(R"({"at":"2024-02-30T00:00:00Z"})"),
             Catch::StartsWith("at $.at: expected an ISO 8601 timestamp") &&
                 Catch::EndsWith("found \"2024-02-30T00:00:00Z\""));
  for (const char* bad :
       {"2024-02-29T23:59:58.1234567891Z", "2024-02-29T23:59:58", "2024-02-29T23:59:58+01",
        "2024-02-29 23:59:58Z", "2024-02-29T24:00:00Z", "2024-02-29T23:59:58.Z",
        "2024-2-29T23:59:58Z", "2024-02-29T23:59:60Z", "3000-01-01T00:00:00Z", ""}) {
    CHECK_THAT(decode_error(std::string(R"({"at":")") + bad + "\"}"),
               Catch::StartsWith("at $.at: expected an ISO 8601 timestamp"));
  }
  CHECK(decode_error(R"({"home":{"city":["x"]}})") ==
        "at $.home.city: expected a string, found an array");
  CHECK(decode_error(R"({"home":"Lyon"})") == "at $.home: expected an object, found a string");
  CHECK(decode_error(R"({"groups":{"a b":[1,"x"]}})") ==
        "at $.groups[\"a b\"][1]: expected an integer, found a string");
  CHECK(decode_error(R"({"addresses":{"k":{"zip":7}}})") ==
        "at $.addresses.k.zip: expected a string, found the number 7");
  CHECK(decode_error(R"({"tags":["a",1]})") ==
        "at $.tags[1]: expected a string, found the number 1");
  CHECK(decode_error(R"({"matrix":[[1],[2,true]]})") ==
        "at $.matrix[1][1]: expected an integer, found a boolean");
  CHECK(decode_error(R"({"names":{}})") == "at $.names: expected an array, found an object");
  CHECK(decode_error("[1,2]") == "at $: expected an object, found another JSON value");
}

TEST_CASE("body: invalid JSON is a DecodeError") {
  for (const char* bad : {"", "{", "{\"text\":", "{\"text\":\"abc}", "{\"text\" \"x\"}",
                          "{\"text\":\"x\",}", "{\"text\":\"x\"}}", "{\"text\":\"x\"} {}",
                          "{\"flag\":tru}", "{\"items\":[{\"qty\":1}", "nul", "\xff"}) {
    INFO(bad);
    CHECK_THAT(decode_error(bad), Catch::StartsWith("at $") && Catch::Contains("JSON"));
  }
}

TEST_CASE("body: unknown fields are ignored, missing fields take their defaults") {
  pksk::BodyDecoder decoder;
  Defaults out;
  decoder.decode(
      R"({"extra":{"deep":[1,{"x":[]}],"s":"}"},"count":7,"name_2":"no","values":[1],"z":null})",
      out);
  CHECK(out == Defaults{.name = "unnamed", .count = 7, .note = std::nullopt, .values = {1}});

  // Reusing the struct: fields absent from the next item are reset, not kept from the last.
  out.note = "stale";
  out.name = "stale";
  decoder.decode(R"({"values":[]})", out);
  CHECK(out == Defaults{});

  decoder.decode("{}", out);
  CHECK(out == Defaults{});
}

TEST_CASE("body: JSON null means an empty optional") {
  pksk::BodyDecoder decoder;
  Everything out;
  out.maybe_int = 5;
  out.maybe_address = Address{"x", "y"};
  decoder.decode(R"({"maybe_int":null,"maybe_address":null,"sparse":[null,"a"]})", out);
  CHECK_FALSE(out.maybe_int);
  CHECK_FALSE(out.maybe_address);
  CHECK(out.sparse == std::vector<std::optional<std::string>>{std::nullopt, "a"});
}

TEST_CASE("body: one decoder reused across many different bodies") {
  pksk::BodyDecoder decoder;
  Everything big = sample();
  big.names.assign(5000, std::string(40, 'x'));
  std::string big_body = body_of(big);
  REQUIRE(big_body.size() > 200000);

  const Everything small = sample();
  const std::string small_body = body_of(small);

  Everything out;
  for (int round = 0; round < 3; ++round) {
    decoder.decode(big_body, out);
    CHECK(out == big);
    decoder.decode(small_body, out);
    CHECK(out == small);  // shorter input in a larger buffer: nothing of the big one leaks
    Order order;
    decoder.decode(R"({"customer_id":"c","items":[{"sku":"s","qty":1,"price":2}]})", order);
    CHECK(order.items.size() == 1);
    CHECK_THROWS_AS(decoder.decode("{\"text\":", out), pksk::DecodeError);
  }

  // A reused vector keeps its capacity and shrinks to the new length.
  Order order;
  decoder.decode(
      R"({"items":[{"sku":"a","qty":1},{"sku":"b","qty":2},{"sku":"c","qty":3,"price":1}]})",
      order);
  const auto capacity = order.items.capacity();
  decoder.decode(R"({"items":[{"sku":"z"}]})", order);
  CHECK(order.items == std::vector<LineItem>{{"z", 0, 0}});
  CHECK(order.items.capacity() == capacity);
}

TEST_CASE("body: decode_body convenience") {
  const Order order{.customer_id = "1",
                    .order_id = "2",
                    .status = "s",
                    .total = 1.25,
                    .items = {{"x", 1, 2}},
                    .note = "n"};
  CHECK(pksk::decode_body<Order>(body_of(order)) == order);
  CHECK_THROWS_AS(pksk::decode_body<Order>("{\"total\":\"x\"}"), pksk::DecodeError);
}

TEST_CASE("body: encode reuses the output string") {
  std::string body = "previous contents that must go";
  pksk::encode_body(Address{"a", std::nullopt}, body);
  CHECK(body == R"({"city":"a"})");
}

TEST_CASE("body: members in any order, repeated or interleaved with unknown ones") {
  pksk::BodyDecoder decoder;
  Order out;
  decoder.decode(
      R"({"note":"n","x":1,"items":[{"price":2,"sku":"s","qty":3}],"total":1.5,"status":"a",)"
      R"("order_id":"o","customer_id":"c","status":"b"})",
      out);
  CHECK(out == Order{.customer_id = "c",
                     .order_id = "o",
                     .status = "b",
                     .total = 1.5,
                     .items = {{"s", 3, 2}},
                     .note = "n"});
}

namespace {
// Names that share first characters and are prefixes of one another: the decoder's first-
// character filter must still match each key to exactly its own member.
struct SharedPrefixes {
  int i{};
  int id{};
  std::string ident;
  int item{};
  std::vector<int> items;
  int _under{};
};
}  // namespace

TEST_CASE("body: keys that share first characters or prefixes reach their own members") {
  pksk::BodyDecoder decoder;
  SharedPrefixes out{.i = 9, .id = 9, .ident = "old", .item = 9, .items = {9}, ._under = 9};
  decoder.decode(
      R"({"items":[4,5],"":0,"idx":7,"item":3,"i2":8,"_under":6,"ident":"x","id":2,"i":1})", out);
  CHECK(out.i == 1);
  CHECK(out.id == 2);
  CHECK(out.ident == "x");
  CHECK(out.item == 3);
  CHECK(out.items == std::vector<int>{4, 5});
  CHECK(out._under == 6);

  // Each key alone: the others take their defaults back.
  decoder.decode(R"({"ident":"only"})", out);
  CHECK(out.i == 0);
  CHECK(out.id == 0);
  CHECK(out.ident == "only");
  CHECK(out.item == 0);
  CHECK(out.items.empty());
  CHECK(out._under == 0);
}

namespace {
// A record that contains itself: the decoder inlines everything between two records, and this
// is the case that must still compile (and not inline without end) on both compilers.
struct TreeNode {
  std::string name;
  std::vector<TreeNode> children;
  std::optional<std::vector<TreeNode>> spare;
};
}  // namespace

TEST_CASE("body: a record that contains itself round-trips") {
  const TreeNode tree{
      .name = "root",
      .children = {TreeNode{.name = "a"},
                   TreeNode{.name = "b", .children = {TreeNode{.name = "b1"}}, .spare = {{}}}}};
  std::string body;
  pksk::encode_body(tree, body);
  CHECK(body == R"({"name":"root","children":[{"name":"a","children":[]},)"
                R"({"name":"b","children":[{"name":"b1","children":[]}],"spare":[]}]})");
  pksk::BodyDecoder decoder;
  TreeNode out;
  decoder.decode(body, out);
  REQUIRE(out.children.size() == 2);
  CHECK(out.children[1].children[0].name == "b1");
  CHECK(out.children[1].spare.has_value());
  CHECK_FALSE(out.children[0].spare.has_value());
  CHECK(pksk::structurally_equal(out, tree));
  CHECK_THROWS_WITH(decoder.decode(R"({"children":[{"children":[{"name":7}]}]})", out),
                    "at $.children[0].children[0].name: expected a string, found the number 7");
}

namespace {
struct Photo {
  std::string id;
  std::vector<std::byte> bytes;
  std::map<std::string, std::optional<int>> marks;
  friend bool operator==(const Photo&, const Photo&) = default;
};
}  // namespace

TEST_CASE("binary members: base64 in both formats, marked in the plain body", "[codec]") {
  const Photo photo{.id = "p",
                    .bytes = {std::byte{0x00}, std::byte{0xFF}, std::byte{0x10}, std::byte{'"'}},
                    .marks = {{"a", 1}, {"b", std::nullopt}}};
  std::string out;
  pksk::encode_body(photo, out);
  CHECK(out == R"({"id":"p","bytes":{"":"AP8QIg=="},"marks":{"a":1,"b":null}})");
  CHECK(pksk::decode_body<Photo>(out) == photo);
  pksk::encode_attribute_values(photo, out);
  CHECK(
      out ==
      R"({"id":{"S":"p"},"bytes":{"B":"AP8QIg=="},"marks":{"M":{"a":{"N":"1"},"b":{"NULL":true}}}})");
  CHECK(pksk::decode_body<Photo>(out, pksk::BodyFormat::attribute_value) == photo);
  // Every length's padding; the empty value.
  for (std::size_t n = 0; n < 7; ++n) {
    Photo p{.id = "p"};
    for (std::size_t i = 0; i < n; ++i) p.bytes.push_back(static_cast<std::byte>(250 + i));
    pksk::encode_body(p, out);
    CHECK(pksk::decode_body<Photo>(out) == p);
    pksk::encode_attribute_values(p, out);
    CHECK(pksk::decode_body<Photo>(out, pksk::BodyFormat::attribute_value) == p);
  }
  // Its size is its bytes, not their base64 text.
  CHECK(pksk::attributes_size(Photo{.id = "", .bytes = std::vector<std::byte>(300)}) ==
        std::string_view("id").size() + std::string_view("bytes").size() + 300 +
            std::string_view("marks").size() + 3);
  CHECK(pksk::to_attribute_value(photo.bytes).kind == pksk::AttributeValue::Kind::binary);
  // Not base64, or not a binary value: a DecodeError naming the member.
  CHECK_THROWS_AS(pksk::decode_body<Photo>(R"({"bytes":{"":"AP8"}})"), pksk::DecodeError);
  CHECK_THROWS_AS(pksk::decode_body<Photo>(R"({"bytes":"AP8QIg=="})"), pksk::DecodeError);
  CHECK_THROWS_WITH(pksk::decode_body<Photo>(R"({"bytes":{"x":"AP8QIg=="}})"),
                    Catch::Contains("$.bytes"));
  CHECK_THROWS_AS(
      pksk::decode_body<Photo>(R"({"bytes":{"S":"AP8QIg=="}})", pksk::BodyFormat::attribute_value),
      pksk::DecodeError);
}
