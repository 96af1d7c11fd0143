// SPDX-License-Identifier: BSL-1.0
// The conformance cases on key members kept only in the keys, included by cases.hpp: items
// another tool wrote with their ids in PK and SK and in no attribute decode whole on every read
// path, and an entity with store_key_members = false writes no attribute for them.

#include <chrono>
#include <cstdint>

namespace conformance_keys {

enum class Level { low, high };

// Seed 004's layout, ids in CustomerId and OrderId as pksk writes them.
struct KeyedOrder {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double amount{};
  friend bool operator==(const KeyedOrder&, const KeyedOrder&) = default;
};

struct KeyedCustomer {
  std::string customer_id;
  std::string name;
  friend bool operator==(const KeyedCustomer&, const KeyedCustomer&) = default;
};

// Every kind of key field parsed back: text, an enum, a time, a signed sort-key integer. Its
// key members are not stored.
struct Sensor {
  std::string device;
  Level level{};
  std::chrono::system_clock::time_point at{};
  std::int32_t seq{};
  double value{};
  friend bool operator==(const Sensor&, const Sensor&) = default;
};

// KeyedOrder with an index by status: customer_id is in no index key, only in the table's.
struct StatusOrder {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double amount{};
  friend bool operator==(const StatusOrder&, const StatusOrder&) = default;
};

// What another tool writes for it: the index's keys, no ids.
struct IndexedOrderBody {
  std::string Status;
  double Total{};
  std::string GSI1PK;
  std::string GSI1SK;
};

// ElectroDB's layout: key values lowercased, the ids kept as written in their attributes.
enum class Role { admin, viewer };
struct TeamSeat {
  std::string team;
  std::string member_id;
  Role role{};
  std::string name;
  friend bool operator==(const TeamSeat&, const TeamSeat&) = default;
};
struct SeatBody {
  std::string team;
  std::string memberId;
  std::string role;
  std::string name;
};

// A table without a type attribute: a shelf and its crates, told apart by sort key.
struct Shelf {
  std::string store;
  std::string name;
  int capacity{};
  friend bool operator==(const Shelf&, const Shelf&) = default;
};
struct Crate {
  std::string store;
  std::int64_t number{};
  std::string shelf;
  bool sealed{};
  friend bool operator==(const Crate&, const Crate&) = default;
};
struct NoteBody {
  std::string text;
};

// A student's enrolment in a course, indexed by term: its term, standing, grade and credits are
// in the index's keys alone (credits a signed integer of fixed width in the sort key, standing
// an enum), and the item is read through indexes that project less than the whole item.
enum class Standing { good, probation };
struct Enrolment {
  std::string course;
  std::string student;
  std::string term;
  Standing standing{};
  std::string grade;
  std::int32_t credits{};
  std::string advisor;  // in no key, projected by no index
  std::string note;     // projected by the INCLUDE index
  friend bool operator==(const Enrolment&, const Enrolment&) = default;
};

// A student's mentor, in the index only when there is one (a sparse index's optional member).
struct Pairing {
  std::string student;
  std::optional<std::string> mentor;
  std::string topic;
  friend bool operator==(const Pairing&, const Pairing&) = default;
};
struct PairingBody {
  std::string topic;
  std::string GSI1PK;
  std::string GSI1SK;
};

// What another tool writes for it: the index's keys and the advisor, none of the members the
// index's keys hold.
struct EnrolmentBody {
  std::string advisor;
  std::string GSI1PK;
  std::string GSI1SK;
};

// An order in two indexes that project less than the item: keys only, and keys with Status.
struct ProjectedOrder {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double amount{};
  friend bool operator==(const ProjectedOrder&, const ProjectedOrder&) = default;
};

// One order type in two indexes on the same key attributes, projected differently; and one
// that formats them from different templates, which cannot be.
struct TwinOrder {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double amount{};
  friend bool operator==(const TwinOrder&, const TwinOrder&) = default;
};
struct SkewedOrder {
  std::string customer_id;
  std::string order_id;
  std::string status;
};

// A string set another writer stored as a list of strings (DynamoDB's L).
struct Tagged {
  std::string id;
  std::set<std::string> tags;
  friend bool operator==(const Tagged&, const Tagged&) = default;
};
struct TaggedBody {
  std::string id;
  std::vector<std::string> tags;
};

// A type no item has: a scan of a collection of it keeps every item raw.
struct Unrelated {
  std::string id;
};

// What another tool writes besides the keys and the type: no ids.
struct OrderBody {
  std::string Status;
  double Total{};
};
struct CustomerBody {
  std::string Name;
};

}  // namespace conformance_keys

