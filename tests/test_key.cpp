// SPDX-License-Identifier: BSL-1.0
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <boost/hana/define_struct.hpp>
#include <pksk/error.hpp>
#include <pksk/key/collection_rules.hpp>
#include <pksk/key/entity.hpp>
#include <pksk/key/key.hpp>

namespace {

struct LineItem {
  std::string sku;
  int qty{};
  double price{};
};
struct Customer {
  std::string id;
  std::string name;
  std::string email;
};
struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double total{};
  std::vector<LineItem> items;
  std::optional<std::string> note;
};

enum class Status { pending, shipped = 3 };

struct Ticket {
  std::string org;
  Status status{};
  std::int32_t seq{};
  std::uint64_t big{};
};

struct Dashed {
  std::string a;
  std::string b;
  long n{};
};

template <class I>
struct Num {
  I n{};
};

struct Adapted {
  BOOST_HANA_DEFINE_STRUCT(Adapted, (std::string, tenant), (std::uint16_t, shard));
};

// Sort-key shapes for the collision check (all share one partition-key shape).
struct Team {
  std::string org;
  std::string team;
};
struct Topic {
  std::string org;
  std::string topic;
  std::string n;
};
struct Device {
  std::string org;
  std::string team;
  std::string device;
};
struct Slot {
  std::string org;
  std::uint8_t k{};
};
struct Slot12 {
  std::string org;
  std::string k;
};

}  // namespace

template <>
struct pksk::Entity<Team> {
  static constexpr std::string_view type = "Team", pk = "ORG#{org}", sk = "TEAM#{team}";
};
template <>
struct pksk::Entity<Topic> {
  static constexpr std::string_view type = "Topic", pk = "ORG#{org}", sk = "{topic}#{n}";
};
template <>
struct pksk::Entity<Device> {
  static constexpr std::string_view type = "Device", pk = "ORG#{org}", sk = "TEAM#{team}#{device}";
};
template <>
struct pksk::Entity<Slot> {
  static constexpr std::string_view type = "Slot", pk = "ORG#{org}", sk = "TEAM#{k}";
};
template <>
struct pksk::Entity<Slot12> {
  static constexpr std::string_view type = "Slot12", pk = "ORG#{org}", sk = "TEAM#12{k}";
};

// "TEAM#x" from both
static_assert(pksk::detail::sort_keys_may_collide<Team, Topic>());
// a team never holds '#'
static_assert(!pksk::detail::sort_keys_may_collide<Team, Device>());
// "TEAM#007" is a valid team
static_assert(pksk::detail::sort_keys_may_collide<Team, Slot>());
// "TEAM#123" is Slot 123 and Slot12 "3"
static_assert(pksk::detail::sort_keys_may_collide<Slot, Slot12>());
// Device needs a second '#'
static_assert(!pksk::detail::sort_keys_may_collide<Device, Slot>());
static_assert(pksk::detail::check_collection_members<Team, Device>());

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
};
template <>
struct pksk::Entity<Ticket> {
  static constexpr std::string_view type = "Ticket";
  static constexpr std::string_view pk = "ORG#{org}#{seq}";
  static constexpr std::string_view sk = "{status}#{seq}#{big}";
};
// '-' and '.' follow fields here, so values must not contain them.
template <>
struct pksk::Entity<Dashed> {
  static constexpr std::string_view type = "Dashed";
  static constexpr std::string_view pk = "D#{a}-{n}.x";
  static constexpr std::string_view sk = "{b}.end";
};
template <class I>
struct pksk::Entity<Num<I>> {
  static constexpr std::string_view type = "Num";
  static constexpr std::string_view pk = "N";
  static constexpr std::string_view sk = "N#{n}";
};

template <>
struct pksk::Entity<Adapted> {
  static constexpr std::string_view type = "Adapted";
  static constexpr std::string_view pk = "TENANT#{tenant}";
  static constexpr std::string_view sk = "SHARD#{shard}";
};

static_assert(pksk::EntityType<Customer>);
static_assert(pksk::EntityType<Order>);
static_assert(!pksk::EntityType<LineItem>);  // no Entity specialization
static_assert(!pksk::EntityType<int>);
static_assert(pksk::type_name_v<Order> == "Order");
static_assert(pksk::sort_key_prefix_v<Customer> == "A");
static_assert(pksk::sort_key_prefix_v<Order> == "#ORDER#");
static_assert(pksk::sort_key_prefix_v<Ticket> == "");
static_assert(pksk::partition_key_prefix_v<Order> == "CUSTOMER#");
static_assert(pksk::same_partition_shape_v<Customer, Order>);
static_assert(!pksk::same_partition_shape_v<Customer, Ticket>);
static_assert(pksk::detail::check_collection_members<Customer, Order>());
static_assert(pksk::detail::check_collection_members<Customer>());
static_assert(!pksk::detail::sort_keys_may_collide<Customer, Order>());

