// SPDX-License-Identifier: BSL-1.0
// The conformance cases of unique guards that name their owner (table/detail/unique_guards.hpp),
// included by cases.hpp: a value whose holder expired, was erased by another tool, or was
// changed by one can be claimed again, by another item or by the same one written again; an
// item that no longer decodes can still be replaced and erased; maintenance(table).sweep_guards
// removes the guards no item holds, and only those.

#include <chrono>
#include <optional>
#include <string>

namespace conformance {

enum class Tier { basic, gold };

struct Badge {
  std::string id;
  std::string code;
  Tier tier{};
  std::optional<std::chrono::system_clock::time_point> expires;
};
// The same items as another tool writes them: no guards kept, the tier as free text.
struct BadgeByHand {
  std::string id;
  std::string code;
  std::string tier = "basic";
};

// A table of badges with a clock the test moves.
template <class S>
struct BadgeTable {
  std::chrono::system_clock::time_point now = std::chrono::system_clock::from_time_t(1'800'000'000);
  pksk::Table<std::remove_cvref_t<decltype(std::declval<S&>().backend)>> table;
  explicit BadgeTable(S& store)
      : table(store.backend, fresh_table_name(),
              {.ttl_attribute = "expires", .ttl_clock = [this] { return now; }}) {}
  bool claims(const std::string& id, const std::string& code) {
    try {
      table.put(Badge{.id = id, .code = code});
      return true;
    } catch (const pksk::ConditionFailed&) {
      return false;
    }
  }
};

}  // namespace conformance

template <>
struct pksk::Entity<conformance::Badge> {
  static constexpr std::string_view type = "Badge";
  static constexpr std::string_view pk = "BADGE#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array unique = {"code"};
  static constexpr std::string_view ttl = "expires";
};
template <>
struct pksk::Entity<conformance::BadgeByHand> {
  static constexpr std::string_view type = "Badge";
  static constexpr std::string_view pk = "BADGE#{id}";
  static constexpr std::string_view sk = "A";
};

TEST_CASE("unique: the value of an item that expired can be claimed again",
          "[conformance][unique]") {
  Store store;
  BadgeTable<Store> t(store);
  t.table.put(Badge{.id = "1", .code = "X", .expires = t.now + std::chrono::minutes(1)});
  CHECK_FALSE(t.claims("2", "X"));
  t.now += std::chrono::minutes(2);  // badge 1 expired; it may not be deleted yet
  CHECK_FALSE(t.table.get(Badge{.id = "1"}));
  CHECK(t.claims("2", "X"));
  CHECK_FALSE(t.claims("3", "X"));
  // The expired item written again is a new item: it claims its values as one.
  t.table.put(Badge{.id = "1", .code = "Y"});
  CHECK(t.table.get(Badge{.id = "1"})->code == "Y");
  CHECK_FALSE(t.claims("3", "Y"));
  CHECK_FALSE(t.claims("3", "X"));
}

TEST_CASE("unique: the value of an item another tool erased or changed can be claimed again",
          "[conformance][unique]") {
  Store store;
  BadgeTable<Store> t(store);
  t.table.put(Badge{.id = "1", .code = "X"});
  t.table.erase(BadgeByHand{.id = "1"});  // its guard stays behind, naming badge 1
  CHECK(t.claims("2", "X"));
  CHECK_FALSE(t.claims("3", "X"));

  t.table.put(Badge{.id = "4", .code = "Z"});
  t.table.put(BadgeByHand{.id = "4", .code = "W"});  // Z is no longer badge 4's
  CHECK(t.claims("5", "Z"));

  // The same item written again after another tool erased it keeps its own value.
  t.table.put(Badge{.id = "6", .code = "V"});
  t.table.erase(BadgeByHand{.id = "6"});
  CHECK(t.claims("6", "V"));
  CHECK_FALSE(t.claims("7", "V"));
}

TEST_CASE("unique: an item that no longer decodes can be replaced and erased",
          "[conformance][unique]") {
  Store store;
  BadgeTable<Store> t(store);
  t.table.put(Badge{.id = "1", .code = "Q"});
  t.table.put(BadgeByHand{.id = "1", .code = "Q", .tier = "platinum"});  // no such Tier
  CHECK_THROWS_AS(t.table.get(Badge{.id = "1"}), pksk::DecodeError);
  t.table.put(Badge{.id = "1", .code = "Q2", .tier = conformance::Tier::gold});
  CHECK(t.table.get(Badge{.id = "1"})->code == "Q2");
  CHECK(t.claims("2", "Q"));  // released by the replacement
  t.table.put(BadgeByHand{.id = "1", .code = "Q2", .tier = "retired"});
  CHECK(t.table.erase(Badge{.id = "1"}));
  CHECK(t.claims("3", "Q2"));
}

TEST_CASE("unique: sweep_guards removes the guards no item holds, and only those",
          "[conformance][unique]") {
  Store store;
  BadgeTable<Store> t(store);
  t.table.put(Badge{.id = "1", .code = "A1"});
  t.table.put(Badge{.id = "2", .code = "A2"});
  t.table.put(Badge{.id = "3", .code = "A3", .expires = t.now + std::chrono::minutes(1)});
  t.table.erase(BadgeByHand{.id = "1"});
  const auto maintenance = pksk::maintenance(t.table);
  CHECK(maintenance.sweep_guards() == 1);
  t.now += std::chrono::minutes(2);
  CHECK(maintenance.sweep_guards() == 1);  // badge 3's, expired
  CHECK(maintenance.sweep_guards() == 0);
  CHECK_FALSE(t.claims("4", "A2"));
  CHECK(t.claims("4", "A1"));
  CHECK(t.claims("5", "A3"));
}

TEST_CASE("unique: writes in a transaction claim, move and release their guards",
          "[conformance][unique]") {
  Store store;
  BadgeTable<Store> t(store);
  t.table.transact()
      .put(Badge{.id = "1", .code = "A"})
      .put(Badge{.id = "2", .code = "B"})
      .put(BadgeByHand{.id = "9", .code = "unguarded"})
      .commit();
  CHECK_FALSE(t.claims("3", "A"));
  CHECK_FALSE(t.claims("3", "B"));

  // A value taken cancels the whole transaction, with a reason for the caller's actions only.
  try {
    t.table.transact()
        .put(BadgeByHand{.id = "8", .code = "other"})
        .put(Badge{.id = "3", .code = "A"})
        .commit();
    FAIL("the transaction was not canceled");
  } catch (const pksk::TransactionCanceled& canceled) {
    CHECK_THAT(canceled.what(), Catch::Contains("'code'") && Catch::Contains("'A'"));
    REQUIRE(canceled.reasons().size() == 2);
    CHECK(canceled.reasons()[1] == pksk::CancellationReason::condition_failed);
  }
  CHECK_FALSE(t.table.get(BadgeByHand{.id = "8"}));

  // An update moves its guard; an erase releases it; both beside other actions.
  t.table.transact()
      .update(Badge{.id = "1"}, pksk::set(&Badge::code, std::string("C")))
      .erase(Badge{.id = "2"})
      .commit();
  CHECK(t.claims("4", "A"));
  CHECK(t.claims("5", "B"));
  CHECK_FALSE(t.claims("6", "C"));
}