template <>
struct pksk::Entity<conformance_keys::KeyedOrder> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"amount", "Total"}};
};
template <>
struct pksk::Entity<conformance_keys::KeyedCustomer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#PROFILE";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
};
template <>
struct pksk::Entity<conformance_keys::StatusOrder> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"amount", "Total"}};
  static constexpr std::array indexes = {pksk::Index{"gsi1", "STATUS#{status}", "{order_id}"}};
};
template <>
struct pksk::Entity<conformance_keys::Unrelated> {
  static constexpr std::string_view type = "Unrelated";
  static constexpr std::string_view pk = "U#{id}";
  static constexpr std::string_view sk = "U";
};
template <>
struct pksk::Entity<conformance_keys::TeamSeat> {
  static constexpr std::string_view type = "membership";
  static constexpr std::string_view pk = "$crm#team_{team:lower}";
  static constexpr std::string_view sk =
      "$membership_1#role_{role:lower}#memberid_{member_id:lower}";
  static constexpr pksk::Case attribute_case = pksk::Case::camel;
};
template <>
struct pksk::Entity<conformance_keys::Shelf> {
  static constexpr std::string_view type = "Shelf";
  static constexpr std::string_view pk = "STORE#{store}";
  static constexpr std::string_view sk = "SHELF#{name}";
};
template <>
struct pksk::Entity<conformance_keys::Crate> {
  static constexpr std::string_view type = "Crate";
  static constexpr std::string_view pk = "STORE#{store}";
  static constexpr std::string_view sk = "CRATE#{number}";
  static constexpr std::array indexes = {pksk::Index{"gsi1", "SHELF#{shelf}", "{number}"}};
};
template <>
struct pksk::Entity<conformance_keys::ProjectedOrder> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"amount", "Total"}};
  static constexpr std::array indexes = {pksk::Index{"keys", "STATUS#{status}", "{order_id}"},
                                         pksk::Index{"statuses", "S#{status}", "{order_id}"}};
};
template <>
struct pksk::Entity<conformance_keys::Enrolment> {
  static constexpr std::string_view type = "Enrolment";
  static constexpr std::string_view pk = "COURSE#{course}";
  static constexpr std::string_view sk = "STUDENT#{student}";
  static constexpr std::array indexes = {
      pksk::Index{"lean", "TERM#{term}#{standing}", "GRADE#{grade}#{credits}#{student}"},
      pksk::Index{"noted", "TERM#{term}#{standing}", "GRADE#{grade}#{credits}#{student}"}};
};
template <>
struct pksk::Entity<conformance_keys::Pairing> {
  static constexpr std::string_view type = "Pairing";
  static constexpr std::string_view pk = "STUDENT#{student}";
  static constexpr std::string_view sk = "PAIRING";
  static constexpr std::array indexes = {pksk::Index{"lean", "MENTOR#{mentor}", "{student}"}};
};
template <>
struct pksk::Entity<conformance_keys::TwinOrder> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr std::array indexes = {pksk::Index{"full", "STATUS#{status}", "{order_id}"},
                                         pksk::Index{"lean", "STATUS#{status}", "{order_id}"}};
};
template <>
struct pksk::Entity<conformance_keys::SkewedOrder> {
  static constexpr std::string_view type = "Skewed";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#SKEWED#{order_id}";
  static constexpr std::array indexes = {pksk::Index{"full", "STATUS#{status}", "{order_id}"},
                                         pksk::Index{"lean", "S#{status}", "{order_id}"}};
};
template <>
struct pksk::Entity<conformance_keys::Tagged> {
  static constexpr std::string_view type = "Tagged";
  static constexpr std::string_view pk = "TAGGED#{id}";
  static constexpr std::string_view sk = "T";
};
template <>
struct pksk::Entity<conformance_keys::Sensor> {
  static constexpr std::string_view type = "Sensor";
  static constexpr std::string_view pk = "DEVICE#{device}";
  static constexpr std::string_view sk = "R#{level}#{at}#{seq}";
  static constexpr bool store_key_members = false;
};