namespace {

template <class T>
std::string error_of(const T& record, bool sort) {
  try {
    std::string out;
    if (sort) {
      pksk::format_sort_key(record, out);
    } else {
      pksk::format_partition_key(record, out);
    }
  } catch (const pksk::KeyError& e) {
    return e.what();
  }
  return "";
}

template <class T>
std::string sk_of(T value) {
  return pksk::sort_key(Num<T>{value});
}

}  // namespace

TEST_CASE("the documented entities format their keys as documented", "[key]") {
  CHECK(pksk::partition(Customer{.id = "123"}) == pksk::PartitionKey{"CUSTOMER#123"});
  CHECK(pksk::partition(Customer{.id = "123"}).value == "CUSTOMER#123");
  CHECK(pksk::sort_key(Customer{.id = "123"}) == "A");
  const Order order{.customer_id = "123", .order_id = "2020-12-06"};
  CHECK(pksk::partition(order).value == "CUSTOMER#123");
  CHECK(pksk::sort_key(order) == "#ORDER#2020-12-06");
  CHECK(pksk::partition(order) == pksk::partition(Customer{.id = "123"}));
}

TEST_CASE("Hana-adapted structs are entities too", "[key]") {
  Adapted a;
  a.tenant = "t1";
  a.shard = 42;
  CHECK(pksk::partition(a).value == "TENANT#t1");
  CHECK(pksk::sort_key(a) == "SHARD#00042");
}

TEST_CASE("format_* assign into the output and reuse it", "[key]") {
  std::string out = "previous content that is long enough to have a heap buffer";
  const auto capacity = out.capacity();
  const auto* data = out.data();
  pksk::format_sort_key(Order{.customer_id = "1", .order_id = "x"}, out);
  CHECK(out == "#ORDER#x");
  CHECK(out.capacity() == capacity);
  CHECK(out.data() == data);
  pksk::format_partition_key(Order{.customer_id = "7", .order_id = "x"}, out);
  CHECK(out == "CUSTOMER#7");
  CHECK(out.data() == data);
}

TEST_CASE("integers, enums and several fields", "[key]") {
  const Ticket t{.org = "acme", .status = Status::shipped, .seq = -1, .big = 42};
  CHECK(pksk::partition(t).value == "ORG#acme#-1");
  CHECK(pksk::sort_key(t) == "shipped#2147483647#00000000000000000042");
  const Dashed d{.a = "x", .b = "y#"[0] == 'y' ? "y" : "", .n = -5};
  CHECK(pksk::partition(d).value == "D#x--5.x");
  CHECK(pksk::sort_key(d) == "y.end");
}

TEST_CASE("sort-key integer widths", "[key]") {
  CHECK(sk_of<std::uint8_t>(0) == "N#000");
  CHECK(sk_of<std::uint8_t>(255) == "N#255");
  CHECK(sk_of<std::uint16_t>(7) == "N#00007");
  CHECK(sk_of<std::uint32_t>(7) == "N#0000000007");
  CHECK(sk_of<std::uint64_t>(std::numeric_limits<std::uint64_t>::max()) ==
        "N#18446744073709551615");
  CHECK(sk_of<std::int8_t>(-128) == "N#000");
  CHECK(sk_of<std::int8_t>(0) == "N#128");
  CHECK(sk_of<std::int8_t>(127) == "N#255");
  CHECK(sk_of<std::int16_t>(-1) == "N#32767");
  CHECK(sk_of<std::int32_t>(0) == "N#2147483648");
  CHECK(sk_of<std::int64_t>(std::numeric_limits<std::int64_t>::min()) == "N#00000000000000000000");
  CHECK(sk_of<std::int64_t>(0) == "N#09223372036854775808");
}

TEMPLATE_TEST_CASE("sort-key byte order is numeric order", "[key]", std::int8_t, std::uint8_t,
                   std::int16_t, std::uint16_t, std::int32_t, std::uint32_t, std::int64_t,
                   std::uint64_t, short, long, long long, unsigned long) {
  std::mt19937_64 rng(20201206);
  std::uniform_int_distribution<long long> small(-3, 3);
  const auto random_value = [&] {
    // Mix uniform values with values near the edges and zero, where padding and offset bite.
    switch (rng() % 4) {
      case 0:
        return static_cast<TestType>(rng());
      case 1:
        return static_cast<TestType>(std::numeric_limits<TestType>::min() + (rng() % 4));
      case 2:
        return static_cast<TestType>(std::numeric_limits<TestType>::max() - (rng() % 4));
      default:
        return static_cast<TestType>(small(rng));
    }
  };
  for (int i = 0; i < 5000; ++i) {
    const TestType a = random_value();
    const TestType b = random_value();
    const std::string ka = sk_of(a);
    const std::string kb = sk_of(b);
    INFO(+a << " " << +b << " " << ka << " " << kb);
    REQUIRE((a < b) == (ka < kb));
    REQUIRE((a == b) == (ka == kb));
  }
}

