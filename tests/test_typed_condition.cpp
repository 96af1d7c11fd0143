// SPDX-License-Identifier: BSL-1.0
// Typed sort-key conditions (issue 20, item 6): pksk::sort_key_of<T>'s conditions are the
// KeyConditions a careful hand would write, and queries with them on the SQLite backend return
// exactly the items whose fields satisfy them.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <boost/hana/define_struct.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

namespace {

enum class Status { open, closed };

struct Customer {
  std::string id;
  std::string name;
};
struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
};
struct Shipment {
  std::string customer_id;
  std::string date;
  std::uint32_t seq{};
};
struct Task {
  std::string customer_id;
  Status status{};
  std::string name;
};
// '-' follows major: no value of major may hold it.
struct Version {
  std::string product;
  std::string major;
  std::string minor;
};
// A template that starts with a field.
struct Topic {
  std::string org;
  std::string topic;
  std::int16_t n{};
};
template <class I>
struct Reading {
  std::string sensor;
  I n{};
};
// By date in the table, by doctor in the index "by_doctor".
struct Appointment {
  std::string patient;
  std::string date;
  std::string doctor;
};
struct Prescription {
  std::string patient;
  std::string date;
  std::string drug;
};
struct Adapted {
  BOOST_HANA_DEFINE_STRUCT(Adapted, (std::string, tenant), (std::string, day), (std::string, name));
};

}  // namespace

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer", pk = "CUSTOMER#{id}", sk = "A";
};
template <>
struct pksk::Entity<Order> {
  static constexpr std::string_view type = "Order", pk = "CUSTOMER#{customer_id}",
                                    sk = "#ORDER#{order_id}";
};
template <>
struct pksk::Entity<Shipment> {
  static constexpr std::string_view type = "Shipment", pk = "CUSTOMER#{customer_id}",
                                    sk = "#SHIP#{date}#{seq}";
};
template <>
struct pksk::Entity<Task> {
  static constexpr std::string_view type = "Task", pk = "CUSTOMER#{customer_id}",
                                    sk = "#TASK#{status}#{name}";
};
template <>
struct pksk::Entity<Version> {
  static constexpr std::string_view type = "Version", pk = "P#{product}", sk = "V#{major}-{minor}";
};
template <>
struct pksk::Entity<Topic> {
  static constexpr std::string_view type = "Topic", pk = "ORG#{org}", sk = "{topic}#{n}";
};
template <class I>
struct pksk::Entity<Reading<I>> {
  static constexpr std::string_view type = "Reading", pk = "S#{sensor}", sk = "#N#{n}";
};
template <>
struct pksk::Entity<Appointment> {
  static constexpr std::string_view type = "Appointment", pk = "PATIENT#{patient}",
                                    sk = "APPT#{date}";
  static constexpr std::array indexes = {
      pksk::Index{"by_doctor", "PATIENT#{patient}", "DOCTOR#{doctor}#{date}"}};
};
template <>
struct pksk::Entity<Prescription> {
  static constexpr std::string_view type = "Prescription", pk = "PATIENT#{patient}",
                                    sk = "RX#{date}";
};
template <>
struct pksk::Entity<Adapted> {
  static constexpr std::string_view type = "Adapted", pk = "T#{tenant}", sk = "D#{day}#{name}";
};