namespace conformance_keys {

using namespace conformance;
using Customers = pksk::ItemCollection<KeyedCustomer, KeyedOrder>;

inline const pksk::TableOptions classic_options{
    .pk_attribute = "PK", .sk_attribute = "SK", .type_attribute = "Type"};

// Writes an item as another tool would: its keys, its type and `body`'s members, nothing else.
template <class Store, class Body>
void put_raw(Store& store, const std::string& table, std::string_view pk, std::string_view sk,
             std::string_view type, const Body& body,
             const pksk::TableOptions& options = classic_options) {
  const auto handle = store.backend.open_table(pksk::backend::TableSpec{table, options});
  std::string text;
  if (pksk::detail::body_format_of(store.backend, handle) == pksk::BodyFormat::json) {
    pksk::encode_body(body, text);
  } else {
    pksk::encode_attribute_values(body, text);
  }
  store.backend.put(
      handle, pksk::backend::PutRequest{.item = {.pk = pk, .sk = sk, .type = type, .body = text}});
}

// Customer c1 and two orders, ids only in their keys.
template <class Store>
std::string fill_raw(Store& store) {
  std::string name = fresh_table_name();
  put_raw(store, name, "CUSTOMER#c1", "#PROFILE", "Customer", CustomerBody{"Ada"});
  put_raw(store, name, "CUSTOMER#c1", "#ORDER#o1", "Order", OrderBody{"shipped", 10});
  put_raw(store, name, "CUSTOMER#c1", "#ORDER#o2", "Order", OrderBody{"pending", 20});
  return name;
}

// The stored body of the item with sort key `sk`, read raw by a scan that knows no type.
template <class Table>
std::string stored_body(Table& table, std::string_view sk) {
  const auto raw = table.template scan<pksk::ItemCollection<Unrelated>>();
  for (const pksk::RawItem& item : raw.unknown()) {
    if (item.sk == sk) return item.json;
  }
  FAIL("no item with sort key " << sk);
  return {};
}

const KeyedOrder o1{"c1", "o1", "shipped", 10};
const KeyedOrder o2{"c1", "o2", "pending", 20};

}  // namespace conformance_keys

TEST_CASE("key members: ids kept only in PK and SK are read back by every read",
          "[conformance][keys]") {
  using namespace conformance_keys;
  Store store;
  pksk::Table table{store.backend, fill_raw(store), classic_options};
  const pksk::PartitionKey pk{"CUSTOMER#c1"};

  CHECK(table.get(KeyedOrder{.customer_id = "c1", .order_id = "o1"}) == o1);
  CHECK(table.query<KeyedOrder>(pk) == std::vector<KeyedOrder>{o1, o2});
  CHECK(table.query<KeyedOrder>(pk, {.forward = false}) == std::vector<KeyedOrder>{o2, o1});
  CHECK(table.scan<KeyedOrder>() == std::vector<KeyedOrder>{o1, o2});
  CHECK(table.get_all(std::vector<KeyedOrder>{o2, o1}) == std::vector<KeyedOrder>{o2, o1});
  const auto [customer, order] =
      table.transact_get(KeyedCustomer{.customer_id = "c1"}, KeyedOrder{"c1", "o2", "", 0});
  CHECK(customer == KeyedCustomer{"c1", "Ada"});
  CHECK(order == o2);

  const auto all = table.query<Customers>(pk);
  REQUIRE(all.size() == 3);
  CHECK(all.count<KeyedOrder>() == 2);
  CHECK(*all.first<KeyedCustomer>() == KeyedCustomer{"c1", "Ada"});
  CHECK(*all.first<KeyedOrder>() == o1);
  CHECK(all.unknown().empty());
  const auto scanned = table.scan<Customers>();
  CHECK(scanned.size() == 3);
  CHECK(scanned.first<KeyedCustomer>()->customer_id == "c1");

  // An item kept raw decodes whole too: its keys are kept with it.
  const auto raw = table.scan<pksk::ItemCollection<Unrelated>>();
  REQUIRE(raw.unknown().size() == 3);
  for (const pksk::RawItem& item : raw.unknown()) {
    if (item.sk == "#ORDER#o1") CHECK(pksk::decode_body<KeyedOrder>(item) == o1);
  }

  // A projection of a key member reads it from the key; one without leaves it empty.
  const auto ids = table.query<KeyedOrder>(
      pk, {.select = pksk::members(&KeyedOrder::order_id, &KeyedOrder::amount)});
  REQUIRE(ids.size() == 2);
  CHECK(ids[1] == KeyedOrder{"", "o2", "", 20});
  const auto statuses = table.query<KeyedOrder>(pk, {.select = pksk::members(&KeyedOrder::status)});
  REQUIRE(statuses.size() == 2);
  CHECK(statuses[0] == KeyedOrder{"", "", "shipped", 0});
  const auto projected = table.query<Customers>(
      pk, {.select = pksk::members(&KeyedOrder::order_id, &KeyedCustomer::name)});
  CHECK(projected.first<KeyedCustomer>()->name == "Ada");
  CHECK(projected.first<KeyedCustomer>()->customer_id.empty());
  CHECK(projected.first<KeyedOrder>()->order_id == "o1");

  // An update of such an item returns it whole.
  CHECK(table.update(KeyedOrder{.customer_id = "c1", .order_id = "o1"},
                     pksk::set(&KeyedOrder::status, "returned")) ==
        KeyedOrder{"c1", "o1", "returned", 10});

  // Read whole, the item writes back: its ids are then stored, as pksk stores them.
  KeyedOrder changed = *table.get(KeyedOrder{.customer_id = "c1", .order_id = "o2"});
  changed.status = "shipped";
  table.put(changed);
  CHECK(table.get(changed) == changed);
  const std::string text = stored_body(table, "#ORDER#o2");
  CHECK(text.find("\"OrderId\"") != std::string::npos);
}

