// SPDX-License-Identifier: BSL-1.0
// The conformance cases on try_put, try_update and try_erase (table/write_result.hpp), included
// by cases.hpp: a write whose condition fails returns the ConditionFailed the same write would
// throw, with nothing written and nothing handed back, for a plain entity, a versioned one, a
// unique one and one with an extension; every other failure is still thrown.

#include <cstdint>
#include <string>

namespace conformance {

struct Ledger {  // versioned
  std::string id;
  std::int64_t balance = 0;
  std::int64_t rev = 0;
  friend bool operator==(const Ledger&, const Ledger&) = default;
};
struct Seat {
  std::string hall;
  std::string seat;
  std::string holder;
  std::int16_t holds = 0;
  friend bool operator==(const Seat&, const Seat&) = default;
};

}  // namespace conformance

template <>
struct pksk::Entity<conformance::Ledger> {
  static constexpr std::string_view type = "Ledger";
  static constexpr std::string_view pk = "LEDGER#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::string_view version = "rev";
};
template <>
struct pksk::Entity<conformance::Seat> {
  static constexpr std::string_view type = "Seat";
  static constexpr std::string_view pk = "HALL#{hall}";
  static constexpr std::string_view sk = "SEAT#{seat}";
};

TEST_CASE("try_ writes of a versioned entity return a stale version instead of throwing it",
          "[conformance][try_writes]") {
  using conformance::Ledger;
  Store store;
  pksk::Table table{store.backend, fresh_table_name()};

  Ledger mine{.id = "l1", .balance = 10};
  REQUIRE(table.try_put(mine));
  CHECK(mine.rev == 1);  // handed back, as put does
  Ledger theirs = *table.get(Ledger{.id = "l1"});
  REQUIRE(table.try_put(theirs));  // now at 2

  // My copy is stale: the result holds put's ConditionFailed, and my copy keeps its version.
  mine.balance = 20;
  pksk::WriteResult<void> stale = table.try_put(mine);
  REQUIRE_FALSE(stale);
  CHECK(stale.error().code() == pksk::errc::condition_failed);
  CHECK(std::string(stale.error().what()).find("stale version") != std::string::npos);
  CHECK(mine.rev == 1);
  CHECK(table.get(Ledger{.id = "l1"})->balance == 10);
  CHECK_THROWS_AS(stale.value(), pksk::ConditionFailed);

  // The retry loop of optimistic locking, without an exception per lost race.
  int attempts = 0;
  for (;;) {
    REQUIRE(++attempts <= 3);
    Ledger read = *table.get(Ledger{.id = "l1"});
    read.balance += 5;
    if (attempts == 1) REQUIRE(table.try_put(Ledger(read)));  // another writer wins the race
    if (table.try_put(read)) break;
  }
  CHECK(attempts == 2);
  CHECK(table.get(Ledger{.id = "l1"})->balance == 20);

  const Ledger at = *table.get(Ledger{.id = "l1"});
  pksk::WriteResult<Ledger> updated =
      table.try_update(at, pksk::add(&Ledger::balance, std::int64_t{1}));
  REQUIRE(updated);
  CHECK(updated->balance == 21);
  CHECK(updated->rev == at.rev + 1);
  pksk::WriteResult<Ledger> stale_update =
      table.try_update(at, pksk::add(&Ledger::balance, std::int64_t{1}));
  REQUIRE_FALSE(stale_update);
  CHECK(std::string(stale_update.error().what()).find("stale version") != std::string::npos);
  CHECK(table.get(Ledger{.id = "l1"})->balance == 21);

  pksk::WriteResult<bool> stale_erase = table.try_erase(at);
  REQUIRE_FALSE(stale_erase);
  CHECK(table.get(Ledger{.id = "l1"}));
  pksk::WriteResult<bool> erased = table.try_erase(*updated);
  REQUIRE(erased);
  CHECK(*erased);
  CHECK_FALSE(table.get(Ledger{.id = "l1"}));
}

