// SPDX-License-Identifier: BSL-1.0
// The conformance cases on extensions (extensions/extension.hpp), included by cases.hpp: every
// write path of an entity goes through the extensions its Entity<T> names, in their order,
// alone and beside optimistic locking, inside and outside transactions; what a put wrote is
// handed back to a non-const argument, and only once it is written.

#include <chrono>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace conformance {

using Moment = std::chrono::system_clock::time_point;

// Stamps the time of each write, and says which writes it saw.
struct Stamped {
  template <class T>
  static void before_put(T& item, const pksk::WriteContext& context) {
    item.stamped = context.now();
    item.via = context.in_transaction() ? "transaction put" : "put";
  }
  template <class T>
  static auto update_parts(const T&, const pksk::WriteContext& context) {
    return std::tuple{pksk::set(&T::stamped, context.now()),
                      pksk::set(&T::via, std::string(context.in_transaction() ? "transaction update"
                                                                              : "update"))};
  }
};

// Counts the writes of an item, puts and updates alike.
struct Counted {
  template <class T>
  static void before_put(T& item, const pksk::WriteContext&) {
    ++item.writes;
  }
  template <class T>
  static auto update_parts(const T&, const pksk::WriteContext&) {
    return std::tuple{pksk::add(&T::writes, std::int64_t{1})};
  }
};

struct Note {
  std::string id;
  std::string text;
  Moment stamped{};
  std::string via;
  std::int64_t writes = 0;
  friend bool operator==(const Note&, const Note&) = default;
};

struct Draft {  // versioned, with both extensions
  std::string id;
  std::string text;
  std::int64_t rev = 0;
  Moment stamped{};
  std::string via;
  std::int64_t writes = 0;
  friend bool operator==(const Draft&, const Draft&) = default;
};

inline Moment minute(int m) {
  return Moment{} + std::chrono::hours(24 * 365 * 50) + std::chrono::minutes(m);
}

}  // namespace conformance

template <>
struct pksk::Entity<conformance::Note> {
  static constexpr std::string_view type = "Note";
  static constexpr std::string_view pk = "NOTE#{id}";
  static constexpr std::string_view sk = "A";
  using extensions = pksk::Extensions<conformance::Stamped>;
};
template <>
struct pksk::Entity<conformance::Draft> {
  static constexpr std::string_view type = "Draft";
  static constexpr std::string_view pk = "DRAFT#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::string_view version = "rev";
  using extensions = pksk::Extensions<conformance::Stamped, conformance::Counted>;
};

TEST_CASE("an entity's extension joins every write path, in and out of transactions",
          "[conformance][extensions]") {
  Store store;
  Moment now = minute(0);
  pksk::Table table{store.backend, fresh_table_name(), {.ttl_clock = [&] { return now; }}};

  Note a{.id = "a", .text = "one"};
  table.put(a);
  CHECK(a.stamped == minute(0));  // handed back
  CHECK(a.via == "put");
  CHECK(*table.get(Note{.id = "a"}) == a);

  now = minute(1);
  const Note b{.id = "b", .text = "two"};
  table.put(b);
  CHECK(b.stamped == Moment{});  // a const argument is left as it is
  CHECK(table.get(Note{.id = "b"})->stamped == minute(1));

  now = minute(2);
  const Note updated = table.update(Note{.id = "a"}, pksk::set(&Note::text, std::string("uno")));
  CHECK(updated.stamped == minute(2));
  CHECK(updated.via == "update");
  CHECK(updated.text == "uno");

  now = minute(3);
  const auto replaced = table.put(Note{.id = "a", .text = "again"}, pksk::return_old);
  REQUIRE(replaced);
  CHECK(replaced->via == "update");
  CHECK(table.get(Note{.id = "a"})->stamped == minute(3));

  now = minute(4);
  const Note upserted = table.upsert(Note{.id = "c", .text = "three"});
  CHECK(upserted.stamped == minute(4));
  CHECK(upserted.via == "put");

  now = minute(5);
  table.put_all(std::vector<Note>{{.id = "d"}, {.id = "e"}});
  CHECK(table.get(Note{.id = "d"})->stamped == minute(5));
  CHECK(table.get(Note{.id = "e"})->via == "put");

  now = minute(6);
  Note f{.id = "f"};
  auto tx = table.transact();
  tx.put(f)
      .update(Note{.id = "b"}, pksk::set(&Note::text, std::string("dos")))
      .upsert(Note{.id = "g"});
  CHECK(f.stamped == Moment{});  // not before commit
  tx.commit();
  CHECK(f.stamped == minute(6));
  CHECK(f.via == "transaction put");
  const Note b2 = *table.get(Note{.id = "b"});
  CHECK(b2.via == "transaction update");
  CHECK(b2.text == "dos");
  CHECK(b2.stamped == minute(6));
  CHECK(table.get(Note{.id = "g"})->via == "transaction put");

  // A transaction canceled leaves the caller's item as it was, and writes nothing.
  now = minute(7);
  Note h{.id = "h"};
  CHECK_THROWS_AS(table.transact().put(h).check(Note{.id = "absent"}, pksk::exists).commit(),
                  pksk::TransactionCanceled);
  CHECK(h.stamped == Moment{});
  CHECK_FALSE(table.get(Note{.id = "h"}));
}

TEST_CASE("extensions compose in their order, beside optimistic locking",
          "[conformance][extensions]") {
  Store store;
  Moment now = minute(0);
  pksk::Table table{store.backend, fresh_table_name(), {.ttl_clock = [&] { return now; }}};

  Draft d{.id = "d", .text = "first"};
  table.put(d);
  CHECK(d.rev == 1);
  CHECK(d.writes == 1);
  CHECK(*table.get(Draft{.id = "d"}) == d);

  now = minute(1);
  Draft later = table.update(d, pksk::set(&Draft::text, std::string("second")));
  CHECK(later.rev == 2);
  CHECK(later.writes == 2);
  CHECK(later.stamped == minute(1));

  // A stale version is refused before the extensions' changes are handed back.
  now = minute(2);
  Draft stale = d;  // rev 1
  stale.text = "lost";
  CHECK_THROWS_AS(table.put(stale), pksk::ConditionFailed);
  CHECK(stale.stamped == minute(0));
  CHECK(stale.rev == 1);

  now = minute(3);
  table.transact().put(later).commit();
  CHECK(later.rev == 3);
  CHECK(later.writes == 3);
  CHECK(later.via == "transaction put");
  CHECK(*table.get(Draft{.id = "d"}) == later);

  now = minute(4);
  table.transact().update(later, pksk::set(&Draft::text, std::string("third"))).commit();
  const Draft stored = *table.get(Draft{.id = "d"});
  CHECK(stored.rev == 4);
  CHECK(stored.writes == 4);
  CHECK(stored.via == "transaction update");
  CHECK(stored.stamped == minute(4));
}
