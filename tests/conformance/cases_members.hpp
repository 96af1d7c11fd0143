// SPDX-License-Identifier: BSL-1.0
// The conformance cases on member types, included by cases.hpp: values at the edges of what
// DynamoDB stores, and the type matrix (every member type docs/member-types.md lists, in an indexed
// entity, through every write and every read).

#include <tuple>

#include "members.hpp"

TEST_CASE("a collection holding unknown items only is empty, as its size says", "[conformance]") {
  Store store;
  auto table = make_table(store);
  table.put(Invoice{.customer_id = "c1", .number = "7", .amount = 3});
  const auto all = table.query<CustomerOrders>(pksk::PartitionKey{"CUSTOMER#c1"});
  CHECK(all.size() == 0);
  CHECK(all.begin() == all.end());
  CHECK(all.empty());
  CHECK(all.unknown().size() == 1);
}

TEST_CASE("an unknown item decodes from its RawItem on every backend", "[conformance]") {
  Store store;
  auto table = make_table(store);
  table.put(Invoice{.customer_id = "c1", .number = "7", .amount = 3});
  const auto all = table.query<CustomerOrders>(pksk::PartitionKey{"CUSTOMER#c1"});
  REQUIRE(all.unknown().size() == 1);
  const Invoice invoice = pksk::decode_body<Invoice>(all.unknown()[0]);
  CHECK(invoice.customer_id == "c1");
  CHECK(invoice.number == "7");
  CHECK(invoice.amount == 3);
}

TEST_CASE("a map entry holding an empty optional is stored as null and read back",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  const Gauge g{.id = "1", .readings = {{"a", 1}, {"b", std::nullopt}}};
  table.put(g);
  const std::optional<Gauge> read = table.get(Gauge{.id = "1"});
  REQUIRE(read);
  CHECK(read->readings == g.readings);
  CHECK(read->readings.count("b") == 1);
  // In an update's value too.
  const Gauge updated = table.update(
      Gauge{.id = "1"},
      pksk::set(&Gauge::readings, std::map<std::string, std::optional<int>>{{"c", std::nullopt}}));
  CHECK(updated.readings == std::map<std::string, std::optional<int>>{{"c", std::nullopt}});
  CHECK(table.get(Gauge{.id = "1"})->readings == updated.readings);
}

TEST_CASE("an empty map key is refused, as DynamoDB refuses it, and nothing is written",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  CHECK_THROWS_AS(table.put(Gauge{.id = "1", .plain = {{"", 1}}}), pksk::ValidationError);
  CHECK_THROWS_AS(table.put(Gauge{.id = "1", .readings = {{"", 1}}}), pksk::ValidationError);
  CHECK_FALSE(table.get(Gauge{.id = "1"}));
  table.put(Gauge{.id = "1"});
  CHECK_THROWS_AS(
      table.update(Gauge{.id = "1"},
                   pksk::set(&Gauge::plain, std::map<std::string, int>{{"a", 1}, {"", 2}})),
      pksk::ValidationError);
  CHECK(table.get(Gauge{.id = "1"})->plain.empty());
}

TEST_CASE("numbers: the magnitudes DynamoDB holds are stored, the others refused",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  // DynamoDB's range is of magnitude: 1E-130 to 9.99...E+125, 38 significant digits.
  for (const double held : {6.666666666666666e-121, 1e-130, 1.7976931348623157e-130, 9.9e125,
                            -6.666666666666666e-121}) {
    INFO(held);
    table.put(Gauge{.id = "1", .value = held});
    CHECK(table.get(Gauge{.id = "1"})->value == held);
  }
  for (const double refused : {9e-131, 1e-200, 1e126, -1e126}) {
    INFO(refused);
    CHECK_THROWS_AS(table.put(Gauge{.id = "2", .value = refused}), pksk::EncodeError);
  }
  CHECK_FALSE(table.get(Gauge{.id = "2"}));
}

TEST_CASE("a binary member counts its bytes toward 400 KB, not their base64", "[conformance]") {
  Store store;
  auto table = make_table(store);
  // 399 KB of bytes is 532 KB of base64: stored whole, read back whole.
  // Assigned, not designated: g++ 12 -O3 warns falsely (-Wmaybe-uninitialized) of the
  // skipped members' strings.
  Gauge g;
  g.id = "1";
  g.blob.assign(399 * 1024, std::byte{0xAB});
  table.put(g);
  CHECK(table.get(Gauge{.id = "1"}) == g);
  g.blob.resize(400 * 1024);
  CHECK_THROWS_AS(table.put(g), pksk::ItemTooLarge);
}

