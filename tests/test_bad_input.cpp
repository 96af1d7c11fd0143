// SPDX-License-Identifier: BSL-1.0
// Bad input at pksk's edges: key values, stored bodies and cursor tokens that a program, a
// corrupted or foreign database, or a client can hand it. Every row names the exact error.
//
// | input                                    | through    | expected                     |
// |------------------------------------------|------------|------------------------------|
// | key field with '#', NUL, invalid UTF-8,  | put, get   | KeyError naming entity and   |
// |   empty, the next literal's character    |            |   field; table unchanged     |
// | pk of 2,049 bytes (ASCII; é)             | put, get   | KeyError naming entity, key, |
// | sk of 1,025 bytes (ASCII; €)             | put, get   |   size and limit; unchanged  |
// | pk of 2,048, sk of 1,024 bytes           | put, get   | written and read back        |
// | stored body truncated, empty, not JSON,  | get, query | DecodeError naming pk, sk    |
// |   trailing bytes, not an object          |            |   and the JSON path          |
// | wrong member types (top level, nested)   | get, query | DecodeError + path           |
// | nested 100,000 deep: in a string, an     | get, query | DecodeError + path (never a  |
// |   int vector, a self-recursive record    |            |   stack overflow or abort)   |
// | 1e400, 2^64, 2^63, -2^63-1, NaN, Inf     | get, query | DecodeError + path           |
// | cursor truncated, one byte edited (every | query_page | ValidationError (DynamoDB's  |
// |   position), from another partition,     |            |   answer to a bad            |
// |   of an index, outside the condition     |            |   ExclusiveStartKey)         |
//
// Not an error: an unknown member nested 100,000 deep is skipped (simdjson skips iteratively,
// without recursion), as unknown members always are.

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <sqlite3.h>

#include <pksk/codec/attribute_value_read.hpp>  // the decoder: <pksk/pksk.hpp> leaves it out with PKSK_SEPARATE_COMPILATION
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

namespace bad_input {

struct Node {
  std::string label;
  std::vector<Node> children;
  friend bool operator==(const Node&, const Node&) = default;
};

struct Doc {
  std::string id;    // the partition key's field
  std::string part;  // the sort key's field
  std::string name;
  std::int64_t count{};
  std::uint64_t big{};
  double ratio{};
  std::vector<int> values;
  Node tree;
  friend bool operator==(const Doc&, const Doc&) = default;
};

}  // namespace bad_input

template <>
struct pksk::Entity<bad_input::Doc> {
  static constexpr std::string_view type = "Doc";
  static constexpr std::string_view pk = "DOC#{id}";       // 4 literal bytes
  static constexpr std::string_view sk = "PART#{part}:v";  // 7 literal bytes
};

using bad_input::Doc;
using bad_input::Node;
using Table = pksk::Table<pksk::sqlite::Backend>;
using Row = std::tuple<std::string, std::string, std::string, std::string>;

namespace {

// Every row of table "t", in key order, read with raw SQLite.
std::vector<Row> rows(const pksk::sqlite::Backend& backend) {
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(backend.native_handle(),
                             "SELECT pk, sk, type, body FROM t ORDER BY pk, sk", -1, &stmt,
                             nullptr) == SQLITE_OK);
  std::vector<Row> out;
  const auto text = [&](int column) {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, column));
    return std::string(p ? p : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, column)));
  };
  while (sqlite3_step(stmt) == SQLITE_ROW) out.emplace_back(text(0), text(1), text(2), text(3));
  sqlite3_finalize(stmt);
  return out;
}

// Stores a row as a foreign writer or a corrupted file would: no pksk in between.
void insert_raw(const pksk::sqlite::Backend& backend, const std::string& pk, const std::string& sk,
                const std::string& body) {
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(backend.native_handle(),
                             "INSERT OR REPLACE INTO t (pk, sk, type, body, size) "
                             "VALUES (?1, ?2, 'Doc', ?3, length(?3))",
                             -1, &stmt, nullptr) == SQLITE_OK);
  sqlite3_bind_text(stmt, 1, pk.data(), static_cast<int>(pk.size()), SQLITE_TRANSIENT);
  sqlite3_bind_text(stmt, 2, sk.data(), static_cast<int>(sk.size()), SQLITE_TRANSIENT);
  sqlite3_bind_text(stmt, 3, body.data(), static_cast<int>(body.size()), SQLITE_TRANSIENT);
  REQUIRE(sqlite3_step(stmt) == SQLITE_DONE);
  sqlite3_finalize(stmt);
}