TEST_CASE("key members: a key that does not have its template's shape is a DecodeError",
          "[conformance][keys]") {
  using namespace conformance_keys;
  Store store;
  const std::string name = fresh_table_name();
  // "#ORDER#o3#x": the id may not hold '#', so no order_id makes this key.
  put_raw(store, name, "CUSTOMER#c1", "#ORDER#o3#x", "Order", OrderBody{"odd", 1});
  pksk::Table table{store.backend, name, classic_options};
  CHECK_THROWS_MATCHES(
      table.query<KeyedOrder>(pksk::PartitionKey{"CUSTOMER#c1"}), pksk::DecodeError,
      WhatContains<pksk::DecodeError>(
          {"sk '#ORDER#o3#x'", "does not match Order's key template \"#ORDER#{order_id}\""}));
  // A collection keeps it, as any item that does not decode, when asked to.
  const auto kept =
      table.query<Customers>(pksk::PartitionKey{"CUSTOMER#c1"}, {.keep_undecodable = true});
  REQUIRE(kept.unknown().size() == 1);
  CHECK(kept.unknown()[0].sk == "#ORDER#o3#x");
}

TEST_CASE("key members: store_key_members = false stores them in the keys alone",
          "[conformance][keys]") {
  using namespace conformance_keys;
  using namespace std::chrono_literals;
  Store store;
  pksk::Table table{store.backend, fresh_table_name()};
  const auto at = std::chrono::system_clock::time_point{} + 1'700'000'000s + 123ms;
  const Sensor r{"d1", Level::high, at, -7, 21.5};
  table.put(r);
  table.put(Sensor{"d1", Level::low, at, 42, 3});
  CHECK(table.get(Sensor{.device = "d1", .level = Level::high, .at = at, .seq = -7}) == r);
  const pksk::PartitionKey pk{"DEVICE#d1"};
  const auto readings = table.query<Sensor>(pk);
  REQUIRE(readings.size() == 2);
  CHECK(readings[0] == Sensor{"d1", Level::high, at, -7, 21.5});
  CHECK(readings[1].seq == 42);

  const std::string text = stored_body(table, pksk::sort_key(r));
  CHECK(text.find("\"value\"") != std::string::npos);
  for (const std::string_view name : {"\"device\"", "\"level\"", "\"at\"", "\"seq\""}) {
    INFO(name);
    CHECK(text.find(name) == std::string::npos);
  }

  // An update neither sets them (it creates the item without them too) nor reads them.
  const Sensor created =
      table.update(Sensor{"d2", Level::low, at, 1, 0}, pksk::set(&Sensor::value, 9.0));
  CHECK(created == Sensor{"d2", Level::low, at, 1, 9.0});
  CHECK(stored_body(table, pksk::sort_key(created)).find("\"device\"") == std::string::npos);

  CHECK(table.update(r, pksk::add(&Sensor::value, 1.0)) == Sensor{"d1", Level::high, at, -7, 22.5});

  // A filter on a member that is no attribute would never hold: attr(&Sensor::seq) is a
  // compile error (tests/compile_fail/filter_member_kept_in_keys.cpp).
  using pksk::attr;
  CHECK(table.query<Sensor>(pk, {.filter = attr(&Sensor::value) > 10.0}).size() == 1);
}

