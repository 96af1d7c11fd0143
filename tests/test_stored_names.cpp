// SPDX-License-Identifier: BSL-1.0
// Stored attribute names (key/stored_names.hpp): case conversion of names that are and are not
// snake_case, renames to names that are no identifiers, in both body formats and in the item
// size. What a table does with them is in the conformance suite (cases_names.hpp).
#include <catch2/catch.hpp>

#include <array>
#include <bitset>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <pksk/codec/codec.hpp>
#include <pksk/codec/item_size.hpp>
#include <pksk/key/read_back.hpp>
#include <pksk/pksk.hpp>

namespace names_test {

struct Shapes {
  std::string customer_id;  // snake_case
  int line_2{};             // a digit after the underscore
  int _hidden{};            // leading underscore
  int trailing_{};          // trailing underscore
  int a__b{};               // doubled underscore
  int customerID{};         // upper case kept
  int x_Y{};                // an underscore before an upper-case letter is kept
  int plain{};
};

struct Odd {
  std::string id;
  std::string quoted;
  std::string accented;
  std::optional<int> control;
  int dotted{};
};

struct Inner {
  std::string first_name;
  int shoe_size{};
  friend bool operator==(const Inner&, const Inner&) = default;
};
struct Outer {
  std::string id;
  Inner inner_record;
  friend bool operator==(const Outer&, const Outer&) = default;
};

struct Untouched {
  std::string customer_id;
};

// Odd and Outer with their C++ names stored.
struct OddPlain {
  std::string id;
  std::string quoted;
  std::string accented;
  std::optional<int> control;
  int dotted{};
};
struct InnerPlain {
  std::string first_name;
  int shoe_size{};
};
struct OuterPlain {
  std::string id;
  InnerPlain inner_record;
};

}  // namespace names_test

using namespace names_test;

template <>
struct pksk::Attributes<Shapes> {
  static constexpr pksk::Case attribute_case = pksk::Case::camel;
};
template <>
struct pksk::Entity<Odd> {
  static constexpr std::string_view type = "Odd";
  static constexpr std::string_view pk = "ODD#{id}";
  static constexpr std::string_view sk = "O";
  static constexpr std::array renames = {pksk::Rename{"quoted", "say \"hi\" \\ there"},
                                         pksk::Rename{"accented",
                                                      "Gr\xC3\xB6\xC3\x9F"
                                                      "e"},
                                         pksk::Rename{"control", "tab\there"},
                                         pksk::Rename{"dotted", "a.b"}};
};
template <>
struct pksk::Attributes<Inner> {
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"shoe_size", "Size (EU)"}};
};
template <>
struct pksk::Entity<Outer> {
  static constexpr std::string_view type = "Outer";
  static constexpr std::string_view pk = "OUTER#{id}";
  static constexpr std::string_view sk = "O";
  static constexpr pksk::Case attribute_case = pksk::Case::camel;
};

namespace {

template <class T>
std::string body_of(const T& value, pksk::BodyFormat format = pksk::BodyFormat::json) {
  std::string out;
  if (format == pksk::BodyFormat::json) {
    pksk::encode_body(value, out);
  } else {
    pksk::encode_attribute_values(value, out);
  }
  return out;
}

Odd odd() {
  return Odd{"1", "q", "a", 7, 3};
}

}  // namespace

TEST_CASE("stored names: case conversion of snake_case names and of names that are not") {
  using pksk::stored_names_v;
  CHECK(stored_names_v<Shapes>[0] == "customerId");
  CHECK(stored_names_v<Shapes>[1] == "line2");
  CHECK(stored_names_v<Shapes>[2] == "_hidden");
  CHECK(stored_names_v<Shapes>[3] == "trailing_");
  CHECK(stored_names_v<Shapes>[4] == "a__b");
  CHECK(stored_names_v<Shapes>[5] == "customerID");
  CHECK(stored_names_v<Shapes>[6] == "x_Y");
  CHECK(stored_names_v<Shapes>[7] == "plain");
  CHECK(stored_names_v<Inner>[0] == "FirstName");
  CHECK(stored_names_v<Inner>[1] == "Size (EU)");
  // Without a policy, the member names themselves: nothing is computed.
  STATIC_REQUIRE(&stored_names_v<Untouched> == &pksk::field_names_v<Untouched>);
}

