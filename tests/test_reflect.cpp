// SPDX-License-Identifier: BSL-1.0
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/hana/adapt_struct.hpp>
#include <boost/hana/define_struct.hpp>
#include <pksk/reflect/enum_name.hpp>
#include <pksk/reflect/reflect.hpp>

namespace {

struct LineItem {
  std::string sku;
  int qty{};
  double price{};
};
struct Order {
  std::string customer_id;
  std::string order_id;
  std::optional<std::string> note;
  std::vector<LineItem> items;
  std::map<std::string, int> tags;
};
struct Empty {};

struct Defined {
  BOOST_HANA_DEFINE_STRUCT(Defined, (std::string, name), (int, age));
};

enum class Color { red, green = 5, blue = -3 };
enum Plain { one = 1, two = 2 };
enum Tiny : std::uint8_t { tiny_zero, tiny_max = 255 };
enum class Wide : std::int64_t { low = -100, high = 200 };

}  // namespace

// Adapted after the fact, and only in part: the unadapted member is not a field.
struct Adapted {
  std::string id;
  int hidden = 0;
  double score = 0;
};
BOOST_HANA_ADAPT_STRUCT(Adapted, id, score);

// Compile-time: names are usable in constant expressions, which key templates rely on.
static_assert(pksk::field_count_v<Order> == 5);
static_assert(pksk::field_names_v<Order>[0] == "customer_id");
static_assert(pksk::field_names_v<Order>[4] == "tags");
static_assert(pksk::field_names_v<LineItem>[2] == "price");
static_assert(pksk::field_count_v<Empty> == 0);
static_assert(pksk::field_index<Order>("note") == 2);
static_assert(pksk::field_index<Order>("nope") == pksk::field_count_v<Order>);
static_assert(pksk::field_names_v<Defined>[1] == "age");
static_assert(pksk::field_count_v<Adapted> == 2 && pksk::field_names_v<Adapted>[1] == "score");
static_assert(std::is_same_v<pksk::field_type_t<Order, 2>, std::optional<std::string>>);
static_assert(pksk::enum_name(Color::blue) == "blue");

TEST_CASE("aggregate fields are reached by index and visited in order") {
  Order order{.customer_id = "c1", .order_id = "2020-12-06"};
  pksk::get_field<1>(order) = "2021-01-01";
  CHECK(order.order_id == "2021-01-01");

  std::vector<std::string> seen;
  pksk::for_each_field(order, [&](auto index, auto& field) {
    seen.emplace_back(pksk::field_names_v<Order>[index]);
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(field)>, std::string>) {
      seen.back() += "=" + field;
    }
  });
  CHECK(seen ==
        std::vector<std::string>{"customer_id=c1", "order_id=2021-01-01", "note", "items", "tags"});

  const Order& view = order;
  CHECK(pksk::get_field<0>(view) == "c1");
}

TEST_CASE("hana-defined and hana-adapted structs go through the same interface") {
  Defined defined;
  defined.name = "Ada";
  defined.age = 36;
  CHECK(pksk::get_field<0>(defined) == "Ada");
  CHECK(pksk::get_field<1>(defined) == 36);

  Adapted adapted{"a1", 7, 2.5};
  std::vector<std::string> names;
  pksk::for_each_field(
      adapted, [&](auto index, auto&) { names.emplace_back(pksk::field_names_v<Adapted>[index]); });
  CHECK(names == std::vector<std::string>{"id", "score"});
  CHECK(pksk::get_field<1>(adapted) == 2.5);
}

TEST_CASE("enum values map to their names and back") {
  CHECK(pksk::enum_name(Color::red) == "red");
  CHECK(pksk::enum_name(Color::green) == "green");
  CHECK(pksk::enum_name(static_cast<Color>(7)).empty());
  CHECK(pksk::enum_name(two) == "two");
  CHECK(pksk::enum_name(tiny_max) == "tiny_max");
  CHECK(pksk::enum_name(Wide::low) == "low");
  CHECK(pksk::enum_from_name<Color>("blue") == Color::blue);
  CHECK(pksk::enum_from_name<Plain>("one") == one);
  CHECK_FALSE(pksk::enum_from_name<Color>("Blue").has_value());
  CHECK_FALSE(pksk::enum_from_name<Color>("").has_value());
}
