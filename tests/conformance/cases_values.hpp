// SPDX-License-Identifier: BSL-1.0
// The conformance cases on value types of the user's own (pksk::Value), included by cases.hpp:
// each converted member through put, update, transaction and batch, the attribute types the
// backend stores, a converted key field, and a stored value the conversion refuses.

#include "values.hpp"

namespace conformance {

inline Bill sample_bill(std::string number, std::int64_t total) {
  return Bill{.client = {"c-1"},
              .number = std::move(number),
              .total = {total},
              .discount = Cents{25},
              .lines = {{100}, {total - 100}},
              .sku = {"A7"},
              .due = std::chrono::sys_seconds{std::chrono::seconds{1735689600}},
              .paid_at = std::chrono::sys_time<std::chrono::milliseconds>{
                  std::chrono::milliseconds{-1500}}};
}

// The item's stored JSON, raw: read as an item of no type a collection of stored invoices knows.
template <class Table>
pksk::RawItem stored_bill(Table& table, std::string_view number) {
  const auto raw =
      table.template query<pksk::ItemCollection<ClientNote>>(pksk::PartitionKey{"CLIENT#c-1"});
  for (const pksk::RawItem& item : raw.unknown()) {
    if (item.sk == "INVOICE#" + std::string(number)) return item;
  }
  FAIL("no invoice " << number);
  return {};
}

inline std::vector<std::byte> bytes(std::initializer_list<unsigned> values) {
  std::vector<std::byte> out;
  for (const unsigned v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

inline ValueProbe sample_value_probe(std::string id) {
  return ValueProbe{.id = std::move(id),
                    .readings = {-1.5, 0.25, 20},
                    .counts = {-7, 3, 9'000'000'000},
                    .blobs = {bytes({0}), bytes({0xff, 0x10}), bytes({})},
                    .raw = bytes({1, 2})};
}

}  // namespace conformance

TEST_CASE("converted members round-trip through put, update, transaction and batch",
          "[conformance]") {
  Store store;
  auto table = make_table(store);

  const Bill put = sample_bill("1", 1250);
  table.put(put);
  CHECK(table.get(Bill{.client = {"c-1"}, .number = "1"}) == put);

  Bill updated = put;
  updated.total = {990};
  updated.discount.reset();
  CHECK(table.update(Bill{.client = {"c-1"}, .number = "1"}, pksk::set(&Bill::total, Cents{990}),
                     pksk::remove(&Bill::discount)) == updated);
  CHECK(table.get(Bill{.client = {"c-1"}, .number = "1"}) == updated);
  const pksk::EpochSeconds later = std::chrono::sys_seconds{std::chrono::seconds{1735776000}};
  updated.due = later;
  CHECK(table.update(Bill{.client = {"c-1"}, .number = "1"}, pksk::set(&Bill::due, later),
                     pksk::when(pksk::attr(&Bill::due) < later)) == updated);

  const Bill transacted = sample_bill("2", 300);
  table.transact().put(transacted).commit();
  const std::vector<Bill> batch{sample_bill("3", 400), sample_bill("4", 500)};
  table.put_all(batch);

  const std::vector<Bill> all = table.query<Bill>(pksk::PartitionKey{"CLIENT#c-1"});
  CHECK(all == std::vector<Bill>{updated, transacted, batch[0], batch[1]});
  // The converted key field is read back from the key as well as from the body.
  for (const Bill& invoice : all) CHECK(invoice.client == ClientId{"c-1"});
}

TEST_CASE("converted members are stored as their stored types", "[conformance]") {
  Store store;
  auto table = make_table(store);
  table.put(sample_bill("1", 1250));

  const pksk::RawItem raw = stored_bill(table, "1");
  if (raw.format == pksk::BodyFormat::attribute_value) {
    CHECK(raw.json.find(R"("total":{"N":"1250"})") != std::string::npos);
    CHECK(raw.json.find(R"("discount":{"N":"25"})") != std::string::npos);
    CHECK(raw.json.find(R"("sku":{"S":"SKU-A7"})") != std::string::npos);
    CHECK(raw.json.find(R"("client":{"S":"c-1"})") != std::string::npos);
    CHECK(raw.json.find(R"("due":{"N":"1735689600"})") != std::string::npos);
    CHECK(raw.json.find(R"("paid_at":{"N":"-1500"})") != std::string::npos);
  } else {
    CHECK(raw.json.find(R"("total":1250)") != std::string::npos);
    CHECK(raw.json.find(R"("lines":[100,1150])") != std::string::npos);
    CHECK(raw.json.find(R"("sku":"SKU-A7")") != std::string::npos);
    CHECK(raw.json.find(R"("due":1735689600)") != std::string::npos);
  }
  const StoredBill stored = pksk::decode_body<StoredBill>(raw);
  CHECK(stored.total == 1250);
  CHECK(stored.discount == 25);
  CHECK(stored.lines == std::vector<std::int64_t>{100, 1150});
  CHECK(stored.sku == "SKU-A7");
  CHECK(stored.due == 1735689600);
  CHECK(stored.paid_at == -1500);

  // A condition and a filter compare the stored value.
  CHECK_THROWS_AS(table.put(sample_bill("1", 1), pksk::when(pksk::attr(&Bill::total) == Cents{1})),
                  pksk::ConditionFailed);
  const auto filtered = table.query<Bill>(pksk::PartitionKey{"CLIENT#c-1"},
                                          {.filter = pksk::attr(&Bill::total) == Cents{1250}});
  CHECK(filtered.size() == 1);
}

TEST_CASE("a stored value the conversion refuses is a DecodeError naming the member",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  table.put(StoredBill{.client = "c-1", .number = "9", .total = 1, .sku = "A7"});
  try {
    (void)table.get(Bill{.client = {"c-1"}, .number = "9"});
    FAIL("no DecodeError");
  } catch (const pksk::DecodeError& e) {
    CHECK_THAT(e.what(), Catch::Contains("sku") && Catch::Contains("not a SKU: A7"));
  }
}

TEST_CASE("std::vector<std::uint8_t> and <unsigned char> are binary, as std::vector<std::byte>",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  const ByteProbe probe{"b1", {1, 2}, {0xff, 0x00, 0x10}, std::nullopt};
  table.put(probe);
  CHECK(table.get(ByteProbe{.id = "b1"}) == probe);

  const auto raw = table.query<pksk::ItemCollection<ProbeNote>>(pksk::PartitionKey{"PROBE#b1"});
  REQUIRE(raw.unknown().size() == 1);
  const std::string& json = raw.unknown()[0].json;
  INFO(json);
  if (raw.unknown()[0].format == pksk::BodyFormat::attribute_value) {
    CHECK(json.find(R"("image":{"B":"AQI="})") != std::string::npos);
    CHECK(json.find(R"("thumb":{"B":"/wAQ"})") != std::string::npos);
  } else {
    CHECK(json.find(R"("image":{"":"AQI="})") != std::string::npos);
    CHECK(json.find(R"("thumb":{"":"/wAQ"})") != std::string::npos);
  }
  CHECK(json.find("icon") == std::string::npos);

  // Updates, conditions and filters take bytes, compared unsigned.
  ByteProbe expected = probe;
  expected.icon = std::vector<std::uint8_t>{7};
  expected.image = {9};
  CHECK(table.update(ByteProbe{.id = "b1"},
                     pksk::set(&ByteProbe::icon, std::vector<std::uint8_t>{7}),
                     pksk::set(&ByteProbe::image, std::vector<std::uint8_t>{9}),
                     pksk::when(pksk::begins_with(pksk::attr(&ByteProbe::thumb),
                                                  std::vector<unsigned char>{0xff}))) == expected);
  CHECK(table.get(ByteProbe{.id = "b1"}) == expected);
  const pksk::PartitionKey pk{"PROBE#b1"};
  CHECK(table
            .query<ByteProbe>(
                pk, {.filter = pksk::attr(&ByteProbe::thumb) > std::vector<unsigned char>{0x80}})
            .size() == 1);
  CHECK(table.query<ByteProbe>(pk, {.filter = pksk::size(pksk::attr(&ByteProbe::thumb)) == 3})
            .size() == 1);
  CHECK(table
            .query<ByteProbe>(pk, {.filter = pksk::contains(pksk::attr(&ByteProbe::image),
                                                            std::vector<std::uint8_t>{1})})
            .empty());
  table.transact().put(ByteProbe{"b2", {}, {5}, std::vector<std::uint8_t>{}}).commit();
  CHECK(table.get(ByteProbe{.id = "b2"}) == ByteProbe{"b2", {}, {5}, std::vector<std::uint8_t>{}});
}

TEST_CASE("empty_optional_as_null: empty optionals stored as NULL, read back empty either way",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  const auto raw_profile = [&](const std::string& id) {
    const auto raw =
        table.query<pksk::ItemCollection<ProbeNote>>(pksk::PartitionKey{"PROBE#" + id});
    REQUIRE(raw.unknown().size() == 1);
    return raw.unknown()[0];
  };
  const auto has_nulls = [](const pksk::RawItem& raw) {
    INFO(raw.json);
    if (raw.format == pksk::BodyFormat::attribute_value) {
      CHECK(raw.json.find(R"("nickname":{"NULL":true})") != std::string::npos);
      CHECK(raw.json.find(R"("age":{"NULL":true})") != std::string::npos);
    } else {
      CHECK(raw.json.find(R"("nickname":null)") != std::string::npos);
      CHECK(raw.json.find(R"("age":null)") != std::string::npos);
    }
  };

  const NullableProfile p1{"p1", std::nullopt, std::nullopt, "Oslo"};
  table.put(p1);
  has_nulls(raw_profile("p1"));
  CHECK(table.get(NullableProfile{.id = "p1"}) == p1);
  // Read without the option, and written without it (absent), both read back empty.
  CHECK(table.get(PlainProfile{.id = "p1"}) ==
        PlainProfile{"p1", std::nullopt, std::nullopt, "Oslo"});
  table.put(PlainProfile{"p2", std::nullopt, std::nullopt, "Rome"});
  CHECK(raw_profile("p2").json.find("nickname") == std::string::npos);
  CHECK(table.get(NullableProfile{.id = "p2"}) ==
        NullableProfile{"p2", std::nullopt, std::nullopt, "Rome"});

  // The attribute exists, as NULL: conditions see it so.
  CHECK_NOTHROW(table.put(NullableProfile{"p1", "ada", 36, "Oslo"},
                          pksk::when(pksk::exists(pksk::attr(&NullableProfile::nickname)))));
  CHECK(table.get(NullableProfile{.id = "p1"}) == NullableProfile{"p1", "ada", 36, "Oslo"});

  // Every write stores them so: batch, transaction, upsert.
  table.put_all(std::vector<NullableProfile>{{"p3", std::nullopt, 3, "Lima"}});
  table.transact().put(NullableProfile{"p4", std::nullopt, std::nullopt, "Kyiv"}).commit();
  has_nulls(raw_profile("p4"));
  CHECK(table.upsert(NullableProfile{"p1", std::nullopt, std::nullopt, "Oslo"}) == p1);
  has_nulls(raw_profile("p1"));
  CHECK(table.get(NullableProfile{.id = "p3"}) == NullableProfile{"p3", std::nullopt, 3, "Lima"});
  CHECK(table.get(PlainProfile{.id = "p4"}) ==
        PlainProfile{"p4", std::nullopt, std::nullopt, "Kyiv"});
}

TEST_CASE("number and binary sets round-trip through put, update, transaction and batch",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  const ValueProbe p1 = sample_value_probe("1");
  table.put(p1);
  CHECK(table.get(ValueProbe{.id = "1"}) == p1);

  // Stored as DynamoDB's NS and BS; in the plain body under the empty name, as binary is.
  const auto raw = table.query<pksk::ItemCollection<ProbeNote>>(pksk::PartitionKey{"PROBE#1"});
  REQUIRE(raw.unknown().size() == 1);
  const std::string& json = raw.unknown()[0].json;
  if (raw.unknown()[0].format == pksk::BodyFormat::attribute_value) {
    CHECK(json.find(R"("readings":{"NS":[)") != std::string::npos);
    CHECK(json.find(R"("counts":{"NS":[)") != std::string::npos);
    CHECK(json.find(R"("9000000000")") != std::string::npos);
    CHECK(json.find(R"("blobs":{"BS":[)") != std::string::npos);
    CHECK(json.find(R"("raw":{"B":"AQI="})") != std::string::npos);
  } else {
    CHECK(json.find(R"("readings":{"":[-1.5,0.25,20]})") != std::string::npos);
    CHECK(json.find(R"("counts":{"":[-7,3,9000000000]})") != std::string::npos);
    CHECK(json.find(R"("blobs":{"":["","AA==","/xA="]})") != std::string::npos);
  }

  // ADD unites sets; set replaces; contains finds a member; an emptied set is absent.
  ValueProbe expected = p1;
  expected.readings.insert(99.5);
  expected.blobs.insert(bytes({7}));
  expected.counts = {1};
  CHECK(table.update(ValueProbe{.id = "1"},
                     pksk::add(&ValueProbe::readings, std::set<double>{99.5, 20}),
                     pksk::add(&ValueProbe::blobs, std::set<std::vector<std::byte>>{bytes({7})}),
                     pksk::set(&ValueProbe::counts, std::set<std::int64_t>{1})) == expected);
  CHECK(table.get(ValueProbe{.id = "1"}) == expected);
  CHECK(
      table
          .scan<ValueProbe>({.filter = pksk::contains(pksk::attr(&ValueProbe::readings), 99.5) &&
                                       pksk::contains(pksk::attr(&ValueProbe::blobs), bytes({7}))})
          .size() == 1);
  CHECK(table.scan<ValueProbe>({.filter = pksk::contains(pksk::attr(&ValueProbe::counts), 2)})
            .empty());

  ValueProbe emptied = sample_value_probe("2");
  emptied.readings.clear();
  emptied.blobs.clear();
  table.transact().put(emptied).commit();
  CHECK(table.get(ValueProbe{.id = "2"}) == emptied);
  const std::vector<ValueProbe> batch{sample_value_probe("3"), sample_value_probe("4")};
  table.put_all(batch);
  CHECK(table.get_all(std::vector<ValueProbe>{{.id = "3"}, {.id = "4"}}) == batch);
  CHECK(
      table.update(ValueProbe{.id = "2"}, pksk::add(&ValueProbe::counts, std::set<std::int64_t>{4}))
          .counts == std::set<std::int64_t>{-7, 3, 4, 9'000'000'000});
}
