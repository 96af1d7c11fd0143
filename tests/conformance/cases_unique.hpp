// SPDX-License-Identifier: BSL-1.0
// The conformance cases of unique members (Entity<T>::unique), included by cases.hpp: each
// value claims a guard item in the same transaction as the item, so a second item cannot take
// it, and writes that fail or remove the item leave no guard behind.

namespace conformance {

struct Member {
  std::string id;
  std::string email;
  std::optional<std::string> handle;
  int visits{};
  friend bool operator==(const Member&, const Member&) = default;
};
struct VersionedMember {
  std::string id;
  std::string email;
  int rev{};
};

// Whether a probe item can claim its unique values (and then gives them back): false while
// another item holds one. A guard left behind by a failed or removed write would make it false.
template <class Table, class Probe>
bool can_claim(Table& table, Probe probe) {
  try {
    table.put(probe);
  } catch (const pksk::ConditionFailed&) {
    return false;
  }
  table.erase(probe);
  return true;
}
template <class Table>
bool email_free(Table& table, const std::string& email) {
  return can_claim(table, Member{.id = "probe", .email = email});
}
template <class Table>
bool handle_free(Table& table, const std::string& handle) {
  return can_claim(table, Member{.id = "probe", .email = "probe@example.com", .handle = handle});
}
template <class Table>
bool versioned_email_free(Table& table, const std::string& email) {
  return can_claim(table, VersionedMember{.id = "probe", .email = email});
}

}  // namespace conformance

template <>
struct pksk::Entity<conformance::Member> {
  static constexpr std::string_view type = "Member";
  static constexpr std::string_view pk = "MEMBER#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array unique = {"email", "handle"};
};
template <>
struct pksk::Entity<conformance::VersionedMember> {
  static constexpr std::string_view type = "VersionedMember";
  static constexpr std::string_view pk = "VMEMBER#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::string_view version = "rev";
  static constexpr std::array unique = {"email"};
};

TEST_CASE("unique: a value held by one item cannot be taken by another", "[conformance][unique]") {
  Store store;
  auto table = make_table(store);
  table.put(Member{.id = "1", .email = "ada@example.com", .handle = "ada"});
  CHECK_FALSE(email_free(table, "ada@example.com"));
  CHECK_FALSE(handle_free(table, "ada"));

  CHECK_THROWS_MATCHES(
      table.put(Member{.id = "2", .email = "ada@example.com"}), pksk::ConditionFailed,
      WhatContains<pksk::ConditionFailed>({"'email'", "'ada@example.com'", "another item"}));
  CHECK_FALSE(table.get(Member{.id = "2"}));  // nothing written
  CHECK_FALSE(handle_free(table, "ada"));

  // The same item keeps its values: no claim of its own value fails.
  table.put(Member{.id = "1", .email = "ada@example.com", .handle = "ada", .visits = 2});
  CHECK(table.get(Member{.id = "1"})->visits == 2);

  // A new value moves the guard; the old one is free again.
  table.put(Member{.id = "1", .email = "lovelace@example.com", .handle = "ada"});
  CHECK(email_free(table, "ada@example.com"));
  CHECK_FALSE(email_free(table, "lovelace@example.com"));
  table.put(Member{.id = "2", .email = "ada@example.com"});
  CHECK(table.get(Member{.id = "2"})->email == "ada@example.com");

  // An empty optional claims nothing, and emptying one releases its guard.
  table.put(Member{.id = "1", .email = "lovelace@example.com"});
  CHECK(handle_free(table, "ada"));
  table.put(Member{.id = "3", .email = "c@example.com", .handle = "ada"});
}

