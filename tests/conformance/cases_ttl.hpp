// SPDX-License-Identifier: BSL-1.0
// The conformance cases on time to live (TableOptions::ttl_attribute, Entity<T>::ttl), included
// by cases.hpp: what is stored (epoch seconds as a number), and that an expired item is read by
// nothing, before and after a sweep, while an unexpired one and one without the attribute are.
// The table's clock is the test's: "now" moves without waiting.

#include <atomic>
#include <chrono>
#include <memory>

#include "ttl.hpp"

namespace conformance {

using Devices = pksk::ItemCollection<Probe>;

inline std::vector<std::string> ats(const std::vector<Probe>& readings) {
  std::vector<std::string> out;
  for (const Probe& r : readings) out.push_back(r.at);
  return out;
}

}  // namespace conformance

TEST_CASE("a ttl member is stored as epoch seconds, a number, under its stored name",
          "[conformance][ttl]") {
  Store store;
  TtlTable<Store> t(store);
  const auto when = t.at(3600);
  t.table.put(Probe{.device = "d1", .at = "01", .value = 1, .expires = when});
  t.table.put(Login{.id = "s1", .until = when});
  const std::string seconds = std::to_string(t.start + 3600);
  const auto raw = t.table.query<pksk::ItemCollection<ProbeIndex>>(pksk::PartitionKey{"DEVICE#d1"});
  REQUIRE(raw.unknown().size() == 1);
  const std::string body(raw.unknown().front().json);
  if (raw.unknown().front().format == pksk::BodyFormat::json) {
    CHECK_THAT(body, Catch::Contains("\"expires\":" + seconds));
  } else {
    CHECK_THAT(body, Catch::Contains("\"expires\":{\"N\":\"" + seconds + "\"}"));
  }
  CHECK(t.table.get(Probe{.device = "d1", .at = "01"})->expires == when);
  CHECK(t.table.get(Login{.id = "s1"})->until == when);
}

TEST_CASE("an expired item is read by nothing, before and after a sweep; others are",
          "[conformance][ttl]") {
  Store store;
  TtlTable<Store> t(store);
  auto& table = t.table;
  using V = std::vector<std::string>;
  table.put(Probe{.device = "d1", .at = "01", .value = 1, .expires = t.at(100)});
  table.put(Probe{.device = "d1", .at = "02", .value = 2, .expires = t.at(100000)});
  table.put(Probe{.device = "d1", .at = "03", .value = 3});                        // never expires
  table.put(Probe{.device = "d1", .at = "04", .value = 4, .expires = t.at(-60)});  // past
  const pksk::PartitionKey d1 = pksk::partition(Probe{.device = "d1"});

  // Written with a time already past: never read, not even once.
  CHECK_FALSE(table.get(Probe{.device = "d1", .at = "04"}));
  CHECK(ats(table.query<Probe>(d1)) == V{"01", "02", "03"});
  CHECK(table.get(Probe{.device = "d1", .at = "01"}));

  t.now->store(t.start + 200);  // "01" expires
  const auto every_read_agrees = [&] {
    CHECK_FALSE(table.get(Probe{.device = "d1", .at = "01"}));
    CHECK(table.get(Probe{.device = "d1", .at = "02"})->value == 2);
    CHECK(table.get(Probe{.device = "d1", .at = "03"})->value == 3);
    CHECK(ats(table.query<Probe>(d1)) == V{"02", "03"});
    CHECK(ats(table.query<Probe>(d1, {.forward = false})) == V{"03", "02"});
    CHECK(table.query<Devices>(d1).size() == 2);
    CHECK(ats(table.scan<Probe>()) == V{"02", "03"});
    CHECK(table.count<Probe>(d1) == 2);
    const std::vector<Probe> keys{
        {.device = "d1", .at = "01"}, {.device = "d1", .at = "02"}, {.device = "d1", .at = "04"}};
    CHECK(ats(table.get_all(keys)) == V{"02"});
    const auto [expired, live] = table.transact_get(keys[0], keys[1]);
    CHECK_FALSE(expired);
    CHECK(live);
  };
  every_read_agrees();
  // A backend that keeps expired items until told (SQLite): swept, they read the same. One
  // that deletes them itself (DynamoDB) has nothing to sweep.
  const auto maintenance = pksk::maintenance(table);
  CHECK(maintenance.sweep_expired() == (Store::keeps_expired_items ? 2 : 0));
  CHECK(maintenance.sweep_expired() == 0);
  every_read_agrees();
}