namespace {

using OrderKey = pksk::sort_key_of<Order>;
using ShipKey = pksk::sort_key_of<Shipment>;
using pksk::KeyCondition;

const pksk::PartitionKey pk{"CUSTOMER#c"};

template <class F>
std::string key_error(F&& make) {
  try {
    (void)make();
  } catch (const pksk::KeyError& e) {
    return e.what();
  }
  return "(no KeyError)";
}

// The dates and numbers of the shipments below: no date holds a character below '#', so the
// keys' order is the fields' own (typed_condition.hpp).
const std::vector<std::string> dates{"2019-12-31",  "2020-01-01", "2020-01-02",
                                     "2020-01-02x", "2020-01-1",  "2020-02"};
const std::vector<std::uint32_t> seqs{0, 1, 7, 200, std::numeric_limits<std::uint32_t>::max()};

using Fields = std::tuple<std::string, std::uint32_t>;

std::vector<Fields> fields_of(const std::vector<Shipment>& shipments) {
  std::vector<Fields> out;
  for (const Shipment& s : shipments) out.emplace_back(s.date, s.seq);
  return out;
}

// Every shipment whose fields satisfy keep, in the fields' order.
template <class Keep>
std::vector<Fields> expected(Keep keep) {
  std::vector<Fields> out;
  for (const std::string& d : dates) {
    for (const std::uint32_t s : seqs) {
      if (keep(d, s)) out.emplace_back(d, s);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void load_shipments(pksk::Table<pksk::sqlite::Backend>& table) {
  // Other entities of the partition, before and after the shipments' keys, which the
  // conditions' one-sided operators read and query<Shipment> skips.
  table.put(Customer{.id = "c", .name = "Ada"});
  table.put(Order{.customer_id = "c", .order_id = "2020-01-02", .status = "new"});
  table.put(Task{.customer_id = "c", .status = Status::open, .name = "pack"});
  for (const std::string& d : dates) {
    for (const std::uint32_t s : seqs) table.put(Shipment{.customer_id = "c", .date = d, .seq = s});
  }
}

}  // namespace

TEST_CASE("typed conditions are the key conditions written by hand", "[typed_condition]") {
  CHECK(OrderKey::between<&Order::order_id>("2020-01", "2020-12") ==
        pksk::between("#ORDER#2020-01", "#ORDER#2020-12"));
  CHECK(OrderKey::begins_with<&Order::order_id>("2021-") == pksk::begins_with("#ORDER#2021-"));
  CHECK(OrderKey::eq<&Order::order_id>("2020-12-06") == pksk::eq("#ORDER#2020-12-06"));
  CHECK(OrderKey::lt<&Order::order_id>("2020-12-06") == pksk::lt("#ORDER#2020-12-06"));
  CHECK(OrderKey::le<&Order::order_id>("2020-12-06") == pksk::le("#ORDER#2020-12-06"));
  CHECK(OrderKey::gt<&Order::order_id>("2020-12-06") == pksk::gt("#ORDER#2020-12-06"));
  CHECK(OrderKey::ge<&Order::order_id>("2020-12-06") == pksk::ge("#ORDER#2020-12-06"));
  // The empty prefix of a value: every Order.
  CHECK(OrderKey::begins_with<&Order::order_id>("") == pksk::begins_with("#ORDER#"));

  // The first of two fields: the items with that date, whatever their seq.
  CHECK(ShipKey::eq<&Shipment::date>("2020-01-02") == pksk::begins_with("#SHIP#2020-01-02#"));
  CHECK(ShipKey::lt<&Shipment::date>("2020-01-02") == pksk::lt("#SHIP#2020-01-02#"));
  CHECK(ShipKey::ge<&Shipment::date>("2020-01-02") == pksk::ge("#SHIP#2020-01-02#"));
  // After the last key beginning with "...#": '#' + 1 is '$'.
  CHECK(ShipKey::le<&Shipment::date>("2020-01-02") == pksk::lt("#SHIP#2020-01-02$"));
  CHECK(ShipKey::gt<&Shipment::date>("2020-01-02") == pksk::ge("#SHIP#2020-01-02$"));
  CHECK(ShipKey::between<&Shipment::date>("2020-01-01", "2020-01-31") ==
        pksk::between("#SHIP#2020-01-01#", "#SHIP#2020-01-31$"));
  CHECK(ShipKey::begins_with<&Shipment::date>("2020-01") == pksk::begins_with("#SHIP#2020-01"));

  // Both fields: the whole key, seq padded to 10 digits.
  CHECK(ShipKey::between<&Shipment::date, &Shipment::seq>({"2020-01-02", 5}, {"2020-01-02", 200}) ==
        pksk::between("#SHIP#2020-01-02#0000000005", "#SHIP#2020-01-02#0000000200"));
  CHECK(ShipKey::gt<&Shipment::date, &Shipment::seq>("2020-01-02", 7) ==
        pksk::gt("#SHIP#2020-01-02#0000000007"));
  const Shipment s{.customer_id = "c", .date = "2020-01-02", .seq = 7};
  CHECK(ShipKey::eq(s) == pksk::eq(pksk::sort_key(s)));
  CHECK(ShipKey::lt(s) == pksk::lt("#SHIP#2020-01-02#0000000007"));
  CHECK(ShipKey::le(s) == pksk::le("#SHIP#2020-01-02#0000000007"));
  CHECK(ShipKey::gt(s) == pksk::gt("#SHIP#2020-01-02#0000000007"));
  CHECK(ShipKey::ge(s) == pksk::ge("#SHIP#2020-01-02#0000000007"));
  CHECK(ShipKey::between(s, Shipment{.date = "2020-02", .seq = 0}) ==
        pksk::between("#SHIP#2020-01-02#0000000007", "#SHIP#2020-02#0000000000"));
  CHECK(pksk::sort_key_of<Customer>::eq(Customer{.id = "c"}) == pksk::eq("A"));

  // Enums by name; a template that starts with a field; a literal other than '#' after one.
  CHECK(pksk::sort_key_of<Task>::eq<&Task::status>(Status::closed) ==
        pksk::begins_with("#TASK#closed#"));
  CHECK(pksk::sort_key_of<Task>::between<&Task::status, &Task::name>({Status::open, "a"},
                                                                     {Status::open, "m"}) ==
        pksk::between("#TASK#open#a", "#TASK#open#m"));
  CHECK(pksk::sort_key_of<Topic>::begins_with<&Topic::topic>("ne") == pksk::begins_with("ne"));
  CHECK(pksk::sort_key_of<Topic>::begins_with<&Topic::topic>("") == KeyCondition{});
  CHECK(pksk::sort_key_of<Topic>::lt<&Topic::topic, &Topic::n>("news", -1) ==
        pksk::lt("news#32767"));
  CHECK(pksk::sort_key_of<Version>::le<&Version::major>("10") == pksk::lt("V#10."));
  CHECK(pksk::sort_key_of<Version>::eq<&Version::major>("10") == pksk::begins_with("V#10-"));
}

TEST_CASE("the first text after a literal: its last code point plus one", "[typed_condition]") {
  using pksk::detail::successor_text;
  STATIC_REQUIRE(successor_text<1>("#").view() == "$");
  STATIC_REQUIRE(successor_text<3>("#X#").view() == "#X$");
  STATIC_REQUIRE(successor_text<2>("\xC3\xA9").view() == "\xC3\xAA");          // é -> ê
  STATIC_REQUIRE(successor_text<2>("\xC3\xBF").view() == "\xC4\x80");          // ÿ -> Ā
  STATIC_REQUIRE(successor_text<1>("\x7F").view() == "\xC2\x80");              // DEL -> U+0080
  STATIC_REQUIRE(successor_text<3>("\xED\x9F\xBF").view() == "\xEE\x80\x80");  // U+D7FF -> U+E000
  STATIC_REQUIRE(successor_text<3>("\xEF\xBF\xBF").view() == "\xF0\x90\x80\x80");
  STATIC_REQUIRE(!successor_text<4>("\xF4\x8F\xBF\xBF").ok);  // U+10FFFF: none
  STATIC_REQUIRE(!successor_text<1>("\xC3").ok);              // not UTF-8
}

TEST_CASE("each operator returns exactly the items whose fields satisfy it", "[typed_condition]") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "t"};
  load_shipments(table);
  const auto query = [&](const KeyCondition& sk) {
    const std::vector<Shipment> got = table.query<Shipment>(pk, {.sk = sk});
    return fields_of(got);
  };
  // All of them, to be sure the table holds what the expectations assume.
  // Order's key condition, even one that selects everything, is refused on a Shipment query.
  REQUIRE_THROWS_AS(query(OrderKey::begins_with<&Order::order_id>("")), pksk::ValidationError);
  REQUIRE(fields_of(table.query<Shipment>(pk)) == expected([](auto&&, auto) { return true; }));

  SECTION("on the first field") {
    const std::vector<std::string> probes{"2019",        "2020-01-01",  "2020-01-015", "2020-01-02",
                                          "2020-01-02x", "2020-01-02a", "2020-01-1",   "2021"};
    for (const std::string& p : probes) {
      INFO("date " << p);
      CHECK(query(ShipKey::eq<&Shipment::date>(p)) ==
            expected([&](const std::string& d, auto) { return d == p; }));
      CHECK(query(ShipKey::lt<&Shipment::date>(p)) ==
            expected([&](const std::string& d, auto) { return d < p; }));
      CHECK(query(ShipKey::le<&Shipment::date>(p)) ==
            expected([&](const std::string& d, auto) { return d <= p; }));
      CHECK(query(ShipKey::gt<&Shipment::date>(p)) ==
            expected([&](const std::string& d, auto) { return d > p; }));
      CHECK(query(ShipKey::ge<&Shipment::date>(p)) ==
            expected([&](const std::string& d, auto) { return d >= p; }));
      for (const std::string& q : probes) {
        if (q < p) continue;
        INFO("between " << p << " and " << q);
        CHECK(query(ShipKey::between<&Shipment::date>(p, q)) ==
              expected([&](const std::string& d, auto) { return p <= d && d <= q; }));
      }
    }
    for (const std::string p : {"", "2", "2020-01-0", "2020-01-02", "2020-01-02x", "9"}) {
      INFO("begins_with " << p);
      CHECK(query(ShipKey::begins_with<&Shipment::date>(p)) ==
            expected([&](const std::string& d, auto) { return d.starts_with(p); }));
    }
  }

  SECTION("on both fields, as a tuple") {
    const std::vector<std::uint32_t> numbers{
        0, 1, 5, 7, 200, 201, std::numeric_limits<std::uint32_t>::max()};
    for (const std::string p : {"2020-01-01", "2020-01-02", "2020-01-021"}) {
      for (const std::uint32_t n : numbers) {
        INFO("date " << p << ", seq " << n);
        const auto at = [&](const std::string& d, std::uint32_t s) {
          return std::tie(d, s) <=> std::tie(p, n);
        };
        CHECK(query(ShipKey::eq<&Shipment::date, &Shipment::seq>(p, n)) ==
              expected([&](auto& d, auto s) { return at(d, s) == 0; }));
        CHECK(query(ShipKey::lt<&Shipment::date, &Shipment::seq>(p, n)) ==
              expected([&](auto& d, auto s) { return at(d, s) < 0; }));
        CHECK(query(ShipKey::le<&Shipment::date, &Shipment::seq>(p, n)) ==
              expected([&](auto& d, auto s) { return at(d, s) <= 0; }));
        CHECK(query(ShipKey::gt<&Shipment::date, &Shipment::seq>(p, n)) ==
              expected([&](auto& d, auto s) { return at(d, s) > 0; }));
        CHECK(query(ShipKey::ge<&Shipment::date, &Shipment::seq>(p, n)) ==
              expected([&](auto& d, auto s) { return at(d, s) >= 0; }));
        // The same through a record's whole key.
        const Shipment record{.customer_id = "c", .date = p, .seq = n};
        CHECK(query(ShipKey::lt(record)) ==
              expected([&](auto& d, auto s) { return at(d, s) < 0; }));
        CHECK(query(ShipKey::ge(record)) ==
              expected([&](auto& d, auto s) { return at(d, s) >= 0; }));
      }
    }
    // Seq 5 to 200 of one day, and a range across days.
    CHECK(query(ShipKey::between<&Shipment::date, &Shipment::seq>({"2020-01-02", 5},
                                                                  {"2020-01-02", 200})) ==
          std::vector<Fields>{{"2020-01-02", 7}, {"2020-01-02", 200}});
    CHECK(query(ShipKey::between<&Shipment::date, &Shipment::seq>(
              {"2020-01-02", 200}, {"2020-01-02x", 1})) == expected([&](auto& d, auto s) {
            return std::tie(d, s) >= Fields{"2020-01-02", 200} &&
                   std::tie(d, s) <= Fields{"2020-01-02x", 1};
          }));
    CHECK(query(ShipKey::between(Shipment{.date = "2019-12-31", .seq = 7},
                                 Shipment{.date = "2020-01-01", .seq = 0})) ==
          std::vector<Fields>{{"2019-12-31", 7},
                              {"2019-12-31", 200},
                              {"2019-12-31", std::numeric_limits<std::uint32_t>::max()},
                              {"2020-01-01", 0}});
  }

  SECTION("other entities of the partition are not read as shipments") {
    // Shipment's key text in a query of orders: refused when the query runs (with typed
    // options, `query<Order>(pk, {.sk = ShipKey::...})`, it does not compile).
    const pksk::QueryOptions shipments_options{.sk = ShipKey::ge<&Shipment::date>("2019")};
    CHECK_THROWS_WITH(
        table.query<Order>(pk, shipments_options),
        Catch::Contains("query Order: the sort-key condition was built for Shipment's sort key "
                        "'#SHIP#{date}#{seq}' in the table (sort_key_of<Shipment>)") &&
            Catch::Contains("reads Order, not Shipment"));
    CHECK_THROWS_AS(table.query<Order>(pk, shipments_options), pksk::ValidationError);
    CHECK_THROWS_AS(table.count<Order>(pk, shipments_options), pksk::ValidationError);
    CHECK_THROWS_AS(table.query_page<Order>(pk, shipments_options), pksk::ValidationError);
    // In a collection, a member's condition reads that member's range, as before.
    const auto both = table.query<pksk::ItemCollection<Order, Shipment>>(pk, shipments_options);
    CHECK(both.items<Order>().empty());
    CHECK(!both.items<Shipment>().empty());
    using CustomerOrders = pksk::ItemCollection<Customer, Order>;
    CHECK_THROWS_AS(table.query<CustomerOrders>(pk, shipments_options), pksk::ValidationError);
    // Key text written by hand is not checked: it names no entity.
    CHECK(table.query<Order>(pk, {.sk = pksk::ge("#SHIP#2019")}).empty());
    const auto orders =
        table.query<Order>(pk, {.sk = OrderKey::le<&Order::order_id>("2020-01-02")});
    REQUIRE(orders.size() == 1);
    CHECK(orders[0].order_id == "2020-01-02");
    const auto tasks =
        table.query<Task>(pk, {.sk = pksk::sort_key_of<Task>::eq<&Task::status>(Status::open)});
    REQUIRE(tasks.size() == 1);
    CHECK(tasks[0].name == "pack");
    CHECK(table.query<Task>(pk, {.sk = pksk::sort_key_of<Task>::eq<&Task::status>(Status::closed)})
              .empty());
  }

  SECTION("between's low above its high is DynamoDB's ValidationException") {
    CHECK_THROWS_AS(query(ShipKey::between<&Shipment::date>("2021", "2020")),
                    pksk::ValidationError);
  }
}

TEST_CASE("a value extending another sorts before it when its next character is below '#'",
          "[typed_condition]") {
  // What typed_condition.hpp says of string fields followed by a literal: "a!" extends "a",
  // but "#X#a!#..." < "#X#a#...", since '!' < '#'. The keys' order is the one a query follows.
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "t"};
  for (const std::string d : {"a", "a!", "b"}) {
    table.put(Shipment{.customer_id = "c", .date = d, .seq = 1});
  }
  const auto dates_of = [](const std::vector<Shipment>& got) {
    std::vector<std::string> out;
    for (const Shipment& s : got) out.push_back(s.date);
    return out;
  };
  using V = std::vector<std::string>;
  CHECK(dates_of(table.query<Shipment>(pk)) == V{"a!", "a", "b"});
  CHECK(dates_of(table.query<Shipment>(pk, {.sk = ShipKey::lt<&Shipment::date>("a")})) == V{"a!"});
  CHECK(dates_of(table.query<Shipment>(pk, {.sk = ShipKey::gt<&Shipment::date>("a")})) == V{"b"});
  CHECK(dates_of(table.query<Shipment>(pk, {.sk = ShipKey::eq<&Shipment::date>("a")})) == V{"a"});
  CHECK(dates_of(table.query<Shipment>(pk, {.sk = ShipKey::begins_with<&Shipment::date>("a")})) ==
        V{"a!", "a"});
}