TEST_CASE("key members: an index query reads back the ids its item keeps only in the table's keys",
          "[conformance][keys]") {
  using namespace conformance_keys;
  Store store;
  const std::string name = fresh_table_name();
  pksk::TableOptions options = classic_options;
  options.indexes = {{"gsi1", "GSI1PK", "GSI1SK"}};
  put_raw(store, name, "CUSTOMER#c1", "#ORDER#o1", "Order",
          IndexedOrderBody{"open", 10, "STATUS#open", "o1"}, options);
  put_raw(store, name, "CUSTOMER#c2", "#ORDER#o2", "Order",
          IndexedOrderBody{"open", 20, "STATUS#open", "o2"}, options);
  pksk::Table table{store.backend, name, options};
  CHECK(table.index("gsi1").query<StatusOrder>(pksk::PartitionKey{"STATUS#open"}) ==
        std::vector<StatusOrder>{{"c1", "o1", "open", 10}, {"c2", "o2", "open", 20}});
}

TEST_CASE("key casing: lowercased keys as ElectroDB writes them are found from ids in any case",
          "[conformance][keys]") {
  using namespace conformance_keys;
  Store store;
  const std::string name = fresh_table_name();
  const pksk::TableOptions options{
      .pk_attribute = "pk", .sk_attribute = "sk", .type_attribute = "__edb_e__"};
  put_raw(store, name, "$crm#team_blue-sky", "$membership_1#role_admin#memberid_m-ab7",
          "membership", SeatBody{"Blue-Sky", "M-Ab7", "admin", "Ada"}, options);
  pksk::Table table{store.backend, name, options};
  const TeamSeat ada{"Blue-Sky", "M-Ab7", Role::admin, "Ada"};
  CHECK(table.get(TeamSeat{.team = "BLUE-SKY", .member_id = "m-ab7", .role = Role::admin}) == ada);

  const TeamSeat bob{"blue-SKY", "Bob-1", Role::viewer, "Bob"};
  table.put(bob);
  const pksk::PartitionKey team = pksk::partition(TeamSeat{.team = "Blue-Sky"});
  CHECK(team.value == "$crm#team_blue-sky");
  CHECK(table.query<TeamSeat>(team) == std::vector<TeamSeat>{ada, bob});
  using Key = pksk::sort_key_of<TeamSeat>;
  CHECK(table.query<TeamSeat>(team, {.sk = Key::begins_with<&TeamSeat::role, &TeamSeat::member_id>(
                                         Role::viewer, "BO")}) == std::vector<TeamSeat>{bob});
  const auto raw = table.scan<pksk::ItemCollection<Unrelated>>();
  std::vector<std::string> keys;
  for (const pksk::RawItem& item : raw.unknown()) keys.push_back(item.pk + " " + item.sk);
  CHECK(keys ==
        std::vector<std::string>{"$crm#team_blue-sky $membership_1#role_admin#memberid_m-ab7",
                                 "$crm#team_blue-sky $membership_1#role_viewer#memberid_bob-1"});
  // The ids keep their own case in their attributes.
  CHECK(stored_body(table, "$membership_1#role_viewer#memberid_bob-1").find("\"Bob-1\"") !=
        std::string::npos);
}

TEST_CASE("no type attribute: items are told apart by the sort-key template they match",
          "[conformance][keys]") {
  using namespace conformance_keys;
  Store store;
  const std::string name = fresh_table_name();
  const pksk::TableOptions options{.type_attribute = "", .indexes = {{"gsi1", "GSI1PK", "GSI1SK"}}};
  // Another tool's note in the same partition: no entity's template matches it.
  put_raw(store, name, "STORE#s1", "NOTE#1", "", NoteBody{"count again"}, options);
  pksk::Table table{store.backend, name, options};
  const Shelf shelf{"s1", "a", 12};
  table.put(shelf);
  table.put_all(std::vector<Crate>{{"s1", 7, "a", false}, {"s1", -3, "a", true}});
  table.transact().put(Crate{"s1", 40, "b", false}).commit();
  const Crate updated =
      table.update(Crate{.store = "s1", .number = 7}, pksk::set(&Crate::sealed, true));
  CHECK(updated == Crate{"s1", 7, "a", true});

  const pksk::PartitionKey pk{"STORE#s1"};
  using Stock = pksk::ItemCollection<Shelf, Crate>;
  const Stock all = table.query<Stock>(pk);
  REQUIRE(all.size() == 4);
  CHECK(all.items<Crate>().front() == Crate{"s1", -3, "a", true});
  REQUIRE(all.first<Shelf>() != nullptr);
  CHECK(*all.first<Shelf>() == shelf);
  REQUIRE(all.unknown().size() == 1);
  CHECK(all.unknown()[0].sk == "NOTE#1");
  CHECK(all.unknown()[0].type.empty());

  const std::vector<Crate> crates = table.query<Crate>(pk);
  REQUIRE(crates.size() == 3);
  CHECK(crates[1] == Crate{"s1", 7, "a", true});
  CHECK(table.count<Crate>(pk) == 3);
  CHECK(table.count<Stock>(pk) == 4);
  CHECK(table.scan<Shelf>() == std::vector<Shelf>{shelf});
  CHECK(table.scan<Crate>().size() == 3);
  CHECK(table.get(Crate{.store = "s1", .number = 40}) == Crate{"s1", 40, "b", false});
  CHECK(table.get_all(std::vector<Crate>{{.store = "s1", .number = -3}}) ==
        std::vector<Crate>{{"s1", -3, "a", true}});
  const auto [got_shelf, got_crate] =
      table.transact_get(Shelf{.store = "s1", .name = "a"}, Crate{.store = "s1", .number = 7});
  CHECK(got_shelf == shelf);
  CHECK(got_crate == Crate{"s1", 7, "a", true});
  CHECK_FALSE(table.get(Shelf{.store = "s1", .name = "x"}).has_value());
  CHECK(table.index("gsi1").query<Crate>(pksk::PartitionKey{"SHELF#a"}).size() == 2);

  // Nothing stores a type: every item reads back without one.
  for (const pksk::RawItem& item : table.scan<pksk::ItemCollection<Unrelated>>().unknown()) {
    INFO(item.sk);
    CHECK(item.type.empty());
    CHECK(item.json.find("Crate") == std::string::npos);
  }
}