// ------------------------------------------------------------------------ the type matrix

namespace conformance {

// Every member of Everything, for projections one member at a time.
inline constexpr auto every_member = std::make_tuple(
    &Everything::id, &Everything::group, &Everything::rank, &Everything::flag, &Everything::i8,
    &Everything::u8, &Everything::i16, &Everything::u16, &Everything::i32, &Everything::u32,
    &Everything::i64, &Everything::u64, &Everything::f, &Everything::d, &Everything::mood,
    &Everything::maybe, &Everything::maybe_n, &Everything::ints, &Everything::strings,
    &Everything::bools, &Everything::parts, &Everything::counts, &Everything::sparse,
    &Everything::tags, &Everything::at, &Everything::part, &Everything::hana, &Everything::bytes);
static_assert(std::tuple_size_v<decltype(every_member)> == pksk::field_count_v<Everything>);

// Every read path finds `expected` as it is: get, get_all, a query, a collection query, the
// index, a scan, and a projection of each member alone.
template <class Table>
void check_every_read(Table& table, const Everything& expected) {
  const Everything key{.id = expected.id};
  const pksk::PartitionKey pk{"EVERY#" + expected.id};
  const std::optional<Everything> got = table.get(key);
  REQUIRE(got);
  CHECK(*got == expected);
  const std::vector<Everything> batch = table.get_all(std::vector<Everything>{key});
  REQUIRE(batch.size() == 1);
  CHECK(batch[0] == expected);
  const std::vector<Everything> queried = table.template query<Everything>(pk);
  REQUIRE(queried.size() == 1);
  CHECK(queried[0] == expected);
  const auto collection = table.template query<pksk::ItemCollection<Everything>>(pk);
  REQUIRE(collection.size() == 1);
  CHECK(*collection.template first<Everything>() == expected);
  const std::vector<Everything> indexed =
      table.index("gsi1").template query<Everything>(pksk::PartitionKey{"GROUP#" + expected.group});
  CHECK(std::count(indexed.begin(), indexed.end(), expected) == 1);
  const std::vector<Everything> scanned = table.template scan<Everything>();
  CHECK(std::count(scanned.begin(), scanned.end(), expected) == 1);
  std::apply(
      [&](auto... member) {
        const auto one = [&](auto m) {
          const std::vector<Everything> slim =
              table.template query<Everything>(pk, {.select = pksk::members(m)});
          REQUIRE(slim.size() == 1);
          CHECK(slim[0].*m == expected.*m);
          Everything rest = slim[0];
          rest.*m = Everything{}.*m;
          CHECK(rest == Everything{});  // nothing else read
        };
        (one(member), ...);
      },
      every_member);
}

template <class Table>
void check_gone(Table& table, const Everything& item) {
  CHECK_FALSE(table.get(Everything{.id = item.id}));
  CHECK(table.index("gsi1")
            .template query<Everything>(pksk::PartitionKey{"GROUP#" + item.group})
            .empty());
}

// Sets every member but the key, in one update.
template <class Table>
Everything set_every_member(Table& table, const Everything& e) {
  using E = Everything;
  return table.update(
      E{.id = e.id}, pksk::set(&E::group, e.group), pksk::set(&E::rank, e.rank),
      pksk::set(&E::flag, e.flag), pksk::set(&E::i8, e.i8), pksk::set(&E::u8, e.u8),
      pksk::set(&E::i16, e.i16), pksk::set(&E::u16, e.u16), pksk::set(&E::i32, e.i32),
      pksk::set(&E::u32, e.u32), pksk::set(&E::i64, e.i64), pksk::set(&E::u64, e.u64),
      pksk::set(&E::f, e.f), pksk::set(&E::d, e.d), pksk::set(&E::mood, e.mood),
      pksk::set(&E::maybe, *e.maybe), pksk::set(&E::maybe_n, *e.maybe_n),
      pksk::set(&E::ints, e.ints), pksk::set(&E::strings, e.strings), pksk::set(&E::bools, e.bools),
      pksk::set(&E::parts, e.parts), pksk::set(&E::counts, e.counts),
      pksk::set(&E::sparse, e.sparse), pksk::set(&E::tags, e.tags), pksk::set(&E::at, e.at),
      pksk::set(&E::part, e.part), pksk::set(&E::hana, e.hana), pksk::set(&E::bytes, e.bytes));
}

}  // namespace conformance