TEST_CASE("stored names: names that are no identifiers, escaped in both formats") {
  const Odd o = odd();
  const std::string json = body_of(o);
  CHECK(json ==
        "{\"id\":\"1\",\"say \\\"hi\\\" \\\\ there\":\"q\",\"Gr\xC3\xB6\xC3\x9F"
        "e\":\"a\",\"tab\\there\":7,\"a.b\":3}");
  CHECK(pksk::decode_body<Odd>(json).quoted == "q");
  const Odd back = pksk::decode_body<Odd>(json);
  CHECK(back.accented == "a");
  CHECK(back.control == 7);
  CHECK(back.dotted == 3);

  const std::string av = body_of(o, pksk::BodyFormat::attribute_value);
  CHECK(av.find("\"say \\\"hi\\\" \\\\ there\":{\"S\":\"q\"}") != std::string::npos);
  CHECK(av.find("\"tab\\there\":{\"N\":\"7\"}") != std::string::npos);
  const Odd back_av = pksk::decode_body<Odd>(av, pksk::BodyFormat::attribute_value);
  CHECK(back_av.quoted == "q");
  CHECK(back_av.accented == "a");
  CHECK(back_av.control == 7);
  CHECK(back_av.dotted == 3);
}

TEST_CASE("stored names: a key another writer escaped otherwise still matches") {
  // \u escapes for the quote, the non-ASCII letters (one as a surrogate-free BMP code point
  // each) and the tab; \/ for nothing that needed it.
  const std::string json =
      R"({"id":"1","say \u0022hi\u0022 \u005c there":"q","Gr\u00f6\u00dfe":"a",)"
      R"("tab\u0009here":7,"a.b":3})";
  const Odd back = pksk::decode_body<Odd>(json);
  CHECK(back.quoted == "q");
  CHECK(back.accented == "a");
  CHECK(back.control == 7);
  // A near miss matches nothing: the member keeps its default.
  const Odd missed = pksk::decode_body<Odd>(R"({"id":"1","Gr\u00f6\u00dfen":"a","tab\u0009":1})");
  CHECK(missed.accented.empty());
  CHECK_FALSE(missed.control);
}

TEST_CASE("stored names: a nested record's own names, in both formats") {
  const Outer o{"1", {"Ada", 38}};
  const std::string json = body_of(o);
  CHECK(json == R"j({"id":"1","innerRecord":{"FirstName":"Ada","Size (EU)":38}})j");
  CHECK(pksk::decode_body<Outer>(json) == o);
  const std::string av = body_of(o, pksk::BodyFormat::attribute_value);
  CHECK(av == R"j({"id":{"S":"1"},"innerRecord":{"M":{"FirstName":{"S":"Ada"},)j"
              R"j("Size (EU)":{"N":"38"}}}})j");
  CHECK(pksk::decode_body<Outer>(av, pksk::BodyFormat::attribute_value) == o);
}

TEST_CASE("stored names: the item size counts the stored names' bytes") {
  // The same values under the C++ names, to tell the names' share of the size apart.
  const Outer o{"1", {"Ada", 38}};
  const OuterPlain plain{"1", {"Ada", 38}};
  // innerRecord, FirstName and "Size (EU)" against inner_record, first_name and shoe_size.
  CHECK(pksk::attributes_size(o) + 2 == pksk::attributes_size(plain));
  const Odd d = odd();
  const OddPlain d_plain{"1", "q", "a", 7, 3};
  // "say \"hi\" \\ there" is 16 bytes unescaped against "quoted" 6, "Größe" 7 against
  // "accented" 8, "tab\there" 8 against "control" 7, "a.b" 3 against "dotted" 6.
  CHECK(pksk::attributes_size(d) == pksk::attributes_size(d_plain) + 10 - 1 + 1 - 3);
}

// ---------------------------------------------------------------------------------------------
// Key members read back from the keys (key/read_back.hpp), and not stored at all.

namespace keys_test {

enum class Tier { free, pro };

struct Everything {
  std::string name;
  std::int8_t small{};
  std::uint64_t big{};
  std::int64_t signed_big{};
  Tier tier{};
  std::chrono::system_clock::time_point at{};
  int partition_number{};
};

struct ClassicOrder {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double amount{};
};
// The same, its key members kept only in its keys.
struct LeanOrder {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double amount{};
};

}  // namespace keys_test