std::string repeat(std::string_view unit, std::size_t n) {
  std::string out;
  out.reserve(unit.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += unit;
  return out;
}

std::string nested(std::string_view open, std::string_view inner, std::string_view close,
                   std::size_t depth) {
  return repeat(open, depth) + std::string(inner) + repeat(close, depth);
}

// Every cursor rejection goes through here: when the cursor errors become
// pksk::ValidationError, tighten this one line.
void expect_bad_cursor(Table& table, const pksk::PartitionKey& pk, const std::string& token,
                       std::optional<pksk::KeyCondition> condition = std::nullopt) {
  INFO("token \"" << token << "\"");
  CHECK_THROWS_AS(
      table.query_page<Doc>(pk, {.sk = condition, .limit = 1, .start = pksk::Cursor::parse(token)}),
      pksk::ValidationError);
}

}  // namespace

TEST_CASE("key values that cannot be keys: KeyError, and nothing is written") {
  struct KeyRow {
    const char* what;
    std::string id;
    std::string part;
    std::vector<std::string> message;  // what the KeyError must say
  };
  const std::string pk_fits(2048 - 4, 'p');  // "DOC#" + 2,044 = 2,048 bytes
  const std::string sk_fits(1024 - 7, 's');  // "PART#" + 1,017 + ":v" = 1,024 bytes
  const std::string pk_fits_2byte = repeat("\xC3\xA9", 1022);     // é: 2,044 bytes, 1,022 chars
  const std::string sk_fits_3byte = repeat("\xE2\x82\xAC", 339);  // €: 1,017 bytes
  const std::vector<KeyRow> table_rows = {
      {"delimiter in the pk field", "a#b", "p", {"Doc.id", "'#', the key delimiter"}},
      {"delimiter in the sk field", "a", "#", {"Doc.part", "'#', the key delimiter"}},
      {"next literal in the sk field", "a", "x:y", {"Doc.part", "':', the character that follows"}},
      {"NUL in the pk field", std::string("a\0b", 3), "p", {"Doc.id", "NUL"}},
      {"NUL in the sk field", "a", std::string(1, '\0'), {"Doc.part", "NUL"}},
      {"empty pk field", "", "p", {"Doc.id", "must not be empty"}},
      {"invalid UTF-8: lone continuation", "\x80", "p", {"Doc.id", "not valid UTF-8 (at byte 0)"}},
      {"invalid UTF-8: overlong '/'", "a\xC0\xAF", "p", {"Doc.id", "(at byte 1)"}},
      {"invalid UTF-8: surrogate", "a", "\xED\xA0\x80", {"Doc.part", "not valid UTF-8"}},
      {"invalid UTF-8: above U+10FFFF", "\xF4\x90\x80\x80", "p", {"Doc.id", "not valid UTF-8"}},
      {"invalid UTF-8: truncated sequence", "a", "z\xE2\x82", {"Doc.part", "(at byte 1)"}},
      {"pk of 2,049 bytes",
       pk_fits + "p",
       "p",
       {"Doc's partition key", "is 2049 bytes", "limit of 2048 bytes"}},
      {"pk of 2,050 bytes in 2-byte characters",
       pk_fits_2byte + "\xC3\xA9",
       "p",
       {"Doc's partition key", "is 2050 bytes", "limit of 2048 bytes"}},
      {"sk of 1,025 bytes",
       "a",
       sk_fits + "s",
       {"Doc's sort key", "is 1025 bytes", "limit of 1024 bytes"}},
      {"sk of 1,027 bytes in 3-byte characters",
       "a",
       sk_fits_3byte + "\xE2\x82\xAC",
       {"Doc's sort key", "is 1027 bytes", "limit of 1024 bytes"}},
  };

  pksk::sqlite::Backend backend{":memory:"};
  Table table{backend, "t"};
  table.put(Doc{.id = "kept", .part = "p", .name = "already there"});
  const std::vector<Row> before = rows(backend);
  REQUIRE(before.size() == 1);

  for (const KeyRow& row : table_rows) {
    DYNAMIC_SECTION(row.what) {
      const Doc doc{.id = row.id, .part = row.part, .name = "new"};
      for (const auto& operation : {"put", "get"}) {
        INFO(operation);
        try {
          if (std::string_view(operation) == "put") {
            table.put(doc);
          } else {
            (void)table.get(doc);
          }
          FAIL("no KeyError");
        } catch (const pksk::KeyError& e) {
          const std::string what = e.what();
          CHECK_THAT(what, Catch::Contains(std::string("pksk table 't', ") + operation + " Doc"));
          for (const std::string& part : row.message) CHECK_THAT(what, Catch::Contains(part));
        }
      }
      CHECK(rows(backend) == before);
    }
  }
}

