// SPDX-License-Identifier: BSL-1.0
// pksk::access_patterns: the design table rendered from entity definitions (checked against
// expected files), its JSON read back, and the design stored with an SQLite table.

#include <array>
#include <catch2/catch.hpp>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

#include "support/temp_dir.hpp"

namespace design {

// The README's shop, with its index.
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

// The classic layout: stored names differ from the members'.
struct Invoice {
  std::string customer_id;
  std::string number;
  double amount{};
};

// Attendees and their tickets share partitions in an index only.
struct Attendee {
  std::string id;
  std::string name;
};
struct Ticket {
  std::string event;
  std::string ticket;
  std::string attendee;
};

}  // namespace design

template <>
struct pksk::Entity<design::Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<design::Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr std::array indexes = {
      pksk::Index{"gsi1", "ORDER#{order_id}", "CUSTOMER#{customer_id}"}};
};
template <>
struct pksk::Entity<design::Invoice> {
  static constexpr std::string_view type = "Invoice";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#INVOICE#{number}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"amount", "Total"}};
};
template <>
struct pksk::Entity<design::Attendee> {
  static constexpr std::string_view type = "Attendee";
  static constexpr std::string_view pk = "ATTENDEE#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array indexes = {pksk::Index{"gsi1", "ATTENDEE#{id}", "A"}};
};
template <>
struct pksk::Entity<design::Ticket> {
  static constexpr std::string_view type = "Ticket";
  static constexpr std::string_view pk = "EVENT#{event}";
  static constexpr std::string_view sk = "TICKET#{ticket}";
  static constexpr std::array indexes = {
      pksk::Index{"gsi1", "ATTENDEE#{attendee}", "TICKET#{ticket}"}};
};

