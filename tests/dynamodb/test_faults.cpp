// The DynamoDB backend behind fault_proxy.py (throttling answers, 500s, connections dropped
// before and after DynamoDB applied a request, slow answers), each written through the proxy
// and checked directly against DynamoDB Local.

#include <catch2/catch.hpp>
#include <pksk/dynamodb.hpp>

#include <set>
#include <string>
#include <vector>
#include "local_endpoint.hpp"

namespace faults {

struct Item {
  std::string group;
  std::string id;
  int value{};
};
struct Counter {
  std::string id;
  long long n{};
};

}  // namespace faults

template <>
struct pksk::Entity<faults::Item> {
  static constexpr std::string_view type = "Item";
  static constexpr std::string_view pk = "G#{group}";
  static constexpr std::string_view sk = "I#{id}";
};
template <>
struct pksk::Entity<faults::Counter> {
  static constexpr std::string_view type = "Counter";
  static constexpr std::string_view pk = "COUNTER#{id}";
  static constexpr std::string_view sk = "C";
};

namespace {

using faults::Counter;
using faults::Item;

pksk::dynamodb::Options options(std::string endpoint) {
  return {.endpoint = std::move(endpoint),
          .region = "us-east-1",
          .credentials = pksk::dynamodb::Credentials{"pksk", "faults", ""},
          .request_timeout = std::chrono::seconds(5),
          .retry = {.max_attempts = 20,
                    .base_delay = std::chrono::milliseconds(1),
                    .max_delay = std::chrono::milliseconds(20)},
          .create_missing_tables = true};
}

std::string fresh_table_name() {
  return pksk_test::fresh_table_name("faults_");
}

struct Setup {
  pksk::dynamodb::Backend direct_backend{options(pksk_test::dynamodb_local_endpoint())};
  pksk::dynamodb::Backend faulty_backend{
      options(pksk_test::endpoint_in("PKSK_FAULT_PROXY_ENDPOINT_FILE"))};
  std::string name = fresh_table_name();
  pksk::Table<pksk::dynamodb::Backend> direct{direct_backend, name};  // creates the table
  pksk::Table<pksk::dynamodb::Backend> faulty{faulty_backend, name};
};

Item item(std::string group, int i) {
  return Item{.group = std::move(group), .id = std::to_string(1000 + i), .value = i};
}

}  // namespace

TEST_CASE("through faults, puts, batches and transactions land exactly once; reads are whole") {
  Setup s;
  for (int i = 0; i < 60; ++i) s.faulty.put(item("put", i));
  std::vector<Item> batch;
  for (int i = 0; i < 60; ++i) batch.push_back(item("batch", i));
  s.faulty.put_all(batch);
  // Each transaction adds 1: applied twice, the counter would end above 20.
  for (int i = 0; i < 20; ++i) {
    s.faulty.transact()
        .update(Counter{.id = "tx"}, pksk::add(&Counter::n, 1LL))
        .put(item("tx", i))
        .commit();
  }

  const auto check_group = [&](auto& table, const std::string& group, int count) {
    const std::vector<Item> got = table.template query<Item>(pksk::PartitionKey{"G#" + group});
    REQUIRE(got.size() == static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) CHECK(got[static_cast<std::size_t>(i)].value == i);
  };
  check_group(s.direct, "put", 60);
  check_group(s.direct, "batch", 60);
  check_group(s.direct, "tx", 20);
  CHECK(s.direct.get(Counter{.id = "tx"})->n == 20);

  // Reads through the faults: every page, every key.
  std::set<std::string> paged;
  auto page = s.faulty.query_page<Item>(pksk::PartitionKey{"G#put"}, {.limit = 7});
  for (;;) {
    for (const Item& i : page.items) paged.insert(i.id);
    if (!page.next) break;
    page =
        s.faulty.query_page<Item>(pksk::PartitionKey{"G#put"}, {.limit = 7, .start = *page.next});
  }
  CHECK(paged.size() == 60);
  std::vector<Item> keys;  // 60 written, 60 absent
  for (int i = 0; i < 120; ++i)
    keys.push_back(Item{.group = "put", .id = std::to_string(1000 + i)});
  CHECK(s.faulty.get_all(keys).size() == 60);
}

TEST_CASE("through faults, an update whose answer was lost is never applied twice") {
  Setup s;
  int applied = 0;
  int unknown = 0;
  for (int i = 0; i < 40; ++i) {
    try {
      s.faulty.update(Counter{.id = "u"}, pksk::add(&Counter::n, 1LL));
      ++applied;
    } catch (const pksk::BackendError& e) {
      CHECK_THAT(e.what(), Catch::Contains("whether it was applied is unknown"));
      ++unknown;
    }
  }
  INFO(applied << " applied, " << unknown << " with their answer lost");
  CHECK(applied > 0);
  CHECK(unknown > 0);  // the proxy did drop answers, so the check below means something
  const long long n = s.direct.get(Counter{.id = "u"})->n;
  CHECK(n >= applied);
  CHECK(n <= applied + unknown);
}