TEST_CASE("type matrix: every member type, in an index, through every write and read",
          "[conformance]") {
  Store store;
  auto table = make_indexed_table(store);
  using E = Everything;

  SECTION("put, then erase") {
    const E e = full_everything("put");
    table.put(e);
    check_every_read(table, e);
    table.erase(E{.id = e.id});
    check_gone(table, e);
  }
  SECTION("a batch: put_all, then erase_all") {
    const std::vector<E> items{full_everything("b1", "gb", 1), full_everything("b2", "gb", 2)};
    table.put_all(items);
    for (const E& e : items) check_every_read(table, e);
    table.erase_all(std::vector<E>{E{.id = "b1"}, E{.id = "b2"}});
    for (const E& e : items) check_gone(table, e);
  }
  SECTION("a transaction: put, update, then erase") {
    const E e = full_everything("tx");
    E other = full_everything("tx2", "g2", 2);
    table.transact().put(e).put(other).commit();
    check_every_read(table, e);
    other.flag = false;
    other.rank = 3;
    table.transact()
        .update(E{.id = other.id}, pksk::set(&E::flag, false), pksk::set(&E::group, other.group),
                pksk::set(&E::rank, 3))
        .commit();
    check_every_read(table, other);
    table.transact().erase(E{.id = e.id}).erase(E{.id = other.id}).commit();
    check_gone(table, e);
    check_gone(table, other);
  }
  SECTION("update: set of every member creates the item; then each action") {
    E e = full_everything("up");
    CHECK(set_every_member(table, e) == e);
    check_every_read(table, e);

    // set on a bool of an indexed entity, and on an index member with its index's others.
    E changed = table.update(E{.id = e.id}, pksk::set(&E::flag, false),
                             pksk::set(&E::group, std::string("g3")), pksk::set(&E::rank, 9));
    e.flag = false;
    e.group = "g3";
    e.rank = 9;
    CHECK(changed == e);
    check_every_read(table, e);

    // add: to every number type and to the string set.
    changed = table.update(
        E{.id = e.id}, pksk::add(&E::i8, std::int8_t{1}), pksk::add(&E::u8, std::uint8_t{0}),
        pksk::add(&E::i16, short{1}), pksk::add(&E::u16, static_cast<unsigned short>(0)),
        pksk::add(&E::i32, 2), pksk::add(&E::u32, 0u), pksk::add(&E::i64, 1LL),
        pksk::add(&E::u64, 0ULL), pksk::add(&E::f, 0.25f), pksk::add(&E::d, 0.02),
        pksk::add(&E::maybe_n, 5), pksk::add(&E::tags, std::set<std::string>{"t3"}));
    e.i8 += 1;
    e.i16 += 1;
    e.i32 += 2;
    e.i64 += 1;
    e.f += 0.25f;
    e.d = 60;
    e.maybe_n = 5;
    e.tags.insert("t3");
    CHECK(changed == e);
    check_every_read(table, e);

    // append to every list; if_not_exists on a present and an absent member; a nested set.
    changed = table.update(E{.id = e.id}, pksk::append(&E::ints, 4),
                           pksk::append(&E::strings, std::string("s")),
                           pksk::append(&E::parts, Part{"r", 3}),
                           pksk::if_not_exists(&E::maybe, std::string("not written")),
                           pksk::set(pksk::attr(&E::part, &Part::n), 10),
                           pksk::set(pksk::attr(&E::hana, &HanaPart::weight), 4));
    e.ints.push_back(4);
    e.strings.push_back("s");
    e.parts.push_back({"r", 3});
    e.part.n = 10;
    e.hana.weight = 4;
    CHECK(changed == e);
    check_every_read(table, e);

    // remove: of every optional, list, map and set; then if_not_exists writes again.
    changed =
        table.update(E{.id = e.id}, pksk::remove(&E::maybe), pksk::remove(&E::maybe_n),
                     pksk::remove(&E::ints), pksk::remove(&E::counts), pksk::remove(&E::sparse),
                     pksk::remove(&E::tags), pksk::remove(&E::bytes));
    e.maybe.reset();
    e.maybe_n.reset();
    e.ints.clear();
    e.counts.clear();
    e.sparse.clear();
    e.tags.clear();
    e.bytes.clear();
    CHECK(changed == e);
    check_every_read(table, e);
    changed = table.update(E{.id = e.id}, pksk::if_not_exists(&E::maybe, std::string("back")));
    e.maybe = "back";
    CHECK(changed == e);

    table.erase(E{.id = e.id});
    check_gone(table, e);
  }
  SECTION("conditions and filters on every member, with the value just written") {
    const E e = full_everything("cond");
    table.put(e);
    using pksk::attr;
    table.put(
        e, pksk::when(attr(&E::flag) == true && attr(&E::i8) == e.i8 && attr(&E::u64) == e.u64 &&
                      attr(&E::f) == e.f && attr(&E::d) == e.d && attr(&E::mood) == e.mood &&
                      attr(&E::maybe) == *e.maybe && attr(&E::at) == e.at &&
                      attr(&E::bytes) == e.bytes && attr(&E::part, &Part::n) == 9 &&
                      pksk::size(attr(&E::bytes)) == 4 &&
                      pksk::begins_with(attr(&E::bytes), {std::byte{0x00}, std::byte{0xFF}}) &&
                      pksk::contains(attr(&E::bytes), {std::byte{0xFF}, std::byte{0x10}}) &&
                      attr(&E::bytes) > std::vector<std::byte>{std::byte{0x00}, std::byte{0x7F}}));
    // Binary is not a string: the same bytes as text do not match.
    CHECK_THROWS_AS(table.put(e, pksk::when(pksk::contains(
                                     attr(&E::bytes), std::vector<std::byte>{std::byte{'x'}}))),
                    pksk::ConditionFailed);
    const std::vector<E> filtered = table.query<E>(
        pksk::PartitionKey{"EVERY#cond"},
        {.filter = attr(&E::bytes) == e.bytes && attr(&E::hana, &HanaPart::label) == "h"});
    CHECK(filtered.size() == 1);
  }
}

