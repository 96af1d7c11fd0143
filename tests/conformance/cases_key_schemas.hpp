// SPDX-License-Identifier: BSL-1.0
// The conformance cases on key schemas other tools design, included by cases.hpp: a table
// keyed by its partition key alone (DynamoDB's HASH-only key schema), whose entities declare no
// sort key.

#include <vector>

namespace conformance_key_schemas {

// An item of a table without a sort key: one per login id.
struct Login {
  std::string id;
  std::string user;
  int hits{};
  std::optional<std::string> note;
  friend bool operator==(const Login&, const Login&) = default;
};

// A second entity of the same table, told apart by its partition key's literal text.
struct Device {
  std::string serial;
  std::string owner;
  friend bool operator==(const Device&, const Device&) = default;
};

// An entity with a sort key, which a table without one refuses.
struct Sorted {
  std::string id;
  std::string name;
  friend bool operator==(const Sorted&, const Sorted&) = default;
};

}  // namespace conformance_key_schemas

template <>
struct pksk::Entity<conformance_key_schemas::Login> {
  static constexpr std::string_view type = "Login";
  static constexpr std::string_view pk = "LOGIN#{id}";
};

template <>
struct pksk::Entity<conformance_key_schemas::Device> {
  static constexpr std::string_view type = "Device";
  static constexpr std::string_view pk = "DEVICE#{serial}";
};

template <>
struct pksk::Entity<conformance_key_schemas::Sorted> {
  static constexpr std::string_view type = "Sorted";
  static constexpr std::string_view pk = "SORTED#{id}";
  static constexpr std::string_view sk = "A";
};

static_assert(pksk::partition_key_only_v<conformance_key_schemas::Login>);
static_assert(!pksk::partition_key_only_v<conformance_key_schemas::Sorted>);

namespace conformance_key_schemas {

using namespace conformance;

inline const pksk::TableOptions unsorted_options{
    .pk_attribute = "Id", .sk_attribute = "", .type_attribute = "Kind"};

}  // namespace conformance_key_schemas

TEST_CASE("no sort key: every write and read of a table keyed by its partition key alone",
          "[conformance][key_schemas]") {
  using namespace conformance_key_schemas;
  Store store;
  pksk::Table table{store.backend, fresh_table_name(), unsorted_options};
  const Login s1{"s1", "ada", 1, std::nullopt};
  table.put(s1);
  CHECK(table.get(Login{.id = "s1"}) == s1);
  CHECK_FALSE(table.get(Login{.id = "nope"}).has_value());
  CHECK_THROWS_AS(table.put(Login{.id = "s1"}, pksk::if_absent), pksk::ConditionFailed);
  table.put(Login{"s1", "ada", 2, "again"}, pksk::when(pksk::attr(&Login::hits) == 1));

  const Login updated =
      table.update(Login{.id = "s1"}, pksk::add(&Login::hits, 5), pksk::remove(&Login::note));
  CHECK(updated == Login{"s1", "ada", 7, std::nullopt});
  // An update creates the item when there is none, keyed by its partition key alone.
  CHECK(table.update(Login{.id = "s2"}, pksk::set(&Login::user, "bob")) ==
        Login{"s2", "bob", 0, std::nullopt});
  CHECK(table.upsert(Login{"s3", "cy", 3, "kept"}) == Login{"s3", "cy", 3, "kept"});
  table.erase(Login{.id = "s3"}, pksk::when(pksk::attr(&Login::hits) == 3));
  CHECK_FALSE(table.get(Login{.id = "s3"}).has_value());

  // A query of a partition returns its one item; the partition key is all its key.
  CHECK(table.query<Login>(pksk::partition(Login{.id = "s1"})) == std::vector<Login>{updated});
  CHECK(table.count<Login>(pksk::PartitionKey{"LOGIN#s2"}) == 1);
  CHECK(table.query<Login>(pksk::PartitionKey{"LOGIN#none"}).empty());
  const auto page = table.query_page<Login>(pksk::PartitionKey{"LOGIN#s1"}, {.limit = 1});
  CHECK(page.items == std::vector<Login>{updated});

  // Batches and transactions.
  std::vector<Login> many;
  for (int i = 0; i < 30; ++i) many.push_back(Login{numbered("b", i), "bulk", i, std::nullopt});
  table.put_all(many);
  std::vector<Login> keys;
  for (const Login& s : many) keys.push_back(Login{.id = s.id});
  std::vector<Login> got = table.get_all(keys);
  std::sort(got.begin(), got.end(), [](const auto& a, const auto& b) { return a.hits < b.hits; });
  CHECK(got == many);
  table.transact()
      .put(Device{"d1", "ada"})
      .update(Login{.id = "s2"}, pksk::set(&Login::hits, 9))
      .erase(Login{.id = "b0"})
      .check(Login{.id = "s1"}, pksk::exists)
      .commit();
  CHECK(table.get(Device{.serial = "d1"}) == Device{"d1", "ada"});
  CHECK(table.get(Login{.id = "s2"})->hits == 9);
  CHECK_FALSE(table.get(Login{.id = "b0"}).has_value());
  CHECK_THROWS_AS(
      table.transact().put(Device{"d2", "bob"}).check(Login{.id = "b0"}, pksk::exists).commit(),
      pksk::TransactionCanceled);
  CHECK_FALSE(table.get(Device{.serial = "d2"}).has_value());
  const auto [login, device] = table.transact_get(Login{.id = "s1"}, Device{.serial = "d1"});
  CHECK(login == updated);
  CHECK(device == Device{"d1", "ada"});

  // A scan of one type, every page.
  CHECK(table.scan<Login>().size() == 31);
  CHECK(table.scan<Device>() == std::vector<Device>{{"d1", "ada"}});
  table.erase(Device{.serial = "d1"});
  CHECK(table.scan<Device>().empty());

  // No sort key is stored: the item has its partition key, its type and its members.
  const auto raw = table.scan<pksk::ItemCollection<Device>>().unknown();
  REQUIRE(raw.size() == 31);
  for (const pksk::RawItem& item : raw) {
    INFO(item.pk);
    CHECK(item.sk.empty());
    CHECK(item.type == "Login");
  }
}