TEST_CASE("no type attribute on some items: they are read by their sort keys",
          "[conformance][keys]") {
  using namespace conformance_keys;
  Store store;
  const std::string name = fill_raw(store);
  put_raw(store, name, "CUSTOMER#c1", "#ORDER#o3", "", OrderBody{"lost", 30});
  pksk::Table table{store.backend, name, classic_options};
  const pksk::PartitionKey pk{"CUSTOMER#c1"};
  const KeyedOrder o3{"c1", "o3", "lost", 30};
  CHECK(table.query<KeyedOrder>(pk) == std::vector<KeyedOrder>{o1, o2, o3});
  const auto all = table.query<Customers>(pk);
  CHECK(all.size() == 4);
  CHECK(all.unknown().empty());
  CHECK(table.get(KeyedOrder{.customer_id = "c1", .order_id = "o3"}) == o3);
}

TEST_CASE(
    "index projections: items read through a KEYS_ONLY or INCLUDE index hold what it projects",
    "[conformance][keys]") {
  using namespace conformance_keys;
  Store store;
  pksk::TableOptions options = classic_options;
  options.indexes = {
      pksk::TableIndex{"keys", "GSI1PK", "GSI1SK", pksk::IndexProjection::keys_only},
      pksk::TableIndex{"statuses", "GSI2PK", "GSI2SK", pksk::IndexProjection::include, {"Status"}}};
  pksk::Table table{store.backend, fresh_table_name(), options};
  table.put(ProjectedOrder{"c1", "o1", "open", 10});
  table.put(ProjectedOrder{"c2", "o2", "open", 20});
  table.put(ProjectedOrder{"c2", "o3", "shipped", 30});

  // Keys only: no type, no Status, no Total; the ids are read back from the table's keys, the
  // status from the index's.
  CHECK(table.index("keys").query<ProjectedOrder>(pksk::PartitionKey{"STATUS#open"}) ==
        std::vector<ProjectedOrder>{{"c1", "o1", "open", 0}, {"c2", "o2", "open", 0}});
  CHECK(table.index("statuses").query<ProjectedOrder>(pksk::PartitionKey{"S#open"}) ==
        std::vector<ProjectedOrder>{{"c1", "o1", "open", 0}, {"c2", "o2", "open", 0}});
  // A filter sees only what the index holds.
  using pksk::attr;
  CHECK(table.index("statuses")
            .query<ProjectedOrder>(pksk::PartitionKey{"S#open"},
                                   {.filter = attr(&ProjectedOrder::status) == "open"})
            .size() == 2);
  CHECK_THROWS_MATCHES(
      table.index("keys").query<ProjectedOrder>(pksk::PartitionKey{"STATUS#open"},
                                                {.filter = attr(&ProjectedOrder::amount) > 0.0}),
      pksk::ValidationError, WhatContains<pksk::ValidationError>({"Total"}));
  // The table still holds the whole item.
  CHECK(table.get(ProjectedOrder{.customer_id = "c2", .order_id = "o3"}) ==
        ProjectedOrder{"c2", "o3", "shipped", 30});

  pksk::TableOptions wrong = classic_options;
  wrong.indexes = {pksk::TableIndex{"g", "GPK", "GSK", pksk::IndexProjection::include}};
  CHECK_THROWS_MATCHES(
      (pksk::Table{store.backend, fresh_table_name(), wrong}), pksk::ValidationError,
      WhatContains<pksk::ValidationError>({"projects IndexProjection::include with no attribute"}));
}

