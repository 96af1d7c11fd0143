// SPDX-License-Identifier: BSL-1.0
// The conformance cases on key schemas other tools design, included by cases.hpp: a table
// keyed by its partition key alone (DynamoDB's HASH-only key schema), whose entities declare no
// sort key; and a table whose sort key is a number (RANGE N), whose entities' sort keys are an
// integer member each.

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

// A sensor's gauge reading, numbered: the sort key is the number itself ("{seq:number}").
struct Sample {
  std::string sensor;
  std::int64_t seq{};
  double value{};
  bool flagged{};
  friend bool operator==(const Sample&, const Sample&) = default;
};

// A tick kept only in its keys (store_key_members = false): n is read back from the number.
struct Tick {
  std::string sensor;
  std::uint32_t n{};
  std::string note;
  friend bool operator==(const Tick&, const Tick&) = default;
};

// An unsigned 64-bit number, of which int64_t's range alone can be a key.
struct BigNumber {
  std::string id;
  std::uint64_t n{};
  friend bool operator==(const BigNumber&, const BigNumber&) = default;
};

}  // namespace conformance_key_schemas

template <>
struct pksk::Entity<conformance_key_schemas::Sample> {
  static constexpr std::string_view type = "Sample";
  static constexpr std::string_view pk = "SENSOR#{sensor}";
  static constexpr std::string_view sk = "{seq:number}";
};

template <>
struct pksk::Entity<conformance_key_schemas::Tick> {
  static constexpr std::string_view type = "Tick";
  static constexpr std::string_view pk = "TICK#{sensor}";
  static constexpr std::string_view sk = "{n:number}";
  static constexpr bool store_key_members = false;
};

template <>
struct pksk::Entity<conformance_key_schemas::BigNumber> {
  static constexpr std::string_view type = "Big";
  static constexpr std::string_view pk = "BIG#{id}";
  static constexpr std::string_view sk = "{n:number}";
};

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
static_assert(pksk::sort_key_is_number_v<conformance_key_schemas::Sample>);
static_assert(!pksk::sort_key_is_number_v<conformance_key_schemas::Sorted>);
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

namespace conformance_key_schemas {

inline const pksk::TableOptions number_options{.pk_attribute = "PK",
                                               .sk_attribute = "SK",
                                               .sk_type = pksk::KeyType::number,
                                               .type_attribute = "Type"};

inline std::vector<std::int64_t> seqs_of(const std::vector<Sample>& readings) {
  std::vector<std::int64_t> out;
  for (const Sample& r : readings) out.push_back(r.seq);
  return out;
}

}  // namespace conformance_key_schemas

