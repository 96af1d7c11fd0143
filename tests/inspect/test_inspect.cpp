// SPDX-License-Identifier: BSL-1.0
// pksk-inspect's commands, run in process through inspect::run (tools/inspect/cli.hpp) on files
// written by pksk::Table, and read back through pksk::Table.

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

#include "cli.hpp"
#include "progress.hpp"

namespace {

struct Address {
  std::string city;
  int zip = 0;
};
struct Customer {
  std::string id;
  std::string name;
  bool active = false;
  std::optional<std::string> note;
  Address address;
  std::set<std::string> tags;
  std::vector<std::byte> avatar;
  std::map<std::string, double> scores;
};
struct Order {
  std::string customer_id;
  std::string order_id;
  double total = 0;
  std::int64_t quantity = 0;
  std::vector<std::string> lines;

  friend bool operator==(const Order&, const Order&) = default;
};
// An item of a table whose sort key is a number.
struct Entry {
  std::string ledger;
  std::int64_t seq = 0;
  double amount = 0;

  friend bool operator==(const Entry&, const Entry&) = default;
};

// A chunked item's chunks and unique members' guards: partitions pksk writes for itself.
struct Vet {
  std::string id;
  std::string email;
  std::string licence;
};
struct Record {
  std::string vet;
  std::string at;
  std::string notes;  // past 400 KB: chunk items
};

}  // namespace

template <>
struct pksk::Entity<Vet> {
  static constexpr std::string_view type = "Vet";
  static constexpr std::string_view pk = "VET#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array unique = {"email", "licence"};
};
template <>
struct pksk::Entity<Record> {
  static constexpr std::string_view type = "Record";
  static constexpr std::string_view pk = "VET#{vet}";
  static constexpr std::string_view sk = "RECORD#{at}";
  static constexpr bool chunked = true;
};

template <>
struct pksk::Entity<Entry> {
  static constexpr std::string_view type = "Entry";
  static constexpr std::string_view pk = "LEDGER#{ledger}";
  static constexpr std::string_view sk = "{seq:number}";
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
};