template <>
struct pksk::Entity<keys_test::Everything> {
  static constexpr std::string_view type = "Everything";
  static constexpr std::string_view pk = "E#{partition_number}#{name}";
  static constexpr std::string_view sk = "{small}.{tier}x{big}-{signed_big}@{at}";
};
template <>
struct pksk::Entity<keys_test::ClassicOrder> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"amount", "Total"}};
};
template <>
struct pksk::Entity<keys_test::LeanOrder> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"amount", "Total"}};
  static constexpr bool store_key_members = false;
};

TEST_CASE("every key field type reads back from its key text", "[keys]") {
  using keys_test::Everything;
  using keys_test::Tier;
  const auto at =
      std::chrono::system_clock::time_point{} + std::chrono::nanoseconds(1'700'000'000'123'456'789);
  for (const Everything& e :
       {Everything{"n", -128, 0, std::numeric_limits<std::int64_t>::min(), Tier::free, at, -5},
        Everything{"ü", 127, std::numeric_limits<std::uint64_t>::max(),
                   std::numeric_limits<std::int64_t>::max(), Tier::pro, at, 0},
        Everything{"x y", 0, 42, -1, Tier::pro, {}, 2147483647}}) {
    std::string pk;
    std::string sk;
    pksk::format_partition_key(e, pk);
    pksk::format_sort_key(e, sk);
    INFO(pk << " " << sk);
    Everything back;
    std::bitset<pksk::field_count_v<Everything>> missing;
    missing.set();
    pksk::detail::read_back_key_members(pk, sk, back, missing);
    CHECK(back.name == e.name);
    CHECK(back.small == e.small);
    CHECK(back.big == e.big);
    CHECK(back.signed_big == e.signed_big);
    CHECK(back.tier == e.tier);
    CHECK(back.at == e.at);
    CHECK(back.partition_number == e.partition_number);
  }
  Everything back;
  std::bitset<pksk::field_count_v<Everything>> missing;
  missing.set();
  constexpr std::string_view good_sk =
      "128.freex00000000000000000001-09223372036854775808@2023-11-14T22:13:20Z";
  pksk::detail::read_back_key_members("E#1#n", good_sk, back, missing);
  CHECK(back.big == 1);
  CHECK(back.signed_big == 0);
  for (const auto& [pk, sk] : std::initializer_list<std::pair<std::string_view, std::string_view>>{
           {"E#1#n", "128.x00000000000000000001-09223372036854775808@2023-11-14T22:13:20Z"},
           {"E#1#n", "128.freex1-09223372036854775808@2023-11-14T22:13:20Z"},
           {"E#1#n", "128.basicx00000000000000000001-09223372036854775808@2023-11-14T22:13:20Z"},
           {"E#1#n", "128.freex00000000000000000001-09223372036854775808@yesterday"},
           {"E#1#n", "128.freex00000000000000000001-09223372036854775808"},
           {"E#x#n", good_sk},
           {"E#1", good_sk},
           {"E#1#", good_sk},
           {"E#1#n#m", good_sk}}) {
    INFO(pk << " " << sk);
    CHECK_THROWS_AS(pksk::detail::read_back_key_members(pk, sk, back, missing), pksk::DecodeError);
  }
}

TEST_CASE("store_key_members = false: the ids cost their bytes once, in the keys", "[keys]") {
  using keys_test::ClassicOrder;
  const ClassicOrder order{"123", "2020-12-06", "shipped", 59.98};
  std::string pk;
  std::string sk;
  pksk::format_partition_key(order, pk);
  pksk::format_sort_key(order, sk);
  const pksk::KeyAttributeSizes keys{"PK", pk, "SK", sk, "Type", "Order"};
  CHECK(pksk::item_size(keys, order) == 93);
  std::string body;
  pksk::encode_body(order, body);
  CHECK(body == R"({"CustomerId":"123","OrderId":"2020-12-06","Status":"shipped","Total":59.98})");

  const keys_test::LeanOrder lean{"123", "2020-12-06", "shipped", 59.98};
  CHECK(pksk::item_size(keys, lean) == 93 - 30);  // CustomerId "123", OrderId "2020-12-06"
  pksk::encode_body(lean, body);
  CHECK(body == R"({"Status":"shipped","Total":59.98})");
  pksk::encode_attribute_values(lean, body);
  CHECK(body == R"({"Status":{"S":"shipped"},"Total":{"N":"59.98"}})");
}