TEST_CASE("number sort key: items sort as numbers, and every read and write keys them so",
          "[conformance][key_schemas]") {
  using namespace conformance_key_schemas;
  using Seqs = std::vector<std::int64_t>;
  Store store;
  pksk::Table table{store.backend, fresh_table_name(), number_options};
  // In byte order these would be "-5", "0", "10", "200", "3", "9", "9000000000".
  for (const std::int64_t seq : {10, -5, 200, 3, 0, 9}) {
    table.put(Sample{"s1", seq, static_cast<double>(seq) / 2, seq % 2 == 0});
  }
  table.put(Sample{"s1", 9'000'000'000, 1.5, false});
  table.put(Sample{"s2", 1, 0, false});
  const pksk::PartitionKey s1{"SENSOR#s1"};

  CHECK(seqs_of(table.query<Sample>(s1)) == Seqs{-5, 0, 3, 9, 10, 200, 9'000'000'000});
  CHECK(seqs_of(table.query<Sample>(s1, {.forward = false})) ==
        Seqs{9'000'000'000, 200, 10, 9, 3, 0, -5});
  CHECK(table.get(Sample{.sensor = "s1", .seq = -5}) == Sample{"s1", -5, -2.5, false});
  CHECK_FALSE(table.get(Sample{.sensor = "s1", .seq = 4}).has_value());

  // Key conditions compare numbers: typed, and as text that spells a number.
  using Seq = pksk::sort_key_of<Sample>;
  CHECK(seqs_of(table.query<Sample>(s1, {.sk = Seq::between<&Sample::seq>(0, 10)})) ==
        Seqs{0, 3, 9, 10});
  CHECK(seqs_of(table.query<Sample>(s1, {.sk = Seq::gt<&Sample::seq>(9)})) ==
        Seqs{10, 200, 9'000'000'000});
  CHECK(seqs_of(table.query<Sample>(s1, {.sk = Seq::lt<&Sample::seq>(3)})) == Seqs{-5, 0});
  CHECK(seqs_of(table.query<Sample>(s1, {.sk = pksk::le("9")})) == Seqs{-5, 0, 3, 9});
  CHECK(seqs_of(table.query<Sample>(s1, {.sk = pksk::between("-10", "2")})) == Seqs{-5, 0});
  CHECK(seqs_of(table.query<Sample>(s1, {.sk = pksk::eq("200")})) == Seqs{200});
  CHECK(table.count<Sample>(s1, {.sk = pksk::ge("10")}) == 3);

  // Pages resume after the last number, both ways.
  for (const bool forward : {true, false}) {
    Seqs paged;
    std::optional<pksk::Cursor> cursor;
    int pages = 0;
    do {
      auto page = table.query_page<Sample>(s1, {.forward = forward, .limit = 2, .start = cursor});
      for (const Sample& r : page.items) paged.push_back(r.seq);
      cursor = page.next;
      ++pages;
    } while (cursor && pages < 10);
    Seqs expected{-5, 0, 3, 9, 10, 200, 9'000'000'000};
    if (!forward) std::reverse(expected.begin(), expected.end());
    CHECK(paged == expected);
    CHECK(pages >= 4);
  }

  // Writes keyed by the number.
  CHECK(table.update(Sample{.sensor = "s1", .seq = 3}, pksk::set(&Sample::flagged, true)) ==
        Sample{"s1", 3, 1.5, true});
  CHECK_THROWS_AS(table.put(Sample{"s1", 3, 0, false}, pksk::if_absent), pksk::ConditionFailed);
  table.erase(Sample{.sensor = "s1", .seq = 200});
  table.transact()
      .put(Sample{"s1", -100, 7, true})
      .erase(Sample{.sensor = "s1", .seq = 0})
      .commit();
  std::vector<Sample> many;
  for (int i = 1; i <= 30; ++i) many.push_back(Sample{"s3", i * 7, 0, false});
  table.put_all(many);
  CHECK(table.query<Sample>(pksk::PartitionKey{"SENSOR#s3"}) == many);
  std::vector<Sample> keys{Sample{.sensor = "s3", .seq = 14}, Sample{.sensor = "s3", .seq = 210}};
  CHECK(table.get_all(keys).size() == 2);
  CHECK(seqs_of(table.query<Sample>(s1)) == Seqs{-100, -5, 3, 9, 10, 9'000'000'000});

  // Members kept only in the key come back from the number.
  table.put(Tick{"s1", 4'000'000'000u, "late"});
  table.put(Tick{"s1", 7, "early"});
  CHECK(table.query<Tick>(pksk::PartitionKey{"TICK#s1"}) ==
        std::vector<Tick>{Tick{"s1", 7, "early"}, Tick{"s1", 4'000'000'000u, "late"}});
  CHECK(table.get(Tick{.sensor = "s1", .n = 7}) == Tick{"s1", 7, "early"});

  // int64_t's range is the key's: a larger unsigned value is refused before anything is sent.
  table.put(BigNumber{"w", 9'223'372'036'854'775'807ull});
  CHECK(table.get(BigNumber{.id = "w", .n = 9'223'372'036'854'775'807ull}).has_value());
  CHECK_THROWS_AS(table.put(BigNumber{"w", 9'223'372'036'854'775'808ull}), pksk::KeyError);
}

TEST_CASE("number sort key: what DynamoDB refuses of one is refused on every backend",
          "[conformance][key_schemas]") {
  using namespace conformance_key_schemas;
  Store store;
  const std::string name = fresh_table_name();
  pksk::Table table{store.backend, name, number_options};
  table.put(Sample{"s1", 1, 0, false});
  const pksk::PartitionKey s1{"SENSOR#s1"};
  // Numbers have no prefix; a bound must be a number, and between's bounds in order.
  CHECK_THROWS_AS(table.query<Sample>(s1, {.sk = pksk::begins_with("1")}), pksk::ValidationError);
  CHECK_THROWS_AS(table.query<Sample>(s1, {.sk = pksk::gt("one")}), pksk::ValidationError);
  CHECK_THROWS_AS(table.query<Sample>(s1, {.sk = pksk::between("10", "9")}), pksk::ValidationError);
  CHECK(table.query<Sample>(s1, {.sk = pksk::between("9", "10")}).empty());

  // An entity whose sort key is a string does not belong in the table, nor a number in another.
  CHECK_THROWS_AS(table.put(Sorted{"a", "x"}), pksk::ValidationError);
  CHECK_THROWS_AS(table.query<Sorted>(pksk::PartitionKey{"SORTED#a"}), pksk::ValidationError);
  pksk::Table strings{store.backend, fresh_table_name()};
  CHECK_THROWS_AS(strings.put(Sample{"s1", 1, 0, false}), pksk::ValidationError);
  CHECK_THROWS_AS(strings.query<Sample>(s1), pksk::ValidationError);

  // The table's key schema is a number's: opened as a string's, it is refused.
  try {
    pksk::Table reopened{store.backend,
                         name,
                         {.pk_attribute = "PK", .sk_attribute = "SK", .type_attribute = "Type"}};
    FAIL("a table whose sort key is a number opened as one whose sort key is a string");
  } catch (const pksk::BackendError& e) {
    CHECK(e.code() == pksk::errc::schema_mismatch);
  }
}