TEST_CASE("try_ writes return the caller's condition failing, with the stored item if asked",
          "[conformance][try_writes]") {
  using conformance::Seat;
  Store store;
  pksk::Table table{store.backend, fresh_table_name()};

  const Seat first{.hall = "h", .seat = "1", .holder = "ada"};
  REQUIRE(table.try_put(first, pksk::if_absent));
  auto taken = table.try_put(Seat{.hall = "h", .seat = "1", .holder = "bob"}, pksk::if_absent,
                             pksk::return_stored_on_failure);
  REQUIRE_FALSE(taken);
  REQUIRE(taken.error().stored() != nullptr);
  CHECK(pksk::decode_body<Seat>(*taken.error().stored()).holder == "ada");
  CHECK(table.get(Seat{.hall = "h", .seat = "1"})->holder == "ada");

  // With return_old, the value is the item replaced.
  auto replaced =
      table.try_put(Seat{.hall = "h", .seat = "1", .holder = "cy"}, pksk::exists, pksk::return_old);
  REQUIRE(replaced);
  REQUIRE(*replaced);
  CHECK((*replaced)->holder == "ada");

  // An update's own condition.
  auto refused =
      table.try_update(Seat{.hall = "h", .seat = "1"}, pksk::set(&Seat::holder, std::string("dee")),
                       pksk::when(pksk::attr(&Seat::holder) == "nobody"));
  REQUIRE_FALSE(refused);
  CHECK(table.get(Seat{.hall = "h", .seat = "1"})->holder == "cy");
  auto not_upserted = table.try_upsert(Seat{.hall = "h", .seat = "1", .holder = "eve"},
                                       pksk::when(pksk::attr(&Seat::holder) == "nobody"));
  REQUIRE_FALSE(not_upserted);
  auto upserted = table.try_upsert(Seat{.hall = "h", .seat = "3", .holder = "eve"});
  REQUIRE(upserted);
  CHECK(upserted->holder == "eve");
  auto absent = table.try_erase(Seat{.hall = "h", .seat = "2"}, pksk::exists);
  REQUIRE_FALSE(absent);

  // Other failures are thrown as ever: an invalid key, an add past the member's range.
  CHECK_THROWS_AS(table.try_put(Seat{.hall = "a#b", .seat = "1"}), pksk::KeyError);
  REQUIRE(table.try_update(Seat{.hall = "h", .seat = "1"},
                           pksk::set(&Seat::holds, std::int16_t{32767})));
  CHECK_THROWS_AS(
      table.try_update(Seat{.hall = "h", .seat = "1"}, pksk::add(&Seat::holds, std::int16_t{1})),
      pksk::ValidationError);
}

TEST_CASE(
    "try_ writes of a unique entity return a taken value; of an extended one, hand back "
    "nothing on failure",
    "[conformance][try_writes]") {
  using conformance::Member;
  using conformance::Note;
  Store store;
  pksk::Table table{store.backend, fresh_table_name()};

  REQUIRE(table.try_put(Member{.id = "m1", .email = "a@example.com", .handle = "a"}));
  auto taken = table.try_put(Member{.id = "m2", .email = "a@example.com", .handle = "b"});
  REQUIRE_FALSE(taken);
  CHECK(std::string(taken.error().what()).find("a@example.com") != std::string::npos);
  CHECK_FALSE(table.get(Member{.id = "m2"}));

  Note note{.id = "n1", .text = "one"};
  REQUIRE(table.try_put(note, pksk::if_absent));
  const auto stamped = note.stamped;
  Note again{.id = "n1", .text = "two"};
  REQUIRE_FALSE(table.try_put(again, pksk::if_absent));
  CHECK(again.via.empty());  // the extension's change is not handed back
  CHECK(table.get(Note{.id = "n1"})->stamped == stamped);
}