TEST_CASE("an add that takes an integer member past its type's range is refused, writing nothing",
          "[conformance][update]") {
  Store store;
  auto table = make_table(store);
  using conformance::SmallCounts;
  const SmallCounts key{.id = "t1"};
  const SmallCounts stored{.id = "t1", .hits = 32000, .low = -32000, .small = 250, .note = "kept"};
  table.put(stored);
  CHECK_THROWS_AS(table.update(key, pksk::add(&SmallCounts::hits, std::int16_t{1000})),
                  pksk::ValidationError);
  CHECK_THROWS_WITH(table.update(key, pksk::add(&SmallCounts::hits, std::int16_t{1000})),
                    Catch::Contains("SmallCounts") && Catch::Contains("'hits'") &&
                        Catch::Contains("nothing was written"));
  CHECK_THROWS_WITH(table.update(key, pksk::add<&SmallCounts::hits>(std::int16_t{768})),
                    Catch::Contains("SmallCounts") && Catch::Contains("'hits'") &&
                        Catch::Contains("nothing was written"));
  CHECK_THROWS_WITH(table.update(key, pksk::add(&SmallCounts::low, std::int16_t{-769})),
                    Catch::Contains("SmallCounts") && Catch::Contains("'low'"));
  CHECK_THROWS_WITH(table.update(key, pksk::set(&SmallCounts::note, std::string("x")),
                                 pksk::add(&SmallCounts::small, std::uint8_t{6})),
                    Catch::Contains("SmallCounts") && Catch::Contains("'small'"));
  CHECK(table.get(key) == stored);
  // Up to the edges is fine, and an absent member or item counts as 0.
  const SmallCounts edge = table.update(key, pksk::add(&SmallCounts::hits, std::int16_t{767}),
                                        pksk::add(&SmallCounts::low, std::int16_t{-768}),
                                        pksk::add(&SmallCounts::small, std::uint8_t{5}));
  CHECK(edge.hits == 32767);
  CHECK(edge.low == -32768);
  CHECK(edge.small == 255);
  CHECK(table.update(SmallCounts{.id = "t2"}, pksk::add(&SmallCounts::hits, std::int16_t{32767}))
            .hits == 32767);
  // The caller's own condition failing is still a ConditionFailed, carrying no item unasked.
  try {
    table.update(key, pksk::add(&SmallCounts::hits, std::int16_t{-1}),
                 pksk::when(pksk::attr(&SmallCounts::note) == std::string("other")));
    FAIL("the condition held");
  } catch (const pksk::ConditionFailed& failed) {
    CHECK(failed.stored() == nullptr);
  }
  try {
    table.update(key, pksk::add(&SmallCounts::hits, std::int16_t{-1}),
                 pksk::when(pksk::attr(&SmallCounts::note) == std::string("other")),
                 pksk::return_stored_on_failure);
    FAIL("the condition held");
  } catch (const pksk::ConditionFailed& failed) {
    CHECK(failed.stored() != nullptr);
  }
  // Both false: the add is refused, as it would be without the condition.
  CHECK_THROWS_AS(table.update(key, pksk::add(&SmallCounts::hits, std::int16_t{1}),
                               pksk::when(pksk::attr(&SmallCounts::note) == std::string("other"))),
                  pksk::ValidationError);
  CHECK(table.get(key) == edge);
}