TEST_CASE("no sort key: an entity whose key shape is not the table's is refused",
          "[conformance][key_schemas]") {
  using namespace conformance_key_schemas;
  Store store;
  const std::string name = fresh_table_name();
  pksk::Table unsorted{store.backend, name, unsorted_options};
  // The table was made keyed by its partition key alone: opened as one with a sort key, its
  // key schema does not match.
  pksk::TableOptions with_sort_key = unsorted_options;
  with_sort_key.sk_attribute = "SK";
  try {
    pksk::Table reopened{store.backend, name, with_sort_key};
    FAIL("a table without a sort key opened as one with a sort key");
  } catch (const pksk::BackendError& e) {
    CHECK(e.code() == pksk::errc::schema_mismatch);
  }
  CHECK_THROWS_AS(unsorted.put(Sorted{"x", "n"}), pksk::ValidationError);
  CHECK_THROWS_AS(unsorted.get(Sorted{.id = "x"}), pksk::ValidationError);
  CHECK_THROWS_AS(unsorted.query<Sorted>(pksk::PartitionKey{"SORTED#x"}), pksk::ValidationError);
  CHECK_THROWS_AS(unsorted.scan<Sorted>(), pksk::ValidationError);
  // A sort-key condition means nothing without a sort key.
  CHECK_THROWS_AS(
      unsorted.query<Login>(pksk::PartitionKey{"LOGIN#s1"}, {.sk = pksk::begins_with("A")}),
      pksk::ValidationError);

  const std::string sorted_name = fresh_table_name();
  pksk::Table sorted{store.backend, sorted_name};
  try {
    pksk::Table reopened{store.backend, sorted_name, {.sk_attribute = ""}};
    FAIL("a table with a sort key opened as one without");
  } catch (const pksk::BackendError& e) {
    CHECK(e.code() == pksk::errc::schema_mismatch);
  }
  CHECK_THROWS_AS(sorted.put(Login{"s1", "ada", 1, std::nullopt}), pksk::ValidationError);
  CHECK_THROWS_AS(sorted.get(Login{.id = "s1"}), pksk::ValidationError);
  CHECK_THROWS_AS(sorted.query<Login>(pksk::PartitionKey{"LOGIN#s1"}), pksk::ValidationError);
  CHECK_THROWS_AS(sorted.transact().put(Login{.id = "s1", .user = "u"}).commit(),
                  pksk::ValidationError);
  CHECK(sorted.scan<Sorted>().empty());
}