TEST_CASE("index projections: members only an index's keys hold are read back from them",
          "[conformance][keys]") {
  using namespace conformance_keys;
  Store store;
  pksk::TableOptions options = classic_options;
  options.indexes = {
      pksk::TableIndex{"lean", "GSI1PK", "GSI1SK", pksk::IndexProjection::keys_only},
      pksk::TableIndex{"noted", "GSI2PK", "GSI2SK", pksk::IndexProjection::include, {"note"}}};
  const std::string name = fresh_table_name();
  pksk::Table table{store.backend, name, options};
  const Enrolment ada{"CS101", "ada", "2027-spring", Standing::probation,
                      "A",     -3,    "turing",      "late"};
  const Enrolment bob{"CS102", "bob", "2027-spring", Standing::probation, "B", 12, "hopper", "ok"};
  const Enrolment cy{"CS101", "cy", "2027-spring", Standing::good, "A", 4, "lovelace", ""};
  table.put(ada);
  table.put_all(std::vector<Enrolment>{bob, cy});
  const pksk::PartitionKey probation = pksk::partition<"lean">(ada);
  REQUIRE(probation.value == "TERM#2027-spring#probation");

  // What the index's keys hold comes back; what it does not project keeps its default.
  const auto lean = [](Enrolment e) {
    e.advisor.clear();
    e.note.clear();
    return e;
  };
  const auto noted = [](Enrolment e) {
    e.advisor.clear();
    return e;
  };
  CHECK(table.index("lean").query<Enrolment>(probation) ==
        std::vector<Enrolment>{lean(ada), lean(bob)});
  CHECK(table.index("noted").query<Enrolment>(probation) ==
        std::vector<Enrolment>{noted(ada), noted(bob)});
  CHECK(table.index("lean").query<Enrolment>(pksk::partition<"lean">(cy)) ==
        std::vector<Enrolment>{lean(cy)});
  std::vector<Enrolment> each;
  for (const Enrolment& e : table.index("lean").each<Enrolment>(probation, {.limit = 1}))
    each.push_back(e);
  CHECK(each == std::vector<Enrolment>{lean(ada), lean(bob)});
  const auto page = table.index("noted").query_page<Enrolment>(probation, {.limit = 1});
  CHECK(page.items == std::vector<Enrolment>{noted(ada)});
  CHECK(table.index("lean").count<Enrolment>(probation) == 2);
  const auto collection = table.index("lean").query<pksk::ItemCollection<Enrolment>>(probation);
  std::vector<Enrolment> collected;
  for (const Enrolment& e : collection.items<Enrolment>()) collected.push_back(e);
  CHECK(collected == std::vector<Enrolment>{lean(ada), lean(bob)});
  CHECK(collection.unknown().empty());
  // A projection reads the members it names from the index's keys too; one the index does not
  // project keeps its default, as in a read of the whole item.
  const auto selected =
      pksk::members(&Enrolment::term, &Enrolment::credits, &Enrolment::note, &Enrolment::advisor);
  CHECK(table.index("noted").query<Enrolment>(probation, {.select = selected}) ==
        std::vector<Enrolment>{{"", "", "2027-spring", {}, "", -3, "", "late"},
                               {"", "", "2027-spring", {}, "", 12, "", "ok"}});
  CHECK(table.index("lean").query<Enrolment>(probation, {.select = selected}) ==
        std::vector<Enrolment>{{"", "", "2027-spring", {}, "", -3, "", ""},
                               {"", "", "2027-spring", {}, "", 12, "", ""}});
  // The table holds the whole item.
  CHECK(table.get(Enrolment{.course = "CS102", .student = "bob"}) == bob);

  // An item another tool wrote with those members in the index's keys alone reads back whole,
  // through the index and from the table.
  put_raw(store, name, "COURSE#CS201", "STUDENT#dee", "Enrolment",
          EnrolmentBody{"knuth", "TERM#2027-spring#probation", "GRADE#C#2147483640#dee"}, options);
  const Enrolment dee{"CS201", "dee", "2027-spring", Standing::probation, "C", -8, "knuth", ""};
  CHECK(table.get(Enrolment{.course = "CS201", .student = "dee"}) == dee);
  CHECK(table.index("lean").query<Enrolment>(probation) ==
        std::vector<Enrolment>{lean(ada), lean(bob), lean(dee)});
  CHECK(table.query<Enrolment>(pksk::PartitionKey{"COURSE#CS201"}) == std::vector<Enrolment>{dee});

  // An optional member comes back through the index; from the table, its absence is taken for
  // an empty optional.
  table.put(Pairing{"ada", "turing", "maths"});
  table.put(Pairing{"bob", std::nullopt, "art"});
  put_raw(store, name, "STUDENT#cy", "PAIRING", "Pairing",
          PairingBody{"logic", "MENTOR#hopper", "cy"}, options);
  CHECK(table.index("lean").query<Pairing>(pksk::partition<"lean">(Pairing{.mentor = "turing"})) ==
        std::vector<Pairing>{{"ada", "turing", ""}});
  CHECK(table.index("lean").query<Pairing>(pksk::PartitionKey{"MENTOR#hopper"}) ==
        std::vector<Pairing>{{"cy", "hopper", ""}});
  CHECK(table.get(Pairing{.student = "bob"}) == Pairing{"bob", std::nullopt, "art"});
  CHECK(table.get(Pairing{.student = "cy"}) == Pairing{"cy", std::nullopt, "logic"});

  // An index key that its template cannot have produced is a DecodeError naming the index.
  put_raw(store, name, "COURSE#CS301", "STUDENT#eve", "Enrolment",
          EnrolmentBody{"", "TERM#2027-spring#expelled", "GRADE#A#2147483648#eve"}, options);
  CHECK_THROWS_MATCHES(
      table.get(Enrolment{.course = "CS301", .student = "eve"}), pksk::DecodeError,
      WhatContains<pksk::DecodeError>(
          {"TERM#2027-spring#expelled", "in index 'lean'", "TERM#{term}#{standing}"}));
}