TEST_CASE("keys at DynamoDB's size limits are written and read back") {
  const std::string pk_fits(2048 - 4, 'p');
  const std::string sk_fits(1024 - 7, 's');
  const std::vector<std::pair<std::string, std::string>> fitting = {
      {pk_fits, "s"},
      {"a", sk_fits},
      {pk_fits, sk_fits},
      {repeat("\xC3\xA9", 1022), repeat("\xE2\x82\xAC", 339)},  // multibyte, at both limits
  };
  pksk::sqlite::Backend backend{":memory:"};
  Table table{backend, "t"};
  for (const auto& [id, part] : fitting) {
    const Doc doc{.id = id, .part = part, .name = "fits"};
    REQUIRE_NOTHROW(table.put(doc));
    CHECK(table.get(Doc{.id = id, .part = part}) == doc);
    CHECK(pksk::partition(doc).value.size() <= pksk::max_partition_key_size);
    CHECK(pksk::sort_key(doc).size() <= pksk::max_sort_key_size);
  }
  CHECK(pksk::partition(Doc{.id = pk_fits}).value.size() == 2048);
  CHECK(pksk::sort_key(Doc{.part = sk_fits}).size() == 1024);
  CHECK(rows(backend).size() == fitting.size());
}

TEST_CASE("stored bodies that do not decode: DecodeError naming pk, sk and the JSON path") {
  struct BodyRow {
    const char* what;
    std::string body;
    std::string path;     // "$.ratio": the message says "at $.ratio: "
    std::string message;  // and this
  };
  constexpr std::size_t deep = 100'000;
  const std::vector<BodyRow> table_rows = {
      {"truncated", R"({"name":"x","count":1)", "$", "invalid JSON"},
      {"truncated in a string", R"({"tree":{"label":"r","children":[{"lab)", "$",
       "invalid JSON (A string is opened, but never closed.)"},
      {"truncated in a nested record", R"({"tree":{"label":"r","children":[{"label":"x",)", "$",
       "invalid JSON (JSON document ended early in the middle of an object or array.)"},
      {"empty", "", "$", "invalid JSON"},
      {"not JSON", "name=x", "$", "expected an object"},
      {"trailing bytes", R"({"name":"x"}})", "$",
       "invalid JSON (unexpected content after the object)"},
      {"an array, not an object", "[1,2]", "$", "expected an object"},
      {"null, not an object", "null", "$", "expected an object"},
      {"number for a string", R"({"name":5})", "$.name", "expected a string, found the number 5"},
      {"string for an integer", R"({"count":"5"})", "$.count",
       "expected an integer, found a string"},
      {"float for an integer", R"({"count":1.5})", "$.count", "expected an integer"},
      {"object for an array", R"({"values":{}})", "$.values", "expected an array"},
      {"wrong type deep inside", R"({"tree":{"children":[{},{"children":[{"label":true}]}]}})",
       "$.tree.children[1].children[0].label", "expected a string, found a boolean"},
      {"nested 100,000 deep in a string member", R"({"name":)" + nested("[", "", "]", deep) + "}",
       "$.name", "expected a string, found an array"},
      {"nested 100,000 deep in an int vector", R"({"values":)" + nested("[", "1", "]", deep) + "}",
       "$.values[0]", "expected an integer, found an array"},
      {"nested 100,000 deep at the root", nested("[", "", "]", deep), "$", "expected an object"},
      {"a self-recursive record nested 100,000 deep",
       R"({"tree":)" + nested(R"({"children":[)", "{}", "]}", deep) + "}",
       // Doc is level 1, its tree 2, the tree's k-th descendant 2 + 2k: the children list of
       // the 499th, at level 1,001, is the first container past the limit.
       "$.tree" + repeat(".children[0]", 499) + ".children", "nested deeper than 1000 levels"},
      {"1e400 for a double", R"({"ratio":1e400})", "$.ratio",
       "invalid JSON (Problem while parsing a number)"},
      {"-1e400 for a double", R"({"ratio":-1e400})", "$.ratio",
       "invalid JSON (Problem while parsing a number)"},
      {"2^64 for a uint64", R"({"big":18446744073709551616})", "$.big",
       "expected an integer between 0 and 18446744073709551615, found the number "
       "18446744073709551616"},
      {"-1 for a uint64", R"({"big":-1})", "$.big",
       "expected an integer between 0 and 18446744073709551615, found the number -1"},
      {"2^64 for an int64", R"({"count":18446744073709551616})", "$.count",
       "expected an integer between -9223372036854775808 and 9223372036854775807, found the "
       "number 18446744073709551616"},
      {"2^63 for an int64", R"({"count":9223372036854775808})", "$.count",
       "expected an integer between -9223372036854775808 and 9223372036854775807, found the "
       "number 9223372036854775808"},
      {"-2^63-1 for an int64", R"({"count":-9223372036854775809})", "$.count",
       "expected an integer between -9223372036854775808 and 9223372036854775807, found the "
       "number -9223372036854775809"},
      {"NaN literal", R"({"ratio":NaN})", "$.ratio", "expected a number, found invalid JSON"},
      {"Infinity literal", R"({"ratio":Infinity})", "$.ratio",
       "expected a number, found invalid JSON"},
      {"-Infinity literal", R"({"ratio":-Infinity})", "$.ratio",
       "expected a number, found the number -Infinity"},
      {"nan in an int list", R"({"values":[1,nan]})", "$.values[1]",
       "expected an integer, found the invalid JSON token nan"},
  };

  pksk::sqlite::Backend backend{":memory:"};
  Table table{backend, "t"};
  for (const BodyRow& row : table_rows) {
    DYNAMIC_SECTION(row.what) {
      insert_raw(backend, "DOC#k", "PART#p:v", row.body);
      const auto expect = [&](const pksk::DecodeError& e) {
        const std::string what = e.what();
        INFO(what.substr(0, 400));
        CHECK_THAT(what, Catch::Contains("pk 'DOC#k', sk 'PART#p:v', type 'Doc'"));
        CHECK_THAT(what, Catch::Contains("at " + row.path + ": " + row.message));
      };
      try {
        (void)table.get(Doc{.id = "k", .part = "p"});
        FAIL("get: no DecodeError");
      } catch (const pksk::DecodeError& e) {
        expect(e);
      }
      try {
        (void)table.query<Doc>(pksk::partition(Doc{.id = "k"}));
        FAIL("query: no DecodeError");
      } catch (const pksk::DecodeError& e) {
        expect(e);
      }
    }
  }
}