TEMPLATE_TEST_CASE("integer ranges are numeric ranges, negatives and extremes included",
                   "[typed_condition]", std::int8_t, std::int32_t, std::int64_t, std::uint8_t,
                   std::uint64_t) {
  using I = TestType;
  using L = std::numeric_limits<I>;
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "t"};
  std::vector<I> values{L::min(), static_cast<I>(L::min() + 1), 0,       1, 4, 5, 6, 99, 100,
                        101,      static_cast<I>(L::max() - 1), L::max()};
  if constexpr (std::is_signed_v<I>) {
    for (const I v : {-100, -6, -5, -4, -1}) values.push_back(static_cast<I>(v));
  }
  if constexpr (sizeof(I) > 1) {
    for (const I v : {199, 200, 201, 1000000}) values.push_back(static_cast<I>(v));
  }
  if constexpr (sizeof(I) == 8) {
    values.push_back(static_cast<I>(L::max() / 2));
    values.push_back(static_cast<I>(L::max() / 2 + 1));
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  for (const I v : values) table.put(Reading<I>{.sensor = "s", .n = v});

  using Key = pksk::sort_key_of<Reading<I>>;
  const pksk::PartitionKey sensor{"S#s"};
  const auto query = [&](const KeyCondition& sk) {
    std::vector<I> out;
    for (const Reading<I>& r : table.template query<Reading<I>>(sensor, {.sk = sk})) {
      out.push_back(r.n);
    }
    return out;
  };
  const auto where = [&](auto keep) {
    std::vector<I> out;
    for (const I v : values) {
      if (keep(v)) out.push_back(v);
    }
    return out;
  };
  REQUIRE(query(Key::ge(Reading<I>{.n = L::min()})) == values);

  const auto check_range = [&](I low, I high) {
    INFO("between " << +low << " and " << +high);
    CHECK(query(Key::template between<&Reading<I>::n>(low, high)) ==
          where([&](I v) { return low <= v && v <= high; }));
  };
  if constexpr (std::is_signed_v<I>) check_range(-5, 100);
  check_range(5, 100);
  check_range(L::min(), L::max());
  check_range(0, 0);
  check_range(static_cast<I>(L::max() / 2), L::max());
  if constexpr (sizeof(I) > 1) check_range(5, 200);
  for (const I v : values) {
    INFO("against " << +v);
    CHECK(query(Key::template lt<&Reading<I>::n>(v)) == where([&](I x) { return x < v; }));
    CHECK(query(Key::template le<&Reading<I>::n>(v)) == where([&](I x) { return x <= v; }));
    CHECK(query(Key::template gt<&Reading<I>::n>(v)) == where([&](I x) { return x > v; }));
    CHECK(query(Key::template ge<&Reading<I>::n>(v)) == where([&](I x) { return x >= v; }));
    CHECK(query(Key::template eq<&Reading<I>::n>(v)) == std::vector<I>{v});
  }
}