TEST_CASE("unique: update moves a guard, erase releases them", "[conformance][unique]") {
  Store store;
  auto table = make_table(store);
  table.put(Member{.id = "1", .email = "a@example.com"});
  table.put(Member{.id = "2", .email = "b@example.com", .handle = "bee"});

  const Member updated =
      table.update(Member{.id = "1"}, pksk::set(&Member::email, std::string("c@example.com")),
                   pksk::add(&Member::visits, 1));
  CHECK(updated.email == "c@example.com");
  CHECK(updated.visits == 1);
  CHECK(email_free(table, "a@example.com"));
  CHECK_FALSE(email_free(table, "c@example.com"));

  // An update that does not touch a unique member keeps the guards as they are.
  CHECK(table.update(Member{.id = "2"}, pksk::add(&Member::visits, 5)).visits == 5);
  CHECK_FALSE(handle_free(table, "bee"));

  CHECK_THROWS_AS(
      table.update(Member{.id = "1"}, pksk::set(&Member::email, std::string("b@example.com"))),
      pksk::ConditionFailed);
  CHECK(table.get(Member{.id = "1"})->email == "c@example.com");
  CHECK_THROWS_AS(table.update(Member{.id = "1"}, pksk::set(&Member::handle, std::string("bee"))),
                  pksk::ConditionFailed);

  table.update(Member{.id = "2"}, pksk::remove(&Member::handle));
  CHECK(handle_free(table, "bee"));

  CHECK(table.erase(Member{.id = "2"}));
  CHECK(email_free(table, "b@example.com"));
  CHECK_FALSE(table.erase(Member{.id = "2"}));
  // A failed erase releases nothing.
  CHECK_THROWS_AS(table.erase(Member{.id = "1"}, pksk::when(pksk::attr(&Member::visits) > 10)),
                  pksk::ConditionFailed);
  CHECK_FALSE(email_free(table, "c@example.com"));

  // upsert writes as update does.
  const Member upserted = table.upsert(Member{.id = "1", .email = "d@example.com"});
  CHECK(upserted.email == "d@example.com");
  CHECK(email_free(table, "c@example.com"));
  CHECK_FALSE(email_free(table, "d@example.com"));
}

TEST_CASE("unique: a versioned entity keeps its version rules", "[conformance][unique]") {
  Store store;
  auto table = make_table(store);
  VersionedMember m{.id = "1", .email = "v@example.com"};
  table.put(m);
  CHECK(m.rev == 1);
  VersionedMember stale{.id = "1", .email = "w@example.com", .rev = 0};
  CHECK_THROWS_MATCHES(table.put(stale), pksk::ConditionFailed,
                       WhatContains<pksk::ConditionFailed>({"'rev' is 0", "the item exists"}));
  CHECK(versioned_email_free(table, "w@example.com"));
  m.email = "w@example.com";
  table.put(m);
  CHECK(m.rev == 2);
  CHECK(versioned_email_free(table, "v@example.com"));
}