namespace {

bool same(const Customer& a, const Customer& b) {
  return a.id == b.id && a.name == b.name && a.active == b.active && a.note == b.note &&
         a.address.city == b.address.city && a.address.zip == b.address.zip && a.tags == b.tags &&
         a.avatar == b.avatar && a.scores == b.scores;
}

struct Result {
  int status = 0;
  std::string out, err;
};

Result inspect(std::vector<std::string> args) {
  std::ostringstream out, err;
  Result r;
  r.status = pksk::inspect::run(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// A directory of its own for each test case, removed after it.
struct Scratch {
  std::filesystem::path dir;
  Scratch() {
    static int next = 0;
    dir = std::filesystem::temp_directory_path() /
          ("pksk_inspect_" + std::to_string(::getpid()) + "_" + std::to_string(next++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~Scratch() { std::filesystem::remove_all(dir); }
  std::string operator/(const std::string& name) const { return (dir / name).string(); }
};

Customer customer(int i) {
  Customer c{.id = std::to_string(i), .name = "Customer \"" + std::to_string(i) + "\" \xC3\xA9"};
  c.active = i % 2 == 0;
  if (i % 3 == 0) c.note = "line\nbreak";
  c.address = {"Paris", 75000 + i};
  c.tags = {"b", "a" + std::to_string(i)};
  c.avatar = {std::byte{0}, std::byte{0xFF}, std::byte(i & 0xFF)};
  c.scores = {{"x", 1.5}, {"y", -0.25 * i}};
  return c;
}

Order order(int customer, int i) {
  return Order{.customer_id = std::to_string(customer),
               .order_id = "2024-" + std::to_string(100000 + i),
               .total = 0.1 * i,
               .quantity = (std::int64_t{1} << 40) + i,
               .lines = {"SKU-" + std::to_string(i), ""}};
}

// 100 customers with 99 orders each, and one collection of 10,000 orders.
void fill(pksk::Table<pksk::sqlite::Backend>& table) {
  std::vector<Customer> customers;
  std::vector<Order> orders;
  for (int c = 0; c < 100; ++c) {
    customers.push_back(customer(c));
    for (int i = 0; i < 99; ++i) orders.push_back(order(c, i));
  }
  for (int i = 0; i < 10000; ++i) orders.push_back(order(1000, i));
  table.put_all(customers);
  table.put_all(orders);
}

// The text with each run of spaces made one: the report's columns without their widths.
std::string squeezed(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c != ' ' || out.empty() || out.back() != ' ') out += c;
  }
  return out;
}

std::vector<std::string> sorted_lines(const std::string& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace

TEST_CASE("export, import and export again give the same lines") {
  Scratch s;
  {
    pksk::sqlite::Backend backend{s / "shop.db"};
    pksk::Table table{backend, "shop"};
    fill(table);
  }
  const Result exported = inspect({s / "shop.db", "--export", s / "one.json"});
  REQUIRE(exported.status == 0);
  CHECK(exported.err.find("exported 20000 items") != std::string::npos);
  const Result imported =
      inspect({s / "copy.db", "--import", s / "one.json", "--table", "shop", "--batch", "777"});
  REQUIRE(imported.status == 0);
  CHECK(imported.err.find("imported 20000 items") != std::string::npos);
  REQUIRE(inspect({s / "copy.db", "--export", s / "two.json.gz"}).status == 0);
  REQUIRE(inspect({s / "copy.db", "--import", s / "two.json.gz"}).status == 0);  // idempotent
  REQUIRE(inspect({s / "copy.db", "--export", s / "three.json"}).status == 0);

  const std::vector<std::string> one = sorted_lines(s / "one.json");
  REQUIRE(one.size() == 20000);
  CHECK(one == sorted_lines(s / "three.json"));
  // The gzip file is a gzip file, and holds the same lines.
  std::ifstream gz(s / "two.json.gz", std::ios::binary);
  CHECK(gz.get() == 0x1f);
  CHECK(gz.get() == 0x8b);

  // DynamoDB's AttributeValue JSON, each type as DynamoDB's export writes it.
  const std::string& first_customer =
      *std::find_if(one.begin(), one.end(), [](const std::string& l) {
        return l.find(R"("pk":{"S":"CUSTOMER#3"},"sk":{"S":"A"})") != std::string::npos;
      });
  CHECK(first_customer ==
        R"({"Item":{"pk":{"S":"CUSTOMER#3"},"sk":{"S":"A"},"type":{"S":"Customer"},)"
        R"("id":{"S":"3"},"name":{"S":"Customer \"3\" é"},"active":{"BOOL":false},)"
        R"("note":{"S":"line\nbreak"},"address":{"M":{"city":{"S":"Paris"},"zip":{"N":"75003"}}},)"
        R"("tags":{"L":[{"S":"a3"},{"S":"b"}]},"avatar":{"B":"AP8D"},)"
        R"("scores":{"M":{"x":{"N":"1.5"},"y":{"N":"-0.75"}}}}})");

  // What was imported reads back through the typed API.
  pksk::sqlite::Backend copy{s / "copy.db"};
  pksk::Table table{copy, "shop"};
  const auto c = table.get(Customer{.id = "42"});
  REQUIRE(c);
  CHECK(same(*c, customer(42)));
  const std::vector<Order> big = table.query<Order>(pksk::partition(Customer{.id = "1000"}));
  REQUIRE(big.size() == 10000);
  CHECK(big[1234] == order(1000, 1234));
}

TEST_CASE("the report counts types and collections and warns of a large one") {
  Scratch s;
  {
    pksk::sqlite::Backend backend{s / "shop.db"};
    pksk::Table table{backend, "shop"};
    fill(table);
  }
  const Result r = inspect({s / "shop.db", "--top", "2"});
  REQUIRE(r.status == 0);
  INFO(r.out);
  const std::string columns = squeezed(r.out);
  CHECK(r.out.find("table shop (keys pk, sk; type attribute type): 20000 items") !=
        std::string::npos);
  CHECK(r.out.find("101 collections") != std::string::npos);
  CHECK(columns.find("\n Customer 100 ") != std::string::npos);
  CHECK(columns.find("\n Order 19900 ") != std::string::npos);
  // Largest first, two of them.
  const auto big = columns.find("\n CUSTOMER#1000 10000 ");
  CHECK(big != std::string::npos);
  const auto second = columns.find("\n CUSTOMER#", big + 1);
  CHECK(second != std::string::npos);
  CHECK(columns.find("\n CUSTOMER#", second + 1) == std::string::npos);
  CHECK(r.out.find("warning: collection CUSTOMER#1000: 10000 items (10000 or more)") !=
        std::string::npos);
  CHECK(r.out.find("warning: collection CUSTOMER#1:") == std::string::npos);
  // --warn-share 1: 1% of 10 GB is 100 MiB, far above any collection here.
  CHECK(inspect({s / "shop.db", "--warn-share", "1"}).out.find("of DynamoDB's 10 GB") ==
        std::string::npos);
}

TEST_CASE("the report lists chunk partitions and unique guards apart from the collections") {
  Scratch s;
  {
    pksk::sqlite::Backend backend{s / "clinic.db"};
    pksk::Table table{backend, "clinic"};
    for (int i = 0; i < 3; ++i) {
      const std::string n = std::to_string(i);
      table.put(Vet{.id = n, .email = "vet" + n + "@example.com", .licence = "L" + n});
    }
    // Two records of 1.2 MB each: four chunks each, every chunk a partition of its own.
    for (int i = 0; i < 2; ++i) {
      table.put(Record{.vet = "0",
                       .at = "2024-0" + std::to_string(i + 1),
                       .notes = std::string(1'200'000, static_cast<char>('a' + i))});
    }
  }
  const Result r = inspect({s / "clinic.db"});
  REQUIRE(r.status == 0);
  INFO(r.out);
  const std::string columns = squeezed(r.out);
  // The items are all counted; the collections are the user's three vets.
  CHECK(r.out.find("): 19 items, ") != std::string::npos);
  CHECK(r.out.find(" 3 collections\n") != std::string::npos);
  const std::size_t largest = r.out.find("largest collections");
  const std::size_t own = r.out.find("pksk's own partitions");
  REQUIRE(largest != std::string::npos);
  REQUIRE(own != std::string::npos);
  CHECK(largest < own);
  const std::string collections = r.out.substr(largest, own - largest);
  CHECK(collections.find("VET#0") != std::string::npos);
  CHECK(collections.find("pksk:chunk") == std::string::npos);
  CHECK(collections.find("_unique") == std::string::npos);
  // Grouped: the chunks of the two records, and the guards of each unique member.
  CHECK(columns.find("\n chunks of 2 chunked items 8 ") != std::string::npos);
  CHECK(columns.find("\n unique guards of Vet#email 3 ") != std::string::npos);
  CHECK(columns.find("\n unique guards of Vet#licence 3 ") != std::string::npos);
  CHECK(r.out.find("warning") == std::string::npos);
}

TEST_CASE("--pk lists one collection in sort-key order") {
  Scratch s;
  {
    pksk::sqlite::Backend backend{s / "shop.db"};
    pksk::Table table{backend, "shop"};
    table.put(customer(7));
    table.put(order(7, 2));
    table.put(order(7, 1));
    table.put(order(8, 1));
  }
  const Result pretty = inspect({s / "shop.db", "--pk", "CUSTOMER#7"});
  REQUIRE(pretty.status == 0);
  CHECK(pretty.out.starts_with("collection CUSTOMER#7 in table shop: 3 items, "));
  const auto o1 = pretty.out.find("#ORDER#2024-100001\tOrder\t");
  const auto o2 = pretty.out.find("#ORDER#2024-100002\tOrder\t");
  const auto a = pretty.out.find("\nA\tCustomer\t");
  CHECK(o1 != std::string::npos);
  CHECK(o1 < o2);
  CHECK(o2 < a);  // '#' sorts before 'A'

  const Result json = inspect({s / "shop.db", "--pk", "CUSTOMER#7", "--json"});
  REQUIRE(json.status == 0);
  std::istringstream lines(json.out);
  std::vector<std::string> items;
  for (std::string line; std::getline(lines, line);) items.push_back(line);
  REQUIRE(items.size() == 3);
  CHECK(items[0] ==
        R"({"pk":"CUSTOMER#7","sk":"#ORDER#2024-100001","type":"Order","customer_id":"7",)"
        R"("order_id":"2024-100001","total":0.1,"quantity":1099511627777,"lines":["SKU-1",""]})");
  CHECK(inspect({s / "shop.db", "--pk", "NOBODY"})
            .out.starts_with("collection NOBODY in table shop: 0 items, 0 bytes\n"));
}

TEST_CASE("--patterns prints the design stored with the table as the library renders it") {
  Scratch s;
  using CustomerOrders = pksk::ItemCollection<Customer, Order>;
  const pksk::AccessPatterns design = pksk::access_patterns<Customer, Order, CustomerOrders>();
  {
    pksk::sqlite::Backend backend{s / "shop.db"};
    pksk::Table table{backend, "shop"};
    pksk::Table other{backend, "other"};
    table.put(customer(7));
    pksk::sqlite::store_design(backend, "shop", design);
  }
  const Result stored = inspect({s / "shop.db", "--table", "shop", "--patterns"});
  CHECK(stored.status == 0);
  CHECK(stored.err.empty());
  CHECK(stored.out == design.to_markdown());

  // A table without one: its own exit status, and why on standard error.
  const Result none = inspect({s / "shop.db", "--table", "other", "--patterns"});
  CHECK(none.status == 3);
  CHECK(none.out.empty());
  CHECK(none.err == "pksk-inspect: table other in " + s / "shop.db" +
                        " has no stored design (a program stores one with "
                        "pksk::sqlite::store_design)\n");

  // One command at a time, and the file's tables named when there are several.
  CHECK(inspect({s / "shop.db", "--patterns", "--pk", "CUSTOMER#7"}).status == 2);
  CHECK(inspect({s / "shop.db", "--patterns"}).status == 2);
}

TEST_CASE("bad input: exit status 2 for the command line, 1 for the rest, and why") {
  Scratch s;
  {
    pksk::sqlite::Backend backend{s / "shop.db"};
    pksk::Table table{backend, "shop"};
    table.put(order(1, 1));
    pksk::Table other{backend, "other"};
    other.put(order(1, 1));
  }
  const auto fails = [](std::vector<std::string> args, int status, const std::string& message) {
    const Result r = inspect(std::move(args));
    INFO(r.err);
    CHECK(r.status == status);
    CHECK(r.err.find(message) != std::string::npos);
    CHECK(r.out.empty());
  };
  fails({"--bogus", s / "shop.db"}, 2, "unknown option --bogus");
  fails({}, 2, "no location");
  fails({s / "shop.db", "--pk"}, 2, "--pk needs a value");
  fails({s / "shop.db", "--json"}, 2, "--json goes with --pk");
  fails({s / "shop.db", "--batch", "0"}, 2, "--batch takes a whole number of at least 1");
  fails({s / "shop.db", "--export", "x", "--import", "y"}, 2, "one at a time");
  fails({s / "shop.db", "--pk", "CUSTOMER#1"}, 2, "holds several tables (other, shop)");
  fails({s / "missing.db"}, 1, "no such file: " + s / "missing.db");
  CHECK_FALSE(std::filesystem::exists(s / "missing.db"));  // reading creates nothing
  fails({s / "shop.db", "--table", "nope", "--pk", "x"}, 1, "no pksk table 'nope'");
  fails({s / "shop.db", "--table", "shop", "--import", s / "absent.json"}, 1,
        "cannot open " + s / "absent.json");

  const auto import_lines = [&](const std::string& text) {
    std::ofstream(s / "in.json") << text;
    return inspect({s / "shop.db", "--table", "shop", "--import", s / "in.json"});
  };
  const std::string good = R"({"Item":{"pk":{"S":"P"},"sk":{"S":"1"},"type":{"S":"T"}}})";
  struct Case {
    std::string line, message;
  };
  for (const Case& c : std::vector<Case>{
           {"{\"Item\":", "in.json:2: not an item of a DynamoDB JSON export"},
           {R"({"Item":{"pk":{"S":"P"}}})", "in.json:2: "},
           {R"({"Item":{"pk":{"S":"P"}}})", "no key attribute 'sk'"},
           {R"({"Item":{"pk":{"N":"1"},"sk":{"S":"1"}}})", "attribute 'pk' is of type N"},
           {R"({"Items":{}})", "expected one member \"Item\""},
           {R"({"Item":{"pk":{"S":"P"},"sk":{"S":"2"},"x":{"Q":"1"}}})",
            "unsupported AttributeValue type \"Q\""},
           {R"({"Item":{"pk":{"S":"P"},"sk":{"S":"2"},"x":{"N":"1x"}}})", "invalid number"},
           {R"({"Item":{"pk":{"S":"P"},"sk":{"S":"2"}}} x)", "text after the object"},
       }) {
    const Result r = import_lines(good + "\n" + c.line + "\n" + good + "\n");
    INFO(c.line << "\n" << r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find(c.message) != std::string::npos);
  }
  // Blank lines are no items, and no errors.
  const Result blank = import_lines(good + "\n\n" + good);
  CHECK(blank.status == 0);
  CHECK(blank.err.find("imported 2 items") != std::string::npos);
}

TEST_CASE("number and binary sets of an export import into SQLite and export the same") {
  Scratch s;
  {
    pksk::sqlite::Backend backend{s / "shop.db"};
    pksk::Table table{backend, "shop"};
    fill(table);
  }
  // As DynamoDB's export writes them: NS elements as decimal text, BS as base64.
  const std::string line =
      R"({"Item":{"pk":{"S":"SENSOR#1"},"sk":{"S":"A"},"type":{"S":"Sensor"},)"
      R"("readings":{"NS":["-1.5","20"]},"blobs":{"BS":["AA==","/xA="]},"empty":{"NULL":true}}})";
  std::ofstream(s / "in.json") << line << "\n";
  const Result imported = inspect({s / "shop.db", "--table", "shop", "--import", s / "in.json"});
  INFO(imported.err);
  REQUIRE(imported.status == 0);
  REQUIRE(inspect({s / "shop.db", "--export", s / "out.json"}).status == 0);
  const std::vector<std::string> lines = sorted_lines(s / "out.json");
  CHECK(std::find(lines.begin(), lines.end(), line) != lines.end());
}

TEST_CASE("a copy stopped halfway continues from its checkpoint; verify names what differs") {
  Scratch s;
  {
    pksk::sqlite::Backend backend{s / "shop.db"};
    pksk::Table table{backend, "shop"};
    fill(table);
  }
  const std::vector<std::string> copy = {"copy", s / "shop.db",  s / "copy.db",        "--batch",
                                         "333",  "--checkpoint", s / "copy.checkpoint"};
  std::vector<std::string> half = copy;
  half.insert(half.end(), {"--stop-after", "10000"});
  const Result first = inspect(half);
  INFO(first.err);
  REQUIRE(first.status == 130);
  CHECK(first.err.find("stopped (--stop-after) after 10000 items") != std::string::npos);
  REQUIRE(std::filesystem::exists(s / "copy.checkpoint"));
  // The checkpoint counts what the target holds.
  CHECK(inspect({s / "copy.db"})
            .out.find("table shop (keys pk, sk; type attribute type): 10000 "
                      "items") != std::string::npos);
  // verify sees the half copy: the collections not reached yet are missing.
  const Result partial = inspect({"verify", s / "shop.db", s / "copy.db"});
  CHECK(partial.status == 1);
  CHECK(partial.out.find("differ: ") != std::string::npos);

  std::vector<std::string> rest = copy;
  rest.push_back("--verify");
  const Result second = inspect(rest);
  INFO(second.err << second.out);
  REQUIRE(second.status == 0);
  // The rest only: the checkpoint spared re-reading the first half.
  CHECK(second.err.find("copied 10000 items") != std::string::npos);
  CHECK(second.out == "verified: 20000 items in 101 collections, the same in " + s / "shop.db" +
                          " and " + s / "copy.db" + "\n");
  CHECK_FALSE(std::filesystem::exists(s / "copy.checkpoint"));  // done: removed
  {
    pksk::sqlite::Backend backend{s / "copy.db"};
    pksk::Table table{backend, "shop"};
    CHECK(table.query<Order>(pksk::partition(Customer{.id = "1000"})).size() == 10000);
    const auto c = table.get(Customer{.id = "42"});
    REQUIRE(c);
    CHECK(same(*c, customer(42)));

    // One order's total changed, one customer's collection one item short.
    Order changed = order(5, 7);
    changed.total += 1;
    table.put(changed);
    table.erase(Order{.customer_id = "77", .order_id = order(77, 3).order_id});
  }
  const Result altered = inspect({"verify", s / "shop.db", s / "copy.db"});
  INFO(altered.out);
  CHECK(altered.status == 1);
  CHECK(altered.out.find("collection CUSTOMER#5: 100 items on each side, not the same ones\n") !=
        std::string::npos);
  CHECK(altered.out.find("collection CUSTOMER#77: 100 items in the source, 99 in the target\n") !=
        std::string::npos);
  CHECK(altered.out.find("differ: 2 of 101 collections (20000 items in ") != std::string::npos);
  CHECK(altered.out.find("collection CUSTOMER#6:") == std::string::npos);
}

TEST_CASE("copy: a checkpoint of another copy is refused, and bad command lines") {
  Scratch s;
  {
    pksk::sqlite::Backend backend{s / "a.db"};
    pksk::Table table{backend, "shop"};
    for (int i = 0; i < 10; ++i) table.put(order(1, i));
  }
  const std::string checkpoint = s / "c.checkpoint";
  REQUIRE(inspect({"copy", s / "a.db", s / "b.db", "--checkpoint", checkpoint, "--batch", "2",
                   "--stop-after", "4", "--quiet"})
              .status == 130);
  const Result other = inspect({"copy", s / "a.db", s / "c.db", "--checkpoint", checkpoint});
  CHECK(other.status == 1);
  CHECK(other.err.find("the checkpoint " + checkpoint + " is of another copy") !=
        std::string::npos);
  std::ofstream(s / "junk") << "hello\n";
  const Result junk = inspect({"copy", s / "a.db", s / "c.db", "--checkpoint", s / "junk"});
  CHECK(junk.status == 1);
  CHECK(junk.err.find("is not one pksk-inspect copy wrote") != std::string::npos);

  CHECK(inspect({"copy", s / "a.db"}).err.find("copy takes two locations") != std::string::npos);
  CHECK(inspect({"copy", s / "a.db", s / "b.db", "--rate", "0"}).status == 2);
  CHECK(inspect({"verify", s / "a.db", s / "b.db", "--rate", "5"})
            .err.find("--rate goes with copy") != std::string::npos);
  CHECK(inspect({"copy", s / "missing.db", s / "b.db"}).err.find("no such file") !=
        std::string::npos);
}

TEST_CASE("copy --rate writes no faster than asked") {
  Scratch s;
  {
    pksk::sqlite::Backend backend{s / "a.db"};
    pksk::Table table{backend, "shop"};
    for (int i = 0; i < 60; ++i) table.put(order(1, i));
  }
  const auto started = std::chrono::steady_clock::now();
  const Result r = inspect({"copy", s / "a.db", s / "b.db", "--rate", "150", "--checkpoint",
                            s / "c.checkpoint", "--quiet"});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  REQUIRE(r.status == 0);
  // 60 items at 150 a second: 0.4 s at least (a bound on the ratio, not a timing).
  CHECK(seconds / (60.0 / 150) >= 0.95);
  CHECK(r.err == "copied 60 items (" + r.err.substr(17, r.err.find(' ', 17) - 17) +
                     " bytes) from " + s / "a.db" + " to " + s / "b.db" + "\n");
}

TEST_CASE("copy's progress: plain lines off a terminal, a bar redrawn in place on one") {
  Scratch s;
  {
    pksk::sqlite::Backend backend{s / "a.db"};
    pksk::Table table{backend, "shop"};
    for (int i = 0; i < 1000; ++i) table.put(order(1, i));
  }
  const std::vector<std::string> args = {"copy",  s / "a.db", s / "b.db", "--checkpoint",
                                         s / "c", "--batch",  "50"};
  std::ostringstream out, plain;
  REQUIRE(pksk::inspect::run(args, out, plain, false) == 0);
  INFO(plain.str());
  CHECK(plain.str().find('\r') == std::string::npos);
  for (const char* line : {"copied 100 of 1000 items (10%), ", "copied 500 of 1000 items (50%), ",
                           "copied 1000 of 1000 items (100%), "}) {
    CHECK(plain.str().find(line) != std::string::npos);
  }
  std::ostringstream bar;
  REQUIRE(pksk::inspect::run(args, out, bar, true) == 0);
  // Drawn at the first batch, then at most every 100 ms, and at the end.
  CHECK(bar.str().starts_with("\r[#.............................] 50/1000   5%  "));
  CHECK(bar.str().find("\r[##############################] 1000/1000 100%  ") != std::string::npos);
  CHECK(bar.str().find("\ncopied 1000 items") != std::string::npos);

  CHECK(pksk::inspect::Progress::bar(40, 100, 12) ==
        "[############..................] 40/100  40%  12 items/s  ETA 0:05");
  CHECK(pksk::inspect::Progress::bar(0, 100, 0).ends_with("0/100   0%  0 items/s  ETA --:--"));
  CHECK(pksk::inspect::Progress::bar(5, 7200, 1).ends_with("ETA 1:59:55"));
}

TEST_CASE("--help") {
  const Result r = inspect({"--help"});
  CHECK(r.status == 0);
  CHECK(r.out.starts_with("usage: pksk-inspect [OPTIONS] LOCATION\n"));
}

#ifdef PKSK_INSPECT_WITH_DYNAMODB

#include <cstdlib>

#include <pksk/dynamodb.hpp>

#include "../dynamodb/local_endpoint.hpp"

TEST_CASE("a DynamoDB Local table exports, imports into SQLite and back, and reads the same",
          "[local]") {
  Scratch s;
  const std::string endpoint = pksk_test::dynamodb_local_endpoint();
  // The tool takes its credentials from the usual chain; DynamoDB Local accepts any.
  ::setenv("AWS_ACCESS_KEY_ID", "pksk", 1);
  ::setenv("AWS_SECRET_ACCESS_KEY", "inspect", 1);
  const auto address = [&](const std::string& table, bool create) {
    return "dynamodb://" + table + "?endpoint=" + endpoint + "&region=us-east-1" +
           (create ? "&create=1" : "");
  };
  const std::string source = pksk_test::fresh_table_name("inspect_");
  pksk::dynamodb::Backend dynamodb{{.endpoint = endpoint,
                                    .region = "us-east-1",
                                    .credentials = pksk::dynamodb::Credentials{"pksk", "x", ""},
                                    .create_missing_tables = true}};
  std::vector<Customer> customers;
  std::vector<Order> orders;
  for (int c = 0; c < 30; ++c) {
    customers.push_back(customer(c));
    for (int i = 0; i < 5; ++i) orders.push_back(order(c, i));
  }
  {
    pksk::Table table{dynamodb, source};
    table.put_all(customers);
    table.put_all(orders);
  }
  // The same items written on SQLite by pksk::Table, for the report's figures.
  {
    pksk::sqlite::Backend backend{s / "direct.db"};
    pksk::Table table{backend, "shop"};
    table.put_all(customers);
    table.put_all(orders);
  }

  const Result exported = inspect({address(source, false), "--export", s / "dynamodb.json"});
  INFO(exported.err);
  REQUIRE(exported.status == 0);
  CHECK(exported.err.find("exported 180 items") != std::string::npos);
  // DynamoDB's string set comes out as one.
  const std::vector<std::string> lines = sorted_lines(s / "dynamodb.json");
  REQUIRE(lines.size() == 180);
  CHECK(std::count_if(lines.begin(), lines.end(), [](const std::string& line) {
          return line.find(R"("tags":{"SS":["a0","b"]})") != std::string::npos;
        }) == 1);

  REQUIRE(inspect({s / "copy.db", "--import", s / "dynamodb.json", "--table", "shop"}).status == 0);
  {
    pksk::sqlite::Backend backend{s / "copy.db"};
    pksk::Table table{backend, "shop"};
    for (const Customer& c : customers) {
      const auto got = table.get(Customer{.id = c.id});
      REQUIRE(got);
      CHECK(same(*got, c));
    }
    using Collection = pksk::ItemCollection<Customer, Order>;
    const Collection seven = table.query<Collection>(pksk::partition(Customer{.id = "7"}));
    CHECK(seven.unknown().empty());
    std::vector<Order> seven_orders;
    for (const Order& o : seven.items<Order>()) seven_orders.push_back(o);
    CHECK(seven_orders == std::vector<Order>(orders.begin() + 35, orders.begin() + 40));
  }

  // The report measures as DynamoDB does on either backend: the same figures.
  const auto totals = [](const Result& r) {
    const auto at = r.out.find("items, ");
    return at == std::string::npos ? std::string() : r.out.substr(0, r.out.find('(', at));
  };
  const Result on_dynamodb = inspect({address(source, false)});
  const Result on_sqlite = inspect({s / "direct.db"});
  REQUIRE(on_dynamodb.status == 0);
  REQUIRE(on_sqlite.status == 0);
  INFO(on_dynamodb.out << on_sqlite.out);
  CHECK(totals(on_dynamodb).substr(totals(on_dynamodb).find(": 180 items")) ==
        totals(on_sqlite).substr(totals(on_sqlite).find(": 180 items")));

  // Into a new DynamoDB table, in batches of 7 (BatchWriteItem requests of at most 25), twice.
  const std::string target = pksk_test::fresh_table_name("inspect_");
  for (int run = 0; run < 2; ++run) {
    const Result imported =
        inspect({address(target, true), "--import", s / "dynamodb.json", "--batch", "7"});
    INFO(imported.err);
    REQUIRE(imported.status == 0);
  }
  pksk::Table table{dynamodb, target};
  for (const Order& o : orders) {
    const auto got = table.get(Order{.customer_id = o.customer_id, .order_id = o.order_id});
    REQUIRE(got);
    CHECK(*got == o);
  }
  const auto c = table.get(Customer{.id = "29"});
  REQUIRE(c);
  CHECK(same(*c, customers[29]));
  // Reading a table that is not there creates nothing, even with create=1.
  const Result missing = inspect({address(target + "_absent", true)});
  CHECK(missing.status == 1);
  CHECK_FALSE(missing.err.empty());
}

TEST_CASE("copy: an SQLite file to DynamoDB Local and back, verified each way", "[local]") {
  Scratch s;
  const std::string endpoint = pksk_test::dynamodb_local_endpoint();
  ::setenv("AWS_ACCESS_KEY_ID", "pksk", 1);
  ::setenv("AWS_SECRET_ACCESS_KEY", "copy", 1);
  std::vector<Customer> customers;
  std::vector<Order> orders;
  for (int c = 0; c < 20; ++c) {
    customers.push_back(customer(c));
    for (int i = 0; i < 30; ++i) orders.push_back(order(c, i));
  }
  {
    pksk::sqlite::Backend backend{s / "shop.db"};
    pksk::Table table{backend, "shop"};
    table.put_all(customers);
    table.put_all(orders);
  }
  // No create=1: copy creates its target table.
  const std::string table_name = pksk_test::fresh_table_name("copy_");
  const std::string dynamodb =
      "dynamodb://" + table_name + "?endpoint=" + endpoint + "&region=us-east-1";
  // Stopped at 250 items and resumed, into DynamoDB (BatchWriteItem requests of 25).
  const std::vector<std::string> to_dynamodb = {
      "copy", s / "shop.db", dynamodb, "--checkpoint", s / "to.checkpoint", "--batch", "100"};
  std::vector<std::string> half = to_dynamodb;
  half.insert(half.end(), {"--stop-after", "250"});
  const Result stopped = inspect(half);
  INFO(stopped.err);
  REQUIRE(stopped.status == 130);
  std::vector<std::string> rest = to_dynamodb;
  rest.push_back("--verify");
  const Result there = inspect(rest);
  INFO(there.err << there.out);
  REQUIRE(there.status == 0);
  CHECK(there.err.find("copied 370 items") != std::string::npos);
  CHECK(there.out.starts_with("verified: 620 items in 20 collections"));

  // Read back through pksk::Table on DynamoDB: the typed items. (Not the customers: their
  // string set left the SQLite file as a list, L, which pksk's DynamoDB decoder refuses for a
  // std::set member.)
  pksk::dynamodb::Backend backend{{.endpoint = endpoint,
                                   .region = "us-east-1",
                                   .credentials = pksk::dynamodb::Credentials{"pksk", "x", ""}}};
  pksk::Table table{backend, table_name};
  CHECK(table.query<Order>(pksk::partition(Customer{.id = "7"})) ==
        std::vector<Order>(orders.begin() + 210, orders.begin() + 240));

  // --target-table naming another table than the DynamoDB address does is refused before
  // anything is written, rather than merging the copy into the address's table.
  const std::string other = pksk_test::fresh_table_name("copy_other_");
  const Result clash = inspect({"copy", s / "shop.db", dynamodb, "--target-table", other,
                                "--checkpoint", s / "clash.checkpoint", "--quiet"});
  INFO(clash.err);
  CHECK(clash.status == 2);
  CHECK(clash.err.find("--target-table " + other + " names another table than the target") !=
        std::string::npos);
  CHECK(clash.err.find("copied") == std::string::npos);
  CHECK(inspect({"verify", s / "shop.db", dynamodb, "--target-table", other}).status == 2);
  // The address's own name is no clash.
  CHECK(inspect({"verify", s / "shop.db", dynamodb, "--target-table", table_name}).status == 0);

  // And back into a new SQLite file, the same items again.
  const Result back =
      inspect({"copy", dynamodb, s / "back.db", "--checkpoint", s / "back.checkpoint",
               "--target-table", "shop", "--verify", "--quiet"});
  INFO(back.err << back.out);
  REQUIRE(back.status == 0);
  CHECK(back.err == "copied 620 items (" + back.err.substr(18, back.err.find(' ', 18) - 18) +
                        " bytes) from " + dynamodb + " to " + s / "back.db" + "\n");
  CHECK(inspect({"verify", s / "shop.db", s / "back.db"}).status == 0);
  // One item changed on DynamoDB: verify names its collection.
  Order changed = orders[5];
  changed.lines.push_back("extra");
  table.put(changed);
  const Result differs = inspect({"verify", s / "back.db", dynamodb});
  CHECK(differs.status == 1);
  CHECK(differs.out.find("collection CUSTOMER#0: 31 items on each side, not the same ones") !=
        std::string::npos);
}

TEST_CASE("copy: a table whose sort key is a number, to DynamoDB Local (RANGE N) and back",
          "[local]") {
  Scratch s;
  const std::string endpoint = pksk_test::dynamodb_local_endpoint();
  ::setenv("AWS_ACCESS_KEY_ID", "pksk", 1);
  ::setenv("AWS_SECRET_ACCESS_KEY", "copy", 1);
  const pksk::TableOptions numbered{.sk_type = pksk::KeyType::number};
  std::vector<Entry> entries;
  for (const std::int64_t seq : {10, -3, 2, 100, 9}) entries.push_back(Entry{"l1", seq, 1.5});
  {
    pksk::sqlite::Backend backend{s / "ledger.db"};
    pksk::Table table{backend, "ledger", numbered};
    table.put_all(entries);
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.seq < b.seq; });
  // The SQLite file says its sort key is a number; copy creates the DynamoDB table so.
  const std::string table_name = pksk_test::fresh_table_name("numbers_");
  const std::string dynamodb =
      "dynamodb://" + table_name + "?endpoint=" + endpoint + "&region=us-east-1";
  const Result there = inspect({"copy", s / "ledger.db", dynamodb, "--checkpoint",
                                s / "to.checkpoint", "--verify", "--quiet"});
  INFO(there.err << there.out);
  REQUIRE(there.status == 0);
  CHECK(there.out.starts_with("verified: 5 items in 1 collections"));
  pksk::dynamodb::Backend backend{{.endpoint = endpoint,
                                   .region = "us-east-1",
                                   .credentials = pksk::dynamodb::Credentials{"pksk", "x", ""}}};
  pksk::Table table{backend, table_name, numbered};
  CHECK(table.query<Entry>(pksk::partition(Entry{.ledger = "l1"})) == entries);

  // Back into SQLite, told that the DynamoDB table's sort key is a number.
  const Result back = inspect({"copy", dynamodb, s / "back.db", "--sk-type", "N", "--checkpoint",
                               s / "back.checkpoint", "--target-table", "ledger", "--quiet"});
  INFO(back.err << back.out);
  REQUIRE(back.status == 0);
  CHECK(inspect({"verify", s / "ledger.db", s / "back.db"}).status == 0);
  pksk::sqlite::Backend file{s / "back.db"};
  pksk::Table copied{file, "ledger", numbered};
  CHECK(copied.query<Entry>(pksk::partition(Entry{.ledger = "l1"})) == entries);
  CHECK(inspect({"copy", dynamodb, s / "x.db", "--sk-type", "Q"}).status == 2);
}

TEST_CASE("a missing DynamoDB table's hint is the command line's create=1, not the C++ option",
          "[local]") {
  Scratch s;
  const std::string endpoint = pksk_test::dynamodb_local_endpoint();
  ::setenv("AWS_ACCESS_KEY_ID", "pksk", 1);
  ::setenv("AWS_SECRET_ACCESS_KEY", "hint", 1);
  const std::string absent = "dynamodb://" + pksk_test::fresh_table_name("absent_") +
                             "?endpoint=" + endpoint + "&region=us-east-1";
  std::ofstream(s / "in.json") << R"({"Item":{"pk":{"S":"P"},"sk":{"S":"1"},"type":{"S":"T"}}})"
                               << '\n';
  const Result import = inspect({absent, "--import", s / "in.json"});
  INFO(import.err);
  CHECK(import.status == 1);
  CHECK(import.err.find("does not exist") != std::string::npos);
  CHECK(import.err.find("add create=1 to the address") != std::string::npos);
  CHECK(import.err.find("Options::create_missing_tables") == std::string::npos);
  const Result read = inspect({absent});
  INFO(read.err);
  CHECK(read.status == 1);
  CHECK(read.err.find("does not exist") != std::string::npos);
  CHECK(read.err.find("create=1 in the address lets --import create it") != std::string::npos);
  CHECK(read.err.find("Options::create_missing_tables") == std::string::npos);
}

#endif