TEST_CASE("values break the template's rules: KeyError naming entity, member and value",
          "[typed_condition]") {
  SECTION("the delimiter") {
    const std::string e = key_error([] { return OrderKey::eq<&Order::order_id>("2020#12"); });
    CHECK_THAT(e, Catch::StartsWith("pksk: invalid key field Order.order_id = \"2020#12\"") &&
                      Catch::Contains("sort key template \"#ORDER#{order_id}\"") &&
                      Catch::Contains("contains '#', the key delimiter"));
    // In a bound of between, in an earlier field, in begins_with's partial value.
    CHECK_THAT(key_error([] { return OrderKey::between<&Order::order_id>("a", "b#"); }),
               Catch::Contains("Order.order_id = \"b#\""));
    CHECK_THAT(key_error([] { return ShipKey::lt<&Shipment::date, &Shipment::seq>("#", 1); }),
               Catch::Contains("Shipment.date = \"#\""));
    CHECK_THAT(key_error([] { return OrderKey::begins_with<&Order::order_id>("20#"); }),
               Catch::Contains("Order.order_id = \"20#\"") && Catch::Contains("'#'"));
  }
  SECTION("the character that follows the field in the template") {
    CHECK_THAT(key_error([] { return pksk::sort_key_of<Version>::eq<&Version::major>("1-2"); }),
               Catch::Contains("Version.major = \"1-2\"") && Catch::Contains("'-'") &&
                   Catch::Contains("follows the field"));
    // The last field has no following literal, so its partial value may hold it.
    CHECK(pksk::sort_key_of<Version>::begins_with<&Version::major, &Version::minor>("1", "2-") ==
          pksk::begins_with("V#1-2-"));
  }
  SECTION("NUL") {
    const std::string e =
        key_error([] { return OrderKey::ge<&Order::order_id>(std::string_view("a\0b", 3)); });
    CHECK_THAT(e, Catch::Contains("Order.order_id = \"a\\x00b\"") && Catch::Contains("NUL"));
  }
  SECTION("invalid UTF-8") {
    for (const char* value : {"\x80", "a\xC3", "\xED\xA0\x80", "\xFF"}) {
      const std::string e = key_error([&] { return OrderKey::lt<&Order::order_id>(value); });
      INFO(e);
      CHECK_THAT(e, Catch::Contains("Order.order_id") && Catch::Contains("not valid UTF-8"));
      CHECK_THAT(key_error([&] { return OrderKey::begins_with<&Order::order_id>(value); }),
                 Catch::Contains("not valid UTF-8"));
    }
  }
  SECTION("empty, but for begins_with's last value") {
    CHECK_THAT(key_error([] { return OrderKey::eq<&Order::order_id>(""); }),
               Catch::Contains("Order.order_id = \"\"") && Catch::Contains("must not be empty"));
    CHECK_THAT(key_error([] { return ShipKey::between<&Shipment::date>("", "b"); }),
               Catch::Contains("Shipment.date"));
    CHECK_THAT(key_error([] {
                 return pksk::sort_key_of<Version>::begins_with<&Version::major, &Version::minor>(
                     "", "1");
               }),
               Catch::Contains("Version.major = \"\""));
    CHECK(key_error([] { return OrderKey::begins_with<&Order::order_id>(""); }) == "(no KeyError)");
  }
  SECTION("an unnamed enum value") {
    CHECK_THAT(key_error([] {
                 return pksk::sort_key_of<Task>::eq<&Task::status>(static_cast<Status>(9));
               }),
               Catch::Contains("Task.status = \"9\"") && Catch::Contains("no enumerator name"));
  }
  SECTION("a key longer than DynamoDB allows") {
    const std::string id(1100, 'x');
    CHECK_THAT(key_error([&] { return OrderKey::begins_with<&Order::order_id>(id); }),
               Catch::Contains("Order's sort key") && Catch::Contains("over DynamoDB's limit"));
  }
}