TEST_CASE("an expired item counts toward a query's limit, as a filtered one does",
          "[conformance][ttl]") {
  Store store;
  TtlTable<Store> t(store);
  t.table.put(Probe{.device = "d1", .at = "01", .expires = t.at(10)});
  t.table.put(Probe{.device = "d1", .at = "02"});
  t.table.put(Probe{.device = "d1", .at = "03"});
  t.now->store(t.start + 20);
  const pksk::PartitionKey d1 = pksk::partition(Probe{.device = "d1"});
  auto page = t.table.query_page<Probe>(d1, {.limit = 2});
  CHECK(ats(page.items) == std::vector<std::string>{"02"});
  REQUIRE(page.next);
  page = t.table.query_page<Probe>(d1, {.limit = 2, .start = *page.next});
  CHECK(ats(page.items) == std::vector<std::string>{"03"});
}

TEST_CASE("an entity with a ttl member on a table whose ttl attribute is another is refused",
          "[conformance][ttl]") {
  Store store;
  auto plain = make_table(store);
  CHECK_THROWS_AS(plain.put(Probe{.device = "d1", .at = "01"}), pksk::ValidationError);
  CHECK_THROWS_WITH(plain.put(Probe{.device = "d1", .at = "01"}),
                    Catch::Contains("the ttl member 'expires'") &&
                        Catch::Contains("TableOptions::ttl_attribute"));
  pksk::Table other{store.backend, fresh_table_name(), {.ttl_attribute = "gone"}};
  CHECK_THROWS_WITH(other.get(Login{.id = "s1"}),
                    Catch::Contains("'until' (stored as 'expires')") && Catch::Contains("'gone'"));
}

TEST_CASE("an update of the ttl member stores epoch seconds, and can expire the item",
          "[conformance][ttl]") {
  Store store;
  TtlTable<Store> t(store);
  const Probe key{.device = "d1", .at = "01"};
  t.table.put(Probe{.device = "d1", .at = "01", .value = 1});
  const Probe later = t.table.update(key, pksk::set(&Probe::expires, t.at(50)));
  CHECK(later.expires == t.at(50));
  CHECK(t.table.get(key)->expires == t.at(50));
  // Conditions and filters compare the ttl member as it is stored: epoch seconds.
  CHECK(
      t.table.query<Probe>(pksk::partition(key), {.filter = pksk::attr(&Probe::expires) > t.at(49)})
          .size() == 1);
  CHECK(
      t.table.query<Probe>(pksk::partition(key), {.filter = pksk::attr(&Probe::expires) > t.at(50)})
          .empty());
  CHECK(t.table
            .query<Probe>(pksk::partition(key),
                          {.filter = pksk::between(pksk::attr(&Probe::expires), t.at(0), t.at(60))})
            .size() == 1);
  t.table.update(key, pksk::set(&Probe::expires, t.at(-1)),
                 pksk::when(pksk::attr(&Probe::expires) == t.at(50)));
  CHECK_FALSE(t.table.get(key));
  CHECK(t.table.query<Probe>(pksk::partition(key)).empty());
}

TEST_CASE("an expired item not yet deleted is there for a write's conditions and updates",
          "[conformance][ttl]") {
  Store store;
  TtlTable<Store> t(store);
  const Probe key{.device = "d1", .at = "01"};
  const Probe stale{.device = "d1", .at = "01", .value = 7, .expires = t.at(-60)};  // past
  t.table.put(stale);
  CHECK_FALSE(t.table.get(key));  // reads do not see it
  // DynamoDB deletes an expired item some time after it expires; until then a write finds it.
  CHECK_THROWS_AS(t.table.put(Probe{.device = "d1", .at = "01", .value = 8}, pksk::if_absent),
                  pksk::ConditionFailed);
  CHECK_THROWS_AS(t.table.update(key, pksk::set(&Probe::value, 9), pksk::if_absent),
                  pksk::ConditionFailed);
  // An update changes the stored item, which keeps its other members (its expiry too).
  const Probe updated = t.table.update(key, pksk::add(&Probe::value, 1));
  CHECK(updated.value == 8);
  CHECK(updated.expires == t.at(-60));
  const Probe moved = t.table.update(key, pksk::set(&Probe::expires, t.at(3600)), pksk::exists);
  CHECK(moved.value == 8);
  CHECK(t.table.get(key) == moved);
}