TEST_CASE("an unknown member nested 100,000 deep is skipped, as unknown members are") {
  pksk::sqlite::Backend backend{":memory:"};
  Table table{backend, "t"};
  insert_raw(backend, "DOC#k", "PART#p:v",
             R"({"unknown":)" + nested(R"({"a":[)", "", "]}", 100'000) + R"(,"name":"n"})");
  const std::optional<Doc> doc = table.get(Doc{.id = "k", .part = "p"});
  REQUIRE(doc);
  CHECK(doc->name == "n");
}

TEST_CASE("a self-recursive record just inside the depth limit decodes") {
  // Doc is level 1, its tree 2, the tree's 499th descendant 1,000: the deepest allowed.
  constexpr std::size_t levels = 499;
  pksk::sqlite::Backend backend{":memory:"};
  Table table{backend, "t"};
  insert_raw(backend, "DOC#k", "PART#p:v",
             R"({"tree":)" + nested(R"({"children":[)", R"({"label":"leaf"})", "]}", levels) + "}");
  const std::optional<Doc> doc = table.get(Doc{.id = "k", .part = "p"});
  REQUIRE(doc);
  const Node* node = &doc->tree;
  for (std::size_t i = 0; i < levels; ++i) {
    REQUIRE(node->children.size() == 1);
    node = &node->children[0];
  }
  CHECK(node->label == "leaf");
}

TEST_CASE("cursors that are not this query's: pksk::Error") {
  pksk::sqlite::Backend backend{":memory:"};
  Table table{backend, "t"};
  for (const char* id : {"a", "b"}) {
    for (const char* part : {"1", "2", "3"}) table.put(Doc{.id = id, .part = part});
  }
  const pksk::PartitionKey a = pksk::partition(Doc{.id = "a"});
  const pksk::PartitionKey b = pksk::partition(Doc{.id = "b"});
  const auto first = table.query_page<Doc>(a, {.limit = 1});
  REQUIRE(first.next);
  const std::string token = first.next->to_string();
  // The token itself is good: it resumes its own query.
  REQUIRE(
      table.query_page<Doc>(a, {.limit = 1, .start = pksk::Cursor::parse(token)}).items.size() ==
      1);

  SECTION("from another partition") {
    expect_bad_cursor(table, b, token);
  }
  SECTION("of an index") {
    expect_bad_cursor(
        table, a,
        pksk::Cursor{"gsi1", first.next->pk, first.next->sk, "t", {}, {}, {}}.to_string());
  }
  SECTION("outside the query's key condition") {
    expect_bad_cursor(table, a, token, pksk::begins_with("PART#3"));
  }
  SECTION("truncated, at every length") {
    for (std::size_t n = 0; n < token.size(); ++n) expect_bad_cursor(table, a, token.substr(0, n));
  }
  SECTION("one byte edited, at every position") {
    constexpr std::string_view alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (std::size_t i = 0; i < token.size(); ++i) {
      std::string edited = token;
      // Another base64url character (so the decoded bytes change) and one outside the alphabet.
      edited[i] = alphabet[(alphabet.find(token[i]) + 1) % alphabet.size()];
      expect_bad_cursor(table, a, edited);
      edited[i] = '+';
      expect_bad_cursor(table, a, edited);
    }
  }
  SECTION("appended to") {
    expect_bad_cursor(table, a, token + "A");
    expect_bad_cursor(table, a, token + "AA");
  }
}

namespace {
// The message of the E that f throws; fails the test when f throws nothing or anything else.
template <class E, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  FAIL("nothing thrown");
  return {};
}
}  // namespace

TEST_CASE("strings that are not UTF-8: EncodeError naming the member, and nothing is written") {
  pksk::sqlite::Backend backend{":memory:"};
  Table table{backend, "t"};
  table.put(Doc{.id = "a", .part = "1", .name = "kept"});
  const auto before = rows(backend);

  for (const std::string bad : {"\x80", "ok\xC0\xAF", "\xED\xA0\x80", "z\xE2\x82"}) {
    INFO("string \"" << bad << "\"");
    CHECK_THAT(
        message_of<pksk::EncodeError>([&] { table.put(Doc{.id = "a", .part = "1", .name = bad}); }),
        Catch::Matchers::Contains("$.name") && Catch::Matchers::Contains("not valid UTF-8"));
    CHECK_THAT(message_of<pksk::EncodeError>([&] {
                 table.put(Doc{.id = "a", .part = "1", .tree = {.children = {Node{.label = bad}}}});
               }),
               Catch::Matchers::Contains("$.tree.children[0].label"));
    CHECK_THROWS_AS(table.update(Doc{.id = "a", .part = "1"}, pksk::set(&Doc::name, bad)),
                    pksk::EncodeError);
    CHECK(rows(backend) == before);
  }
  // Valid multibyte text of every length is written and read back.
  const std::string text = "\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80";  // é € 😀
  table.put(Doc{.id = "a", .part = "2", .name = text});
  CHECK(table.get(Doc{.id = "a", .part = "2"})->name == text);
}

TEST_CASE("a stored body nested 100,000 deep under a condition or an update: DecodeError") {
  // Conditions and updates read the stored attributes they name into attribute trees, one
  // level of recursion a level: the depth limit holds there as in the decoder. An update that
  // does not name the deep member copies it unread, and the item it returns does not decode:
  // that too leaves the stored item as it was.
  pksk::sqlite::Backend backend{":memory:"};
  Table table{backend, "t"};
  const std::string body =
      R"({"id":"a","part":"1","values":)" + nested("[", "", "]", 100'000) + "}";
  insert_raw(backend, "DOC#a", "PART#1:v", body);
  const auto before = rows(backend);
  const auto check_deep = [](const std::string& message) {
    CHECK_THAT(message, Catch::Matchers::Contains("$.values" + repeat("[0]", 999)) &&
                            Catch::Matchers::Contains("nested deeper than 1000 levels"));
  };
  check_deep(message_of<pksk::DecodeError>(
      [&] { table.update(Doc{.id = "a", .part = "1"}, pksk::set(&Doc::values, {1})); }));
  check_deep(message_of<pksk::DecodeError>([&] {
    table.update(Doc{.id = "a", .part = "1"}, pksk::set(&Doc::count, 1),
                 pksk::when(pksk::attr(&Doc::values) == std::vector<int>{}));
  }));
  CHECK_THAT(message_of<pksk::DecodeError>(
                 [&] { table.update(Doc{.id = "a", .part = "1"}, pksk::set(&Doc::count, 1)); }),
             Catch::Matchers::Contains("$.values[0]: expected an integer"));
  check_deep(message_of<pksk::DecodeError>(
      [&] { table.put(Doc{.id = "a", .part = "1"}, pksk::when(pksk::attr(&Doc::count) == 0)); }));
  CHECK(rows(backend) == before);
}

TEST_CASE("a stored number that is not JSON's number under a condition or an update: DecodeError") {
  // simdjson's on-demand reader types a value by its first byte, so "1?" or "0" followed by a
  // NUL reached the attribute tree as number text, and ADD then parsed it as a decimal that is
  // not one (found by fuzz_expression_evaluate).
  using namespace std::string_literals;
  for (const std::string& bad : {"1?"s, "0\0\0"s, "-"s, "01"s, "1."s, "1e"s, ".5"s}) {
    INFO("number \"" << bad << "\"");
    pksk::sqlite::Backend backend{":memory:"};
    Table table{backend, "t"};
    insert_raw(backend, "DOC#a", "PART#1:v", R"({"id":"a","part":"1","count":)" + bad + "}");
    const auto before = rows(backend);
    CHECK_THAT(message_of<pksk::DecodeError>(
                   [&] { table.update(Doc{.id = "a", .part = "1"}, pksk::add(&Doc::count, 1)); }),
               Catch::Matchers::Contains("$.count"));
    CHECK_THAT(message_of<pksk::DecodeError>([&] {
                 table.put(Doc{.id = "a", .part = "1"}, pksk::when(pksk::attr(&Doc::count) > 0));
               }),
               Catch::Matchers::Contains("$.count"));
    CHECK(rows(backend) == before);
  }
  for (const std::string good : {"0", "-0", "12", "-1.50", "1e5", "2E-3", "0.5e+2"}) {
    INFO("number \"" << good << "\"");
    CHECK(pksk::parse_plain_body(R"({"n":)" + good + "}").find("n")->text == good);
  }
}

TEST_CASE("parse_attribute_value_body reads DynamoDB's item JSON and refuses what is not one") {
  const pksk::AttributeValue item = pksk::parse_attribute_value_body(
      R"({"s":{"S":"x"},"n":{"N":"1.50"},"b":{"B":"AP8="},"m":{"M":{"l":{"L":[{"NULL":true},)"
      R"({"BOOL":false}]}}},"ss":{"SS":["b","a"]}} )");
  REQUIRE(item.map.size() == 5);
  CHECK(item.find("s")->text == "x");
  CHECK(item.find("n")->text == "1.50");  // the number's text as written
  CHECK(item.find("b")->text == std::string("\0\xFF", 2));
  CHECK(item.find("m")->find("l")->list.size() == 2);
  CHECK(item.find("ss")->set == std::vector<std::string>{"a", "b"});
  CHECK(pksk::parse_body(R"({"s":"x"})", pksk::BodyFormat::json).find("s")->text == "x");
  CHECK(pksk::parse_body(R"({"s":{"S":"x"}})", pksk::BodyFormat::attribute_value).find("s")->text ==
        "x");
  CHECK(pksk::parse_attribute_value_body(R"({"a":{"NS":["1"]}})").find("a")->kind ==
        pksk::AttributeValue::Kind::number_set);
  CHECK_THROWS_AS(pksk::parse_attribute_value_body(R"({"a":{"XS":["1"]}})"), pksk::DecodeError);
  CHECK_THROWS_WITH(pksk::parse_attribute_value_body(R"({"a":{"XS":["1"]}})"),
                    Catch::Contains("unsupported AttributeValue type \"XS\""));
  CHECK_THROWS_AS(pksk::parse_attribute_value_body(R"({"a":{"S":"x"}}{})"), pksk::DecodeError);
  CHECK_THROWS_WITH(pksk::parse_attribute_value_body(R"({"a":{"S":"x"}}{})"),
                    Catch::Contains("text after the object"));
  CHECK_THROWS_AS(pksk::parse_attribute_value_body(R"({"a":{"M":{"b":{"N":"x"}}}})"),
                  pksk::DecodeError);
  CHECK_THROWS_WITH(pksk::parse_attribute_value_body(R"({"a":{"M":{"b":{"N":"x"}}}})"),
                    Catch::Contains("at $.a.b: invalid number"));
  CHECK_THROWS_AS(pksk::parse_attribute_value_body("[]"), pksk::DecodeError);
}