TEST_CASE("Hana-adapted entities: members checked when the condition is made",
          "[typed_condition]") {
  using Key = pksk::sort_key_of<Adapted>;
  CHECK(Key::le<&Adapted::day>("mon") == pksk::lt("D#mon$"));
  CHECK(Key::eq<&Adapted::day, &Adapted::name>("mon", "x") == pksk::eq("D#mon#x"));
  // Compile time cannot tell these from the right ones: pksk::Error, not a KeyError.
  CHECK_THROWS_MATCHES(
      Key::eq<&Adapted::name>("x"), pksk::Error,
      Catch::Message("pksk: a key condition on Adapted names members that are not the first "
                     "fields of its key template \"D#{day}#{name}\" in order (member 1 is not "
                     "day)"));
  CHECK_THROWS_WITH((Key::eq<&Adapted::day, &Adapted::tenant>("mon", "t")),
                    Catch::Contains("member 2 is not name"));
}

TEST_CASE("a typed condition is refused where its entity's key space is not read",
          "[typed_condition]") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "clinic", {.indexes = {"by_doctor"}}};
  table.put(Appointment{.patient = "p", .date = "2024-05-01", .doctor = "house"});
  table.put(Prescription{.patient = "p", .date = "2024-05-01", .drug = "aspirin"});
  const pksk::PartitionKey patient{"PATIENT#p"};
  using AppointmentKey = pksk::sort_key_of<Appointment>;
  using DoctorKey = pksk::sort_key_of<Appointment, "by_doctor">;

  // The table's condition on the index, whose sort key is another template: it would match
  // nothing ("APPT#2024" is no prefix of "DOCTOR#house#2024-05-01").
  const pksk::QueryOptions by_date{.sk = AppointmentKey::begins_with<&Appointment::date>("2024")};
  CHECK_THROWS_WITH(
      table.index("by_doctor").query<Appointment>(patient, by_date),
      Catch::Contains("built for Appointment's sort key 'APPT#{date}' in the table") &&
          Catch::Contains("the query on index 'by_doctor' orders Appointment by "
                          "'DOCTOR#{doctor}#{date}'; build the condition with "
                          "sort_key_of<Appointment, 'by_doctor'>"));
  CHECK_THROWS_AS(table.index("by_doctor").query<Appointment>(patient, by_date),
                  pksk::ValidationError);
  CHECK_THROWS_AS(table.index("by_doctor").count<Appointment>(patient, by_date),
                  pksk::ValidationError);
  // And the index's on the table.
  const pksk::QueryOptions by_doctor{.sk = DoctorKey::eq<&Appointment::doctor>("house")};
  CHECK_THROWS_WITH(table.query<Appointment>(patient, by_doctor),
                    Catch::Contains("in index 'by_doctor'") &&
                        Catch::Contains("the query on the table orders Appointment by "
                                        "'APPT#{date}'"));
  // Another entity's, typed or not: Prescription's key text in a query of appointments.
  const pksk::QueryOptions rx{.sk =
                                  pksk::sort_key_of<Prescription>::ge<&Prescription::date>("2024")};
  CHECK_THROWS_WITH(table.query<Appointment>(patient, rx),
                    Catch::Contains("query Appointment: the sort-key condition was built for "
                                    "Prescription's sort key 'RX#{date}'") &&
                        Catch::Contains("reads Appointment, not Prescription"));

  // Each where it belongs reads what it says.
  CHECK(table.query<Appointment>(patient, by_date).size() == 1);
  CHECK(table.index("by_doctor").query<Appointment>(patient, by_doctor).size() == 1);
  CHECK(table.query<Prescription>(patient, rx).size() == 1);
  const auto both = table.query<pksk::ItemCollection<Appointment, Prescription>>(patient, rx);
  CHECK(both.items<Appointment>().empty());
  CHECK(std::ranges::distance(both.items<Prescription>()) == 1);
  // Typed options take a typed condition of an entity the query reads.
  CHECK(table
            .query<Appointment>(patient,
                                {.sk = AppointmentKey::between<&Appointment::date>("2024", "2025")})
            .size() == 1);
}