TEST_CASE("unique: 8 threads race to claim one email, exactly one wins", "[conformance][unique]") {
  Store store;
  auto table = make_table(store);
  std::atomic<int> won{0}, refused{0}, other{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      try {
        table.put(Member{.id = numbered("racer", t), .email = "race@example.com"});
        ++won;
      } catch (const pksk::ConditionFailed&) {
        ++refused;
      } catch (...) {
        ++other;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(won == 1);
  CHECK(refused == 7);
  CHECK(other == 0);
  CHECK_FALSE(email_free(table, "race@example.com"));
  int holders = 0;
  for (int t = 0; t < 8; ++t) holders += table.get(Member{.id = numbered("racer", t)}) ? 1 : 0;
  CHECK(holders == 1);
}

TEST_CASE("unique: a failed condition carries the stored item with return_stored_on_failure",
          "[conformance][unique]") {
  Store store;
  auto table = make_table(store);
  const Member stored{.id = "1", .email = "s@example.com", .handle = "s", .visits = 3};
  table.put(stored);
  const auto failure = [](auto&& write) -> pksk::ConditionFailed {
    try {
      write();
    } catch (const pksk::ConditionFailed& e) {
      return e;
    }
    FAIL("the condition did not fail");
    return pksk::ConditionFailed("unreachable");
  };
  const auto stored_of = [](const pksk::ConditionFailed& e) -> std::optional<Member> {
    if (e.stored() == nullptr) return std::nullopt;
    CHECK(e.stored()->type == "Member");
    CHECK(e.stored()->pk == "MEMBER#1");
    return pksk::decode_body<Member>(*e.stored());
  };
  const auto too_few = pksk::when(pksk::attr(&Member::visits) > 10);

  Member changed = stored;
  changed.email = "t@example.com";
  pksk::ConditionFailed e =
      failure([&] { table.put(changed, pksk::if_absent, pksk::return_stored_on_failure); });
  CHECK(stored_of(e) == stored);
  e = failure([&] {
    table.update(Member{.id = "1"}, pksk::set(&Member::email, std::string("u@example.com")),
                 too_few, pksk::return_stored_on_failure);
  });
  CHECK(stored_of(e) == stored);
  e = failure([&] { table.upsert(changed, too_few, pksk::return_stored_on_failure); });
  CHECK(stored_of(e) == stored);
  e = failure([&] { table.erase(Member{.id = "1"}, too_few, pksk::return_stored_on_failure); });
  CHECK(stored_of(e) == stored);
  // No item under the key: nothing to carry. Not asked: nothing either.
  e = failure([&] {
    table.erase(Member{.id = "absent"}, pksk::if_exists, pksk::return_stored_on_failure);
  });
  CHECK(e.stored() == nullptr);
  e = failure([&] { table.erase(Member{.id = "1"}, too_few); });
  CHECK(e.stored() == nullptr);
  // A value another item holds is no condition of the item's: no stored item either.
  e = failure([&] {
    table.put(Member{.id = "2", .email = "s@example.com"}, pksk::return_stored_on_failure);
  });
  CHECK_THAT(e.what(), Catch::Matchers::Contains("another item"));
  CHECK(e.stored() == nullptr);
  // Nothing was written, and the guards are as they were.
  CHECK(table.get(Member{.id = "1"}) == stored);
  CHECK(email_free(table, "t@example.com"));
  CHECK_FALSE(email_free(table, "s@example.com"));

  // A stale versioned write says so, and carries the newer item to retry from.
  VersionedMember first{.id = "1", .email = "v1@example.com"};
  table.put(first);
  VersionedMember second = first;
  second.email = "v2@example.com";
  table.put(second);
  first.email = "v3@example.com";
  e = failure([&] { table.put(first, pksk::return_stored_on_failure); });
  CHECK_THAT(e.what(), Catch::Matchers::Contains("stale version"));
  REQUIRE(e.stored() != nullptr);
  const VersionedMember newer = pksk::decode_body<VersionedMember>(*e.stored());
  CHECK(newer.rev == 2);
  CHECK(newer.email == "v2@example.com");
  CHECK(versioned_email_free(table, "v3@example.com"));
}

TEST_CASE("an add past an integer member's range is a ValidationError for a unique entity too",
          "[conformance][unique]") {
  using conformance::Member;
  Store store;
  pksk::Table table{store.backend, fresh_table_name()};
  table.put(Member{.id = "m1", .email = "m1@example.com", .visits = 2147483647});
  CHECK_THROWS_AS(table.update(Member{.id = "m1"}, pksk::add(&Member::visits, 1)),
                  pksk::ValidationError);
  CHECK(table.get(Member{.id = "m1"})->visits == 2147483647);  // nothing written
  // The caller's own condition failing is still a ConditionFailed, without the stored item it
  // did not ask for; with return_stored_on_failure it carries it.
  try {
    table.update(Member{.id = "m1"}, pksk::add(&Member::visits, -1),
                 pksk::when(pksk::attr(&Member::email) == "nobody"));
    FAIL("the condition is false");
  } catch (const pksk::ConditionFailed& e) {
    CHECK(e.stored() == nullptr);
  }
  try {
    table.update(Member{.id = "m1"}, pksk::add(&Member::visits, -1),
                 pksk::when(pksk::attr(&Member::email) == "nobody"),
                 pksk::return_stored_on_failure);
    FAIL("the condition is false");
  } catch (const pksk::ConditionFailed& e) {
    CHECK(e.stored() != nullptr);
  }
  CHECK(table.update(Member{.id = "m1"}, pksk::add(&Member::visits, -1)).visits == 2147483646);
}

TEST_CASE("stats count chunks and guards as pksk's own items, never as collections",
          "[conformance][stats][unique][chunked]") {
  using conformance::Member;
  Store store;
  pksk::Table table{store.backend, fresh_table_name()};
  table.put(Member{.id = "m1", .email = "m1@example.com", .handle = "one"});  // two guards
  table.put(Member{.id = "m2", .email = "m2@example.com"});                   // one
  table.put(conformance::big_reply("01", 600'000, 7));  // past 400 KB compressed: chunked
  const std::size_t chunks = conformance::chunk_items(table);
  REQUIRE(chunks >= 2);

  const pksk::TableStats stats = table.stats({.largest = 10});
  CHECK(stats.own_items == chunks + 3);
  CHECK(stats.items == 3 + chunks + 3);
  CHECK(stats.own_bytes > 600'000);
  CHECK(stats.collections == 3);  // MEMBER#m1, MEMBER#m2 and BIG#t1, where the reply's head is
  REQUIRE(stats.largest.size() == 3);
  std::vector<std::string> keys;
  for (const pksk::CollectionStats& c : stats.largest) keys.push_back(c.pk);
  std::sort(keys.begin(), keys.end());
  CHECK(keys == std::vector<std::string>{"BIG#t1", "MEMBER#m1", "MEMBER#m2"});
  // The own items are still in the per-type figures.
  std::size_t typed_items = 0;
  for (const pksk::TypeStats& t : stats.types) typed_items += t.items;
  CHECK(typed_items == stats.items);
  CHECK(table.stats({.warn_share = 1e-9}).warnings.size() == 3);
}