TEST_CASE("KeyError cases", "[key]") {
  SECTION("delimiter") {
    const std::string e = error_of(Order{.customer_id = "1", .order_id = "2020#12"}, true);
    CHECK_THAT(e, Catch::Contains("Order.order_id") && Catch::Contains("\"2020#12\"") &&
                      Catch::Contains("'#'"));
    CHECK_THAT(error_of(Customer{.id = "a#b"}, false), Catch::Contains("Customer.id"));
  }
  SECTION("the character that follows the field") {
    CHECK_THAT(error_of(Dashed{.a = "x-y", .b = "b", .n = 1}, false),
               Catch::Contains("Dashed.a") && Catch::Contains("'-'") &&
                   Catch::Contains("follows the field"));
    CHECK_THAT(error_of(Dashed{.a = "x", .b = "b.c", .n = 1}, true),
               Catch::Contains("Dashed.b") && Catch::Contains("'.'"));
    // the last field of a template has no following literal
    CHECK(error_of(Customer{.id = "a-b.c"}, false).empty());
    // integers in a partition key are variable width, so they are checked too: "-" follows
    // Dashed.a, but n is followed by "." which no decimal holds
    CHECK(error_of(Dashed{.a = "x", .b = "b", .n = -1}, false).empty());
  }
  SECTION("NUL") {
    const std::string e = error_of(Customer{.id = std::string("a\0b", 3)}, false);
    CHECK_THAT(e, Catch::Contains("NUL") && Catch::Contains("a\\x00b"));
  }
  SECTION("empty") {
    CHECK_THAT(error_of(Customer{.id = ""}, false),
               Catch::Contains("Customer.id") && Catch::Contains("empty"));
    CHECK_THAT(error_of(Order{.customer_id = "1"}, true), Catch::Contains("Order.order_id"));
  }
  SECTION("invalid UTF-8") {
    const char* invalid[] = {
        "\x80",              // lone continuation
        "a\xC3",             // truncated 2-byte
        "\xC0\xAF",          // overlong '/'
        "\xC1\xBF",          // overlong
        "\xE0\x80\xAF",      // overlong 3-byte
        "\xED\xA0\x80",      // surrogate U+D800
        "\xED\xBF\xBF",      // surrogate U+DFFF
        "\xF0\x80\x80\xAF",  // overlong 4-byte
        "\xF4\x90\x80\x80",  // U+110000
        "\xF5\x80\x80\x80",  // lead byte past U+10FFFF
        "\xFF",              // never valid
        "\xE6\x97",          // truncated 3-byte
        "\xE6\x97\x41",      // bad continuation
    };
    for (const char* value : invalid) {
      const std::string e = error_of(Customer{.id = value}, false);
      INFO(e);
      CHECK_THAT(e, Catch::Contains("UTF-8") && Catch::Contains("Customer.id"));
      CHECK_THAT(e, Catch::Contains("\\x"));  // non-printables are escaped in the message
    }
  }
  SECTION("unnamed enum value") {
    const Ticket t{.org = "o", .status = static_cast<Status>(7), .seq = 1, .big = 1};
    CHECK_THAT(error_of(t, true), Catch::Contains("Ticket.status") &&
                                      Catch::Contains("no enumerator name") &&
                                      Catch::Contains("\"7\""));
  }
  SECTION("the entity's type names the entity") {
    CHECK_THAT(error_of(Order{.customer_id = "#", .order_id = "1"}, false),
               Catch::StartsWith("pksk: invalid key field Order.customer_id"));
  }
}

TEST_CASE("UTF-8 values are accepted", "[key]") {
  for (const std::string value : {"\xC3\xA9", "\xE6\x97\xA5\xE6\x9C\xAC", "\xF0\x9F\x98\x80",
                                  "\xEF\xBF\xBF", "\xF4\x8F\xBF\xBF", "\xED\x9F\xBF"}) {
    CHECK(pksk::partition(Customer{.id = value}).value == "CUSTOMER#" + value);
    CHECK(pksk::sort_key(Order{.customer_id = "1", .order_id = value}) == "#ORDER#" + value);
  }
}