namespace {

using CustomerOrders = pksk::ItemCollection<design::Customer, design::Order>;

std::string expected_file(const std::string& name) {
  std::ifstream in(std::string(PKSK_TEST_EXPECTED_DIR) + "/" + name, std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The entities a design lists, in order, by type.
std::vector<std::string> entity_types(const pksk::AccessPatterns& d) {
  std::vector<std::string> types;
  for (const pksk::DesignEntity& e : d.entities) types.push_back(e.type);
  return types;
}

}  // namespace

// Members come after the listed entities, each entity once.
static_assert(
    std::is_same_v<pksk::detail::design_entities_t<design::Order, CustomerOrders, design::Order>,
                   pksk::detail::TypeSet<design::Order, design::Customer>>);

TEST_CASE("the shop's design renders as the expected Markdown and JSON") {
  const pksk::AccessPatterns d =
      pksk::access_patterns<design::Customer, design::Order, CustomerOrders>();
  CHECK(d.to_markdown() == expected_file("shop.md"));
  CHECK(d.to_json() == expected_file("shop.json"));
  // The same entities give the same bytes.
  CHECK(pksk::access_patterns<design::Customer, design::Order, CustomerOrders>().to_json() ==
        d.to_json());
}

TEST_CASE("a collection's members need not be listed apart; listed entities come first") {
  CHECK(entity_types(pksk::access_patterns<CustomerOrders>()) ==
        std::vector<std::string>{"Customer", "Order"});
  CHECK(entity_types(pksk::access_patterns<design::Order, CustomerOrders>()) ==
        std::vector<std::string>{"Order", "Customer"});
  CHECK(pksk::access_patterns<CustomerOrders>() ==
        pksk::access_patterns<design::Customer, design::Order, CustomerOrders>());
}

TEST_CASE("stored names show the attribute each member is stored under") {
  const pksk::AccessPatterns d = pksk::access_patterns<design::Invoice>();
  REQUIRE(d.entities.size() == 1);
  CHECK(d.entities[0].attributes ==
        std::vector<pksk::DesignAttribute>{{"customer_id", "CustomerId", true},
                                           {"number", "Number", true},
                                           {"amount", "Total", false}});
  CHECK(d.to_markdown().find(
            "| Invoice | `customer_id` as `CustomerId` (key), `number` as `Number` (key), "
            "`amount` as `Total` |\n") != std::string::npos);
}

TEST_CASE("a collection that shares partitions in an index only is read there") {
  using Tickets = pksk::ItemCollection<design::Attendee, design::Ticket>;
  const pksk::AccessPatterns d = pksk::access_patterns<Tickets>();
  REQUIRE(d.collections.size() == 1);
  CHECK(d.collections[0].partitions ==
        std::vector<pksk::DesignPartition>{{"gsi1", "ATTENDEE#{id}"}});
  REQUIRE(!d.patterns.empty());
  // In the index the attendee's item is no longer the one item of its partition by key alone.
  CHECK(d.patterns[0] == pksk::AccessPattern{"Attendees and Tickets by ATTENDEE#{id}",
                                             "gsi1",
                                             {"Attendee", "Ticket"},
                                             "pk = \"ATTENDEE#{id}\"",
                                             true,
                                             ""});
}

TEST_CASE("the owner of a collection comes first backwards when its sort key sorts last") {
  const pksk::AccessPatterns d = pksk::access_patterns<CustomerOrders>();
  REQUIRE(d.patterns.size() >= 2);
  CHECK(d.patterns[1] == pksk::AccessPattern{"Customer and its newest N Orders by CUSTOMER#{id}",
                                             "",
                                             {"Customer", "Order"},
                                             "pk = \"CUSTOMER#{id}\"",
                                             false,
                                             "N + 1"});
}

TEST_CASE("from_json reads back what to_json wrote, and refuses anything else") {
  const pksk::AccessPatterns d =
      pksk::access_patterns<design::Customer, design::Order, design::Invoice, CustomerOrders>();
  CHECK(pksk::AccessPatterns::from_json(d.to_json()) == d);
  CHECK(pksk::AccessPatterns::from_json(d.to_json()).to_markdown() == d.to_markdown());

  CHECK_THROWS_AS(pksk::AccessPatterns::from_json("{\"pksk_design\": "), pksk::DecodeError);
  CHECK_THROWS_WITH(pksk::AccessPatterns::from_json(
                        R"({"pksk_design": 2, "entities": [], "collections": [], "patterns": []})"),
                    "pksk: not a stored design: version 2; this pksk reads version 1");
  CHECK_THROWS_AS(pksk::AccessPatterns::from_json(
                      R"({"pksk_design": 2, "entities": [], "collections": [], "patterns": []})"),
                  pksk::ValidationError);
  CHECK_THROWS_WITH(
      pksk::AccessPatterns::from_json(R"({"pksk_design": 1, "entities": [], "collections": []})"),
      "pksk: not a stored design: member \"patterns\" is missing or of the wrong type");
  CHECK_THROWS_AS(pksk::AccessPatterns::from_json(
                      R"({"pksk_design": 1, "entities": [1], "collections": [], "patterns": []})"),
                  pksk::ValidationError);
}

TEST_CASE("a design stored with an SQLite table is read back equal") {
  support::TempDir dir;
  const std::string path = dir.file("shop.db");
  const pksk::AccessPatterns d =
      pksk::access_patterns<design::Customer, design::Order, CustomerOrders>();
  pksk::sqlite::Backend backend{path};
  pksk::Table table{backend, "shop", {.indexes = {"gsi1"}}};
  pksk::Table other{backend, "other"};

  CHECK_FALSE(pksk::sqlite::stored_design(backend, "shop").has_value());
  pksk::sqlite::store_design(backend, "shop", d);
  CHECK(pksk::sqlite::stored_design(backend, "shop") == d);
  // SQLite's table names are case-insensitive: one table, one design.
  CHECK(pksk::sqlite::stored_design(backend, "SHOP") == d);
  CHECK_FALSE(pksk::sqlite::stored_design(backend, "other").has_value());

  // A new design replaces the old one.
  const pksk::AccessPatterns smaller = pksk::access_patterns<design::Customer>();
  pksk::sqlite::store_design(backend, "Shop", smaller);
  CHECK(pksk::sqlite::stored_design(backend, "shop") == smaller);

  // It lasts with the file.
  pksk::sqlite::Backend reopened{path, {.read_only = true}};
  CHECK(pksk::sqlite::stored_design(reopened, "shop") == smaller);
}

TEST_CASE("a design needs its table") {
  pksk::sqlite::Backend backend{":memory:"};
  const auto code_of = [&](auto&& call) {
    try {
      call();
    } catch (const pksk::BackendError& e) {
      CHECK(std::string(e.what()).find("does not exist") != std::string::npos);
      return e.code();
    }
    return boost::system::error_code{};
  };
  CHECK(code_of([&] {
          pksk::sqlite::store_design(backend, "missing", pksk::access_patterns<design::Customer>());
        }) == pksk::errc::missing_table);
  CHECK(code_of([&] { (void)pksk::sqlite::stored_design(backend, "missing"); }) ==
        pksk::errc::missing_table);
}