TEST_CASE("index projections: two indexes on the same key attributes, projected differently",
          "[conformance][keys]") {
  using namespace conformance_keys;
  Store store;
  pksk::TableOptions options;
  options.indexes = {
      pksk::TableIndex{"full", "GSI1PK", "GSI1SK"},
      pksk::TableIndex{"lean", "GSI1PK", "GSI1SK", pksk::IndexProjection::keys_only}};
  pksk::Table table{store.backend, fresh_table_name(), options};
  table.put(TwinOrder{"c1", "o1", "open", 10});
  table.put_all(std::vector<TwinOrder>{{"c2", "o2", "open", 20}, {"c2", "o3", "shipped", 30}});
  const pksk::PartitionKey open{"STATUS#open"};
  CHECK(table.index("full").query<TwinOrder>(open) ==
        std::vector<TwinOrder>{{"c1", "o1", "open", 10}, {"c2", "o2", "open", 20}});
  CHECK(table.index("lean").query<TwinOrder>(open) ==
        std::vector<TwinOrder>{{"c1", "o1", "open", 0}, {"c2", "o2", "open", 0}});
  // An update of the index's key moves the item in both.
  table.update(TwinOrder{.customer_id = "c2", .order_id = "o3"},
               pksk::set(&TwinOrder::status, std::string("open")));
  CHECK(table.index("full").count<TwinOrder>(open) == 3);
  CHECK(table.index("lean").count<TwinOrder>(open) == 3);

  CHECK_THROWS_MATCHES(table.put(SkewedOrder{"c1", "o9", "open"}), pksk::ValidationError,
                       WhatContains<pksk::ValidationError>(
                           {"indexes 'full' and 'lean' keep their keys in the same attributes"}));
  // Sharing one key attribute but not the other is still refused.
  pksk::TableOptions crossed;
  crossed.indexes = {pksk::TableIndex{"a", "GPK", "GSK"}, pksk::TableIndex{"b", "GPK", "OTHER"}};
  CHECK_THROWS_AS((pksk::Table{store.backend, fresh_table_name(), crossed}), pksk::ValidationError);
}

TEST_CASE("a string set stored as a list of strings reads into a std::set", "[conformance][keys]") {
  using namespace conformance_keys;
  Store store;
  const std::string name = fresh_table_name();
  const pksk::TableOptions options{};
  put_raw(store, name, "TAGGED#1", "T", "Tagged", TaggedBody{"1", {"red", "blue", "red"}}, options);
  pksk::Table table{store.backend, name, options};
  CHECK(table.get(Tagged{.id = "1"}) == Tagged{"1", {"blue", "red"}});
}
