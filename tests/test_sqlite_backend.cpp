// SPDX-License-Identifier: BSL-1.0
// The SQLite backend at the raw level: items, byte order, key conditions against a brute-force
// reference, DynamoDB's paging, the schema it creates and checks, and its failures.

#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include <pksk/detail/row_arena.hpp>  // the page arena the backend reads into
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/sqlite.hpp>
#include <pksk/sqlite/detail/sql.hpp>  // the SQL the backend prepares, for its query plans

#include "support/numbered.hpp"

namespace {

namespace fs = std::filesystem;
using pksk::KeyCondition;
namespace backend = pksk::backend;

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "pksk-sqlite-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

// A raw connection of the test's own, as the sqlite3 shell or another process would have.
class RawDb {
 public:
  explicit RawDb(const std::string& path) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) throw std::runtime_error("open failed");
  }
  RawDb(const RawDb&) = delete;
  RawDb& operator=(const RawDb&) = delete;
  ~RawDb() { sqlite3_close_v2(db_); }
  void exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err != nullptr ? err : "?";
      sqlite3_free(err);
      throw std::runtime_error(sql + ": " + msg);
    }
  }
  // Every row's columns joined by '|', rows joined by '\n'.
  std::string text(const std::string& sql) { return query_text(db_, sql); }
  static std::string query_text(sqlite3* db, const std::string& sql) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
      throw std::runtime_error(sql + ": " + sqlite3_errmsg(db));
    }
    std::string out;
    while (sqlite3_step(s) == SQLITE_ROW) {
      if (!out.empty()) out += '\n';
      for (int i = 0; i < sqlite3_column_count(s); ++i) {
        if (i != 0) out += '|';
        const auto* t = sqlite3_column_text(s, i);
        if (t != nullptr) out += reinterpret_cast<const char*>(t);
      }
    }
    sqlite3_finalize(s);
    return out;
  }

 private:
  sqlite3* db_ = nullptr;
};

struct Row {
  std::string sk, type, body;
  bool operator==(const Row&) const = default;
};

// A stand-in for the size Table computes with the codec: what the backend stores and pages on.
std::size_t test_size(std::string_view pk, std::string_view sk, std::string_view type,
                      std::string_view body) {
  return 2 + pk.size() + 2 + sk.size() + 4 + type.size() + body.size();
}

void put(pksk::sqlite::Backend& b, pksk::sqlite::Backend::TableHandle t, std::string_view pk,
         std::string_view sk, std::string_view type = "T", std::string_view body = "{}") {
  b.put(t, pksk::backend::PutRequest{
               backend::ItemView{pk, sk, type, body, test_size(pk, sk, type, body)}});
}

std::optional<Row> get(pksk::sqlite::Backend& b, pksk::sqlite::Backend::TableHandle t,
                       std::string_view pk, std::string_view sk) {
  std::optional<Row> row;
  const bool found = b.get(t, pksk::backend::ItemKey{pk, sk}, [&](const backend::ItemView& item) {
    CHECK(item.partition_key() == pk);
    CHECK(item.sort_key() == sk);
    row = Row{std::string(item.sort_key()), std::string(item.type), std::string(item.body)};
  });
  CHECK(found == row.has_value());
  return row;
}

struct Page {
  std::vector<std::string> sks;
  pksk::backend::QueryOutcome outcome;
};

Page query(pksk::sqlite::Backend& b, pksk::sqlite::Backend::TableHandle t,
           const backend::RawQuery& q) {
  Page page;
  page.outcome = b.query(t, q, [&](const backend::ItemView& item) {
    CHECK(item.partition_key() == q.pk);
    page.sks.emplace_back(item.sort_key());
  });
  CHECK(page.outcome.evaluated == page.sks.size());
  return page;
}

std::vector<std::string> sks_of(pksk::sqlite::Backend& b, pksk::sqlite::Backend::TableHandle t,
                                std::string_view pk, const KeyCondition* cond = nullptr,
                                bool forward = true) {
  backend::RawQuery q{.pk = pk, .sk = cond, .forward = forward};
  Page page = query(b, t, q);
  CHECK_FALSE(page.outcome.last_evaluated_sk);
  return page.sks;
}

// Every page of a query, checking that the cursor only appears on pages that stopped early.
std::vector<std::string> all_pages(pksk::sqlite::Backend& b, pksk::sqlite::Backend::TableHandle t,
                                   backend::RawQuery q, std::size_t* pages = nullptr) {
  std::vector<std::string> all;
  std::optional<std::string> start;
  std::size_t count = 0;
  for (;;) {
    q.exclusive_start_sk = start ? std::optional<std::string_view>(*start) : std::nullopt;
    Page page = query(b, t, q);
    ++count;
    REQUIRE(count < 10000);
    all.insert(all.end(), page.sks.begin(), page.sks.end());
    if (!page.outcome.last_evaluated_sk) break;
    REQUIRE_FALSE(page.sks.empty());
    CHECK(*page.outcome.last_evaluated_sk == page.sks.back());
    start = page.outcome.last_evaluated_sk;
  }
  if (pages != nullptr) *pages = count;
  return all;
}

bool bytes_less(const std::string& a, const std::string& b) {
  // std::string's < compares chars as unsigned char (char_traits<char>::lt): byte order.
  return a < b;
}

// The reference semantics of a key condition, in bytes.
bool matches(const KeyCondition& c, const std::string& sk) {
  using Op = KeyCondition::Op;
  switch (c.op) {
    case Op::any:
      return true;
    case Op::eq:
      return sk == c.first;
    case Op::lt:
      return sk < c.first;
    case Op::le:
      return sk <= c.first;
    case Op::gt:
      return sk > c.first;
    case Op::ge:
      return sk >= c.first;
    case Op::between:
      return c.first <= sk && sk <= c.second;
    case Op::begins_with:
      return sk.compare(0, c.first.size(), c.first) == 0;
  }
  return false;
}

std::vector<std::string> reference(std::vector<std::string> keys, const KeyCondition& c,
                                   bool forward) {
  std::erase_if(keys, [&](const std::string& k) { return !matches(c, k); });
  std::sort(keys.begin(), keys.end(), bytes_less);
  if (!forward) std::reverse(keys.begin(), keys.end());
  return keys;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const pksk::Error& e) {
    return e.what();
  }
  FAIL("no pksk::Error was thrown");
  return {};
}

template <class F>
std::string backend_error_of(F&& f) {
  try {
    f();
  } catch (const pksk::BackendError& e) {
    return e.what();
  }
  FAIL("no pksk::BackendError was thrown");
  return {};
}

// What a failing call's BackendError says as data.
struct Failure {
  std::error_code code;
  bool retryable = false;
  pksk::NativeError native;
};
template <class F>
Failure backend_failure_of(F&& f) {
  try {
    f();
  } catch (const pksk::BackendError& e) {
    INFO(e.what());
    return {e.code(), e.retryable(), e.native()};
  }
  FAIL("no pksk::BackendError was thrown");
  return {};
}

const std::vector<std::string> unicode_keys = {
    "a",
    "B",
    "b",
    "ab",
    "a#",
    "A",
    "z",
    "é",
    "éa",
    "ê",
    "e",
    "日本",
    "日",
    "😀",
    "😀x",
    "#ORDER#1",
    "#ORDER#2",
    "#ORDER#10",
    "A#1",
    "\x7f",
    "\xc2\x80",
    "\xdf\xbf",
    "\xf4\x8f\xbf\xbf",
    "\xf4\x8f\xbf\xbf!",
};

}  // namespace

TEST_CASE("put, get, replace and erase single items", "[sqlite]") {
  pksk::sqlite::Backend b{":memory:"};
  auto t = b.open_table(pksk::backend::TableSpec{"shop"});
  CHECK(t.name() == "shop");

  CHECK_FALSE(get(b, t, "P", "A"));
  put(b, t, "P", "A", "Customer", R"({"name":"Ada"})");
  CHECK(get(b, t, "P", "A") == Row{"A", "Customer", R"({"name":"Ada"})"});
  CHECK_FALSE(get(b, t, "P", "a"));  // keys are case-sensitive
  CHECK_FALSE(get(b, t, "Q", "A"));  // and scoped by partition

  put(b, t, "P", "A", "Customer", R"({"name":"Grace"})");  // replaces the whole item
  CHECK(get(b, t, "P", "A") == Row{"A", "Customer", R"({"name":"Grace"})"});
  CHECK(sks_of(b, t, "P") == std::vector<std::string>{"A"});

  // Bytes pass through untouched, NUL included.
  const std::string body("{\"x\":\"\0\xc3\xa9\"}", 11);
  put(b, t, "P", "B", "", body);
  CHECK(get(b, t, "P", "B") == Row{"B", "", body});

  CHECK(b.erase(t, pksk::backend::EraseRequest{{"P", "A"}}));
  CHECK_FALSE(b.erase(t, pksk::backend::EraseRequest{{"P", "A"}}));
  CHECK_FALSE(get(b, t, "P", "A"));
  CHECK(get(b, t, "P", "B"));
}

TEST_CASE("a write asked to report its condition's failure returns it, writing nothing",
          "[sqlite]") {
  pksk::sqlite::Backend b{":memory:"};
  auto t = b.open_table(pksk::backend::TableSpec{"shop"});
  put(b, t, "P", "A", "Customer", R"({"name":"Ada"})");
  // "No item has this key": false for P/A.
  const pksk::backend::Condition absent{
      pksk::backend::Condition::Op::not_exists,
      {pksk::backend::Operand{pksk::backend::Operand::Kind::path,
                              pksk::backend::AttributePath{{{t.spec().pk_attribute}}},
                              {}}},
      {}};
  const std::string_view body = R"({"name":"Grace"})";
  std::optional<pksk::ConditionFailed> failure;
  // No exception: the failure is reported where asked.
  b.put(t, pksk::backend::PutRequest{
               backend::ItemView{"P", "A", "Customer", body, test_size("P", "A", "Customer", body)},
               &absent,
               {nullptr, true, &failure}});
  REQUIRE(failure);
  CHECK(failure->code() == pksk::errc::condition_failed);
  REQUIRE(failure->stored() != nullptr);
  CHECK(failure->stored()->json == R"({"name":"Ada"})");
  CHECK(get(b, t, "P", "A") == Row{"A", "Customer", R"({"name":"Ada"})"});

  failure.reset();
  const pksk::backend::UpdateAction rename{pksk::backend::UpdateAction::Kind::set,
                                           pksk::backend::AttributePath{{{"name"}}},
                                           pksk::AttributeValue::from_string("Cy")};
  bool visited = false;
  b.update(t,
           pksk::backend::UpdateRequest{{"P", "A"},
                                        "Customer",
                                        std::span(&rename, 1),
                                        &absent,
                                        nullptr,
                                        {nullptr, false, &failure}},
           [&](const backend::ItemView&) { visited = true; });
  CHECK(failure);
  CHECK_FALSE(visited);
  CHECK(get(b, t, "P", "A") == Row{"A", "Customer", R"({"name":"Ada"})"});

  failure.reset();
  CHECK_FALSE(
      b.erase(t, pksk::backend::EraseRequest{{"P", "A"}, &absent, {nullptr, false, &failure}}));
  CHECK(failure);
  CHECK(get(b, t, "P", "A"));

  // Asked nothing, the same failures are thrown.
  CHECK_THROWS_AS(b.erase(t, pksk::backend::EraseRequest{{"P", "A"}, &absent}),
                  pksk::ConditionFailed);
}

TEST_CASE("a query reads its partition in sort-key byte order", "[sqlite]") {
  pksk::sqlite::Backend b{":memory:"};
  auto t = b.open_table(pksk::backend::TableSpec{"t"});
  for (const auto& k : unicode_keys) put(b, t, "P", k);
  put(b, t, "O", "0");
  put(b, t, "Q", "0");

  std::vector<std::string> expected = unicode_keys;
  std::sort(expected.begin(), expected.end(), bytes_less);
  CHECK(sks_of(b, t, "P") == expected);
  std::reverse(expected.begin(), expected.end());
  CHECK(sks_of(b, t, "P", nullptr, false) == expected);

  // Spelled out: case is not folded, and code points sort by their UTF-8 bytes, not by any
  // collation (é after z, CJK before emoji).
  const std::vector<std::string> some = {"😀", "日本", "é", "z", "a", "B"};
  pksk::sqlite::Backend b2{":memory:"};
  auto t2 = b2.open_table(pksk::backend::TableSpec{"t"});
  for (const auto& k : some) put(b2, t2, "P", k);
  CHECK(sks_of(b2, t2, "P") == std::vector<std::string>{"B", "a", "z", "é", "日本", "😀"});
}

TEST_CASE("every key condition matches the byte-order reference", "[sqlite]") {
  pksk::sqlite::Backend b{":memory:"};
  auto t = b.open_table(pksk::backend::TableSpec{"t"});
  for (const auto& k : unicode_keys) put(b, t, "P", k);
  put(b, t, "O", "a");  // neighbours that must never leak in
  put(b, t, "Q", "a");

  std::vector<std::string> operands = unicode_keys;
  for (std::string extra : {"", "#", "#ORDER#", "0", "a$", "é", "\xc3", "\xf4\x8f\xbf",
                            "\xf4\x8f\xbf\xbf", "日", "\xe6\x97", "~", "\xff"}) {
    operands.push_back(extra);
  }
  using pksk::begins_with;
  for (const auto& x : operands) {
    for (const KeyCondition& c :
         {pksk::eq(x), pksk::lt(x), pksk::le(x), pksk::gt(x), pksk::ge(x), begins_with(x)}) {
      for (bool forward : {true, false}) {
        INFO("op " << int(c.op) << " operand " << x << " forward " << forward);
        CHECK(sks_of(b, t, "P", &c, forward) == reference(unicode_keys, c, forward));
      }
    }
    for (const auto& y : operands) {
      if (y < x) continue;
      const KeyCondition c = pksk::between(x, y);
      for (bool forward : {true, false}) {
        INFO("between " << x << " and " << y << " forward " << forward);
        CHECK(sks_of(b, t, "P", &c, forward) == reference(unicode_keys, c, forward));
      }
    }
  }
  const KeyCondition any{};
  CHECK(sks_of(b, t, "P", &any) == sks_of(b, t, "P"));
}

TEST_CASE("between is inclusive and rejects an empty range as DynamoDB does", "[sqlite]") {
  pksk::sqlite::Backend b{":memory:"};
  auto t = b.open_table(pksk::backend::TableSpec{"t"});
  for (const char* k : {"#ORDER#2020-11-30", "#ORDER#2020-12-01", "#ORDER#2020-12-15",
                        "#ORDER#2020-12-31", "#ORDER#2021-01-01"}) {
    put(b, t, "P", k);
  }
  const auto dec = pksk::between("#ORDER#2020-12-01", "#ORDER#2020-12-31");
  CHECK(sks_of(b, t, "P", &dec) ==
        std::vector<std::string>{"#ORDER#2020-12-01", "#ORDER#2020-12-15", "#ORDER#2020-12-31"});
  const auto same = pksk::between("#ORDER#2020-12-15", "#ORDER#2020-12-15");
  CHECK(sks_of(b, t, "P", &same) == std::vector<std::string>{"#ORDER#2020-12-15"});

  const auto backwards = pksk::between("b", "a");
  backend::RawQuery q{.pk = "P", .sk = &backwards};
  const std::string msg = error_of([&] { b.query(t, q, [](const backend::ItemView&) {}); });
  CHECK(contains(msg, "pksk table 't' (sqlite), query: between('b', 'a')"));
  CHECK(contains(msg, "lower bound greater than its upper bound"));
  // A byte comparison: "é" (0xC3...) is above "z" even though a collation might disagree.
  const auto bytes = pksk::between("é", "z");
  backend::RawQuery q2{.pk = "P", .sk = &bytes};
  CHECK_THROWS_AS(b.query(t, q2, [](const backend::ItemView&) {}), pksk::Error);
}

TEST_CASE("begins_with is a byte prefix, whatever the last bytes of the prefix", "[sqlite]") {
  using pksk::sqlite::detail::prefix_successor;
  CHECK(prefix_successor("abc") == "abd");
  CHECK(prefix_successor("a\xff") == "b");
  CHECK(prefix_successor("a\xfe\xff\xff") == "a\xff");
  CHECK(prefix_successor("\xc3") == "\xc4");  // not valid UTF-8, and does not need to be
  CHECK(prefix_successor("\xf4\x8f\xbf\xbf") == "\xf4\x8f\xbf\xc0");
  CHECK_FALSE(prefix_successor("\xff\xff"));
  CHECK_FALSE(prefix_successor(""));

  pksk::sqlite::Backend b{":memory:"};
  auto t = b.open_table(pksk::backend::TableSpec{"t"});
  // 0xFF never occurs in UTF-8, but SQLite stores such bytes as given: they exercise the
  // prefixes whose successor drops bytes or does not exist.
  const std::vector<std::string> keys = {
      "a",
      "a\xff",
      "a\xff\xff",
      "a\xff\xff"
      "b",
      "b",
      "\xff",
      "\xff\xff",
      "\xff\xff\x01",
      "\xff\xfe",
      "é",
      "éa",
      "ê",
      "\xf4\x8f\xbf\xbf",
      "\xf4\x8f\xbf\xbf\xf4\x8f\xbf\xbf",
      "\xf4\x8f\xbf\xc0",  // just above every key that begins with U+10FFFF
  };
  for (const auto& k : keys) put(b, t, "P", k);
  for (std::string prefix : {"a", "a\xff", "a\xff\xff", "\xff", "\xff\xff", "\xff\xff\xff", "é",
                             "\xc3", "\xf4\x8f\xbf\xbf", "\xf4", ""}) {
    const auto c = pksk::begins_with(prefix);
    for (bool forward : {true, false}) {
      INFO("prefix of " << prefix.size() << " bytes, forward " << forward);
      CHECK(sks_of(b, t, "P", &c, forward) == reference(keys, c, forward));
    }
  }
  const auto e = pksk::begins_with("é");
  CHECK(sks_of(b, t, "P", &e) == std::vector<std::string>{"é", "éa"});
}

TEST_CASE("why operands are bound as TEXT: SQLite orders all TEXT before any BLOB", "[sqlite]") {
  pksk::sqlite::Backend b{":memory:"};
  sqlite3* db = b.native_handle();
  // A BLOB operand against a TEXT column is not a byte comparison at all...
  CHECK(RawDb::query_text(db, "SELECT 'zzz' < x'00', 'a' >= x'61'") == "1|0");
  // ...whereas TEXT against TEXT is memcmp, even for bytes that are not UTF-8.
  CHECK(RawDb::query_text(db,
                          "SELECT 'z' < CAST(x'c3' AS TEXT), CAST(x'ff' AS TEXT) > "
                          "CAST(x'c3bf' AS TEXT), 'B' < 'a'") == "1|1|1");
}

TEST_CASE("limit, exclusive start and the last evaluated key", "[sqlite]") {
  pksk::sqlite::Backend b{":memory:"};
  auto t = b.open_table(pksk::backend::TableSpec{"t"});
  for (const char* k : {"a", "b", "c", "d", "e"}) put(b, t, "P", k);

  Page p = query(b, t, {.pk = "P", .limit = 2});
  CHECK(p.sks == std::vector<std::string>{"a", "b"});
  CHECK(p.outcome.last_evaluated_sk == "b");

  p = query(b, t, {.pk = "P", .forward = false, .limit = 2});
  CHECK(p.sks == std::vector<std::string>{"e", "d"});
  CHECK(p.outcome.last_evaluated_sk == "d");

  // Stopped at the limit on the very last item: DynamoDB still returns the cursor.
  p = query(b, t, {.pk = "P", .limit = 5});
  CHECK(p.sks.size() == 5);
  CHECK(p.outcome.last_evaluated_sk == "e");
  p = query(b, t, {.pk = "P", .limit = 2, .exclusive_start_sk = "c"});
  CHECK(p.sks == std::vector<std::string>{"d", "e"});
  CHECK(p.outcome.last_evaluated_sk == "e");
  p = query(b, t, {.pk = "P", .limit = 2, .exclusive_start_sk = "e"});
  CHECK(p.sks.empty());
  CHECK_FALSE(p.outcome.last_evaluated_sk);

  p = query(b, t, {.pk = "P", .limit = 6});
  CHECK(p.sks.size() == 5);
  CHECK_FALSE(p.outcome.last_evaluated_sk);

  // A caller that stops at the limit anyway asks for no key there; the byte budget still
  // reports one, since that caller must go on.
  p = query(b, t, {.pk = "P", .limit = 2, .last_key_at_limit = false});
  CHECK(p.sks == std::vector<std::string>{"a", "b"});
  CHECK_FALSE(p.outcome.last_evaluated_sk);
  p = query(b, t, {.pk = "P", .limit = 4, .page_bytes = 1, .last_key_at_limit = false});
  CHECK(p.sks == std::vector<std::string>{"a"});
  CHECK(p.outcome.last_evaluated_sk == "a");
  p = query(b, t, {.pk = "P"});
  CHECK(p.sks.size() == 5);
  CHECK_FALSE(p.outcome.last_evaluated_sk);

  // The exclusive start is exclusive in both directions and need not be an existing key.
  p = query(b, t, {.pk = "P", .exclusive_start_sk = "b"});
  CHECK(p.sks == std::vector<std::string>{"c", "d", "e"});
  p = query(b, t, {.pk = "P", .forward = false, .exclusive_start_sk = "b"});
  CHECK(p.sks == std::vector<std::string>{"a"});
  p = query(b, t, {.pk = "P", .exclusive_start_sk = "bb"});
  CHECK(p.sks == std::vector<std::string>{"c", "d", "e"});
  // ...and combines with a condition.
  const auto c = pksk::between("b", "d");
  p = query(b, t, {.pk = "P", .sk = &c, .forward = false, .exclusive_start_sk = "d"});
  CHECK(p.sks == std::vector<std::string>{"c", "b"});

  p = query(b, t, {.pk = "nobody", .limit = 1});
  CHECK(p.sks.empty());
  CHECK_FALSE(p.outcome.last_evaluated_sk);
}

TEST_CASE("paging visits every item exactly once", "[sqlite]") {
  pksk::sqlite::Backend b{":memory:"};
  auto t = b.open_table(pksk::backend::TableSpec{"t"});
  std::vector<std::string> keys = unicode_keys;
  for (int i = 0; i < 40; ++i) keys.push_back(support::numbered("#ORDER#", 1000 + i * 7));
  for (const auto& k : keys) put(b, t, "P", k, "T", std::string(k.size() * 3 + 10, 'x'));
  put(b, t, "P2", "a");

  const auto order = pksk::begins_with("#ORDER#");
  const auto range = pksk::between("#ORDER#1100", "\xc3\xa9");
  for (const KeyCondition* cond : {static_cast<const KeyCondition*>(nullptr), &order, &range}) {
    for (bool forward : {true, false}) {
      const auto expected = reference(keys, cond != nullptr ? *cond : KeyCondition{}, forward);
      for (std::size_t limit : {0, 1, 2, 3, 7, 63, 64, 65, 1000}) {
        for (std::size_t page_bytes : {std::size_t{0}, std::size_t{1}, std::size_t{60},
                                       std::size_t{200}, pksk::backend::max_page_bytes}) {
          INFO("limit " << limit << " page_bytes " << page_bytes << " forward " << forward);
          std::size_t pages = 0;
          backend::RawQuery q{
              .pk = "P", .sk = cond, .forward = forward, .limit = limit, .page_bytes = page_bytes};
          CHECK(all_pages(b, t, q, &pages) == expected);
          if (limit == 0 && page_bytes == pksk::backend::max_page_bytes) CHECK(pages == 1);
          if (limit == 1 || page_bytes <= 1) CHECK(pages == expected.size() + 1);
        }
      }
    }
  }
}

TEST_CASE("a page ends where the stored sizes reach the budget, whatever the bodies' lengths",
          "[sqlite]") {
  // A page reads the size column only once an upper bound of the sizes (twice the body's
  // length, plus the keys) reaches its budget: sizes anywhere below that bound must end pages
  // exactly where the sizes themselves say, on every path (before, at and after the switch).
  pksk::sqlite::Backend b{":memory:"};
  auto t = b.open_table(pksk::backend::TableSpec{"t"});
  std::mt19937 random(7);
  std::vector<std::pair<std::string, std::size_t>> items;  // sk, stored size
  for (int i = 0; i < 60; ++i) {
    const std::string sk = support::numbered("k", 100 + i);
    const std::string body(std::uniform_int_distribution<std::size_t>(0, 300)(random), 'x');
    const std::size_t size = test_size("P", sk, "T", body) +
                             std::uniform_int_distribution<std::size_t>(0, body.size())(random);
    b.put(t, pksk::backend::PutRequest{backend::ItemView{"P", sk, "T", body, size}});
    items.emplace_back(sk, size);
  }
  const auto range = pksk::between("k110", "k149");
  for (const KeyCondition* cond : {static_cast<const KeyCondition*>(nullptr), &range}) {
    for (bool forward : {true, false}) {
      std::vector<std::pair<std::string, std::size_t>> expected;
      for (const auto& item : items) {
        if (cond == nullptr || (item.first >= "k110" && item.first <= "k149")) {
          expected.push_back(item);
        }
      }
      if (!forward) std::reverse(expected.begin(), expected.end());
      for (std::size_t page_bytes = 1; page_bytes < 4000; page_bytes += 37) {
        for (std::size_t limit : {std::size_t{0}, std::size_t{5}}) {
          INFO("page_bytes " << page_bytes << " limit " << limit << " forward " << forward);
          std::size_t next = 0;
          std::optional<std::string> start;
          while (next < expected.size()) {
            backend::RawQuery q{.pk = "P",
                                .sk = cond,
                                .forward = forward,
                                .limit = limit,
                                .page_bytes = page_bytes};
            q.exclusive_start_sk = start ? std::optional<std::string_view>(*start) : std::nullopt;
            const Page page = query(b, t, q);
            std::vector<std::string> want;
            std::size_t bytes = 0;
            bool ended = false;  // by the budget or the limit, which leave a cursor
            while (next < expected.size() && !ended) {
              want.push_back(expected[next].first);
              bytes += expected[next++].second;
              ended = bytes >= page_bytes || (limit != 0 && want.size() == limit);
            }
            REQUIRE(page.sks == want);
            REQUIRE(page.outcome.last_evaluated_sk.has_value() == ended);
            if (!ended) break;
            CHECK(*page.outcome.last_evaluated_sk == want.back());
            start = *page.outcome.last_evaluated_sk;
          }
        }
      }
    }
  }
}

TEST_CASE("a page ends at the byte budget, the crossing item included", "[sqlite]") {
  pksk::sqlite::Backend b{":memory:"};
  auto t = b.open_table(pksk::backend::TableSpec{"t", {.type_attribute = "kind"}});
  // Each item: "pk"+"P" + "sk"+1 byte + "kind"+"T" + 93 bytes of body = 104 bytes.
  for (const char* k : {"a", "b", "c", "d"}) put(b, t, "P", k, "T", std::string(93, 'x'));
  const std::string body(93, 'x');
  CHECK(test_size("P", "a", "T", body) == 104);

  Page p = query(b, t, {.pk = "P", .page_bytes = 208});  // reached exactly after two
  CHECK(p.sks == std::vector<std::string>{"a", "b"});
  CHECK(p.outcome.last_evaluated_sk == "b");
  p = query(b, t, {.pk = "P", .page_bytes = 209});  // the third crosses it and is included
  CHECK(p.sks == std::vector<std::string>{"a", "b", "c"});
  CHECK(p.outcome.last_evaluated_sk == "c");
  p = query(b, t, {.pk = "P", .page_bytes = 416});  // ends on the last item: cursor anyway
  CHECK(p.sks.size() == 4);
  CHECK(p.outcome.last_evaluated_sk == "d");
  p = query(b, t, {.pk = "P", .page_bytes = 417});
  CHECK(p.sks.size() == 4);
  CHECK_FALSE(p.outcome.last_evaluated_sk);
  p = query(b, t, {.pk = "P", .limit = 1, .page_bytes = 417});  // whichever comes first
  CHECK(p.sks.size() == 1);
}

TEST_CASE("a partition over 1 MiB is read in 1 MiB pages", "[sqlite]") {
  TempDir dir;
  pksk::sqlite::Backend b{dir.file("big.db")};
  auto t = b.open_table(pksk::backend::TableSpec{"big"});
  const std::string body(300 * 1000, 'x');
  for (const char* k : {"1", "2", "3", "4", "5", "6", "7"}) put(b, t, "P", k, "T", body);

  // 3 items are 900 KB, under 1 MiB; the 4th crosses it and ends the page.
  Page p = query(b, t, {.pk = "P"});
  CHECK(p.sks == std::vector<std::string>{"1", "2", "3", "4"});
  CHECK(p.outcome.last_evaluated_sk == "4");
  p = query(b, t, {.pk = "P", .exclusive_start_sk = "4"});
  CHECK(p.sks == std::vector<std::string>{"5", "6", "7"});
  CHECK_FALSE(p.outcome.last_evaluated_sk);
  p = query(b, t, {.pk = "P", .forward = false});
  CHECK(p.sks == std::vector<std::string>{"7", "6", "5", "4"});
  std::size_t pages = 0;
  CHECK(all_pages(b, t, {.pk = "P"}, &pages).size() == 7);
  CHECK(pages == 2);
}

TEST_CASE("the schema: WITHOUT ROWID, reopened, read by others, WAL", "[sqlite]") {
  TempDir dir;
  const std::string path = dir.file("shop.db");
  {
    pksk::sqlite::Backend b{path};
    auto t = b.open_table(pksk::backend::TableSpec{"shop"});
    put(b, t, "CUSTOMER#1", "A", "Customer", R"({"name":"Ada"})");
    CHECK(b.open_table(pksk::backend::TableSpec{"shop"}) == t);  // one state per table
  }
  RawDb raw(path);
  CHECK(raw.text("SELECT sql FROM sqlite_master WHERE name = 'shop'") ==
        "CREATE TABLE \"shop\" (\"pk\" TEXT NOT NULL, \"sk\" TEXT NOT NULL, \"type\" TEXT NOT "
        "NULL, body TEXT NOT NULL, size INTEGER NOT NULL, PRIMARY KEY (\"pk\", \"sk\")) WITHOUT "
        "ROWID");
  CHECK(raw.text("SELECT value FROM pksk_meta WHERE name = 'format_version'") == "1");
  CHECK(raw.text("PRAGMA journal_mode") == "wal");
  CHECK(raw.text("SELECT pk, sk, type, body FROM shop") ==
        "CUSTOMER#1|A|Customer|{\"name\":\"Ada\"}");

  pksk::sqlite::Backend b{path};
  auto t = b.open_table(pksk::backend::TableSpec{"shop"});
  CHECK(get(b, t, "CUSTOMER#1", "A") == Row{"A", "Customer", R"({"name":"Ada"})"});
  put(b, t, "CUSTOMER#1", "B", "Customer", "{}");
  // Another connection sees the commit at once (WAL: readers do not block the writer).
  CHECK(raw.text("SELECT count(*) FROM shop") == "2");
  CHECK(RawDb::query_text(b.native_handle(), "PRAGMA synchronous") == "1");  // NORMAL
  // SQLite's names are case-insensitive, and so is the lookup of an existing table.
  auto upper = b.open_table(pksk::backend::TableSpec{"SHOP"});
  CHECK(get(b, upper, "CUSTOMER#1", "A"));

  pksk::sqlite::Backend mem{":memory:"};
  CHECK(RawDb::query_text(mem.native_handle(), "PRAGMA journal_mode") == "memory");
}

TEST_CASE("a query runs on the primary key index without sorting", "[sqlite]") {
  using namespace pksk::sqlite::detail;
  pksk::sqlite::Backend b{":memory:"};
  b.open_table(pksk::backend::TableSpec{"t"});
  for (std::size_t shape = 0; shape < range_shape_count; ++shape) {
    for (bool forward : {true, false}) {
      for (bool start : {true, false}) {
        const std::string sql = query_sql(pksk::backend::TableSpec{"t"},
                                          static_cast<RangeShape>(shape), forward, start);
        const std::string plan = RawDb::query_text(b.native_handle(), "EXPLAIN QUERY PLAN " + sql);
        INFO(sql << "\n" << plan);
        CHECK(contains(plan, "USING PRIMARY KEY"));
        CHECK_FALSE(contains(plan, "TEMP B-TREE"));
        CHECK_FALSE(contains(plan, "SCAN"));
      }
    }
  }
}

TEST_CASE("statements are prepared once and reused", "[sqlite]") {
  pksk::sqlite::Backend b{":memory:"};
  auto count = [&] {
    int n = 0;
    for (sqlite3_stmt* s = sqlite3_next_stmt(b.native_handle(), nullptr); s != nullptr;
         s = sqlite3_next_stmt(b.native_handle(), s)) {
      ++n;
    }
    return n;
  };
  auto t = b.open_table(pksk::backend::TableSpec{"t"});
  CHECK(count() == 4);  // put, update's rewrite of a stored row, get, erase
  for (int i = 0; i < 10; ++i) {
    put(b, t, "P", std::to_string(i));
    get(b, t, "P", std::to_string(i));
  }
  b.erase(t, pksk::backend::EraseRequest{{"P", "0"}});
  CHECK(count() == 4);
  const auto c = pksk::begins_with("1");
  for (int i = 0; i < 5; ++i) query(b, t, {.pk = "P", .sk = &c});
  CHECK(count() == 5);  // one query shape, prepared on first use
  query(b, t, {.pk = "P", .sk = &c, .forward = false});
  query(b, t, {.pk = "P", .sk = &c, .exclusive_start_sk = "1"});
  CHECK(count() == 7);
  b.open_table(pksk::backend::TableSpec{"t"});
  CHECK(count() == 7);
}

TEST_CASE("an existing table with another schema is refused, never rewritten", "[sqlite]") {
  TempDir dir;
  const std::string path = dir.file("other.db");
  RawDb raw(path);
  raw.exec(
      "CREATE TABLE rowid_table (pk TEXT NOT NULL, sk TEXT NOT NULL, type TEXT NOT NULL, "
      "body TEXT NOT NULL, PRIMARY KEY (pk, sk))");
  raw.exec(
      "CREATE TABLE nocase (pk TEXT NOT NULL, sk TEXT NOT NULL COLLATE NOCASE, type TEXT NOT "
      "NULL, body TEXT NOT NULL, PRIMARY KEY (pk, sk)) WITHOUT ROWID");
  raw.exec(
      "CREATE TABLE swapped (pk TEXT NOT NULL, sk TEXT NOT NULL, type TEXT NOT NULL, "
      "body TEXT NOT NULL, PRIMARY KEY (sk, pk)) WITHOUT ROWID");
  raw.exec(
      "CREATE TABLE untyped (pk NOT NULL, sk TEXT NOT NULL, type TEXT, body TEXT NOT NULL, "
      "extra TEXT, PRIMARY KEY (pk, sk)) WITHOUT ROWID");
  raw.exec("CREATE VIEW a_view AS SELECT 1");
  raw.exec("INSERT INTO rowid_table VALUES ('p', 's', 't', '{}')");
  const std::string before = raw.text("SELECT sql FROM sqlite_master ORDER BY name");

  pksk::sqlite::Backend b{path};
  std::string msg = error_of([&] { b.open_table(pksk::backend::TableSpec{"rowid_table"}); });
  CHECK(contains(msg, "pksk table 'rowid_table' (sqlite): "));
  CHECK(contains(msg, "not a WITHOUT ROWID table"));
  msg = error_of([&] { b.open_table(pksk::backend::TableSpec{"nocase"}); });
  CHECK(contains(msg, "key column 'sk' has collation NOCASE"));
  msg = error_of([&] { b.open_table(pksk::backend::TableSpec{"swapped"}); });
  CHECK(contains(msg, "column 'pk' is not primary key column 1 (it is column 2)"));
  msg = error_of([&] { b.open_table(pksk::backend::TableSpec{"untyped"}); });
  CHECK(contains(msg, "column 'pk' has type '', expected TEXT"));
  CHECK(contains(msg, "column 'type' is not NOT NULL"));
  CHECK(contains(msg, "unexpected column 'extra'"));
  msg = error_of([&] {
    b.open_table(pksk::backend::TableSpec{"rowid_table", {.type_attribute = "kind"}});
  });
  CHECK(contains(msg, "missing column 'kind'"));
  CHECK(contains(msg, "unexpected column 'type'"));
  msg = error_of([&] { b.open_table(pksk::backend::TableSpec{"a_view"}); });
  CHECK(contains(msg, "it is a view"));
  // A pksk table opened with another discriminator name is a mismatch too.
  b.open_table(pksk::backend::TableSpec{"good"});
  msg = error_of([&] {
    b.open_table(pksk::backend::TableSpec{"good", {.type_attribute = "kind"}});
  });
  CHECK(contains(msg, "missing column 'kind'"));

  // Only what pksk created itself is new: the table "good" and the file's metadata.
  CHECK(raw.text("SELECT sql FROM sqlite_master WHERE name NOT IN ('good', 'pksk_meta') ORDER BY "
                 "name") == before);
  CHECK(raw.text("SELECT count(*) FROM rowid_table") == "1");
}

TEST_CASE("invalid table and attribute names", "[sqlite]") {
  pksk::sqlite::Backend b{":memory:"};
  for (std::string name : {"", "a-b", "a b", "a\"b", "x;DROP", "é", "sqlite_master", "SQLITE_x"}) {
    INFO(name);
    const std::string msg = error_of([&] { b.open_table(pksk::backend::TableSpec{name}); });
    CHECK(contains(msg,
                   "pksk table " + pksk::detail::quoted(name) + " (sqlite): invalid table name"));
  }
  for (std::string attr : {"pk", "SK", "body", "a b"}) {
    INFO(attr);
    const std::string msg = error_of([&] {
      b.open_table(pksk::backend::TableSpec{"t", {.type_attribute = attr}});
    });
    CHECK(contains(msg, "invalid type attribute name"));
  }
  CHECK_NOTHROW(b.open_table(pksk::backend::TableSpec{"Shop_2024", {.type_attribute = "_type"}}));
  // No type attribute: the type column is pksk_no_type, which no key attribute may then be.
  CHECK_NOTHROW(b.open_table(pksk::backend::TableSpec{"untyped", {.type_attribute = ""}}));
  CHECK(
      contains(error_of([&] {
                 b.open_table(pksk::backend::TableSpec{
                     "untyped2", {.pk_attribute = "pksk_no_type", .type_attribute = ""}});
               }),
               "a key attribute is named 'pksk_no_type', the type column of a table without a type "
               "attribute"));
  // No sort key: the sort-key column is pksk_no_sort_key, which no attribute may then be.
  CHECK_NOTHROW(b.open_table(pksk::backend::TableSpec{"unsorted", {.sk_attribute = ""}}));
  CHECK(contains(error_of([&] {
                   b.open_table(pksk::backend::TableSpec{
                       "unsorted2", {.pk_attribute = "pksk_no_sort_key", .sk_attribute = ""}});
                 }),
                 "an attribute is named 'pksk_no_sort_key', the sort-key column of a table "
                 "without a sort key"));
  CHECK(contains(error_of([&] {
                   b.open_table(pksk::backend::TableSpec{
                       "unsorted3",
                       {.sk_attribute = "", .indexes = {{"g", "pksk_no_sort_key", "x"}}}});
                 }),
                 "index 'g' names a key attribute 'pksk_no_sort_key'"));
  // A key with a sort key on a table without one: DynamoDB refuses it, as the raw API does.
  const auto unsorted = b.open_table(pksk::backend::TableSpec{"unsorted", {.sk_attribute = ""}});
  CHECK_THROWS_AS(put(b, unsorted, "P", "A"), pksk::ValidationError);
  CHECK(contains(error_of([&] { put(b, unsorted, "P", "A"); }),
                 "the table has no sort key, and the key has one (pk 'P', sk 'A')"));
  CHECK_NOTHROW(put(b, unsorted, "P", ""));
  CHECK_THROWS_AS(get(b, {}, "P", "A"), pksk::Error);  // an empty handle
}

TEST_CASE("rows another program inserts need not name an untyped or unsorted table's hidden column",
          "[sqlite]") {
  TempDir dir;
  const std::string path = dir.file("hidden.db");
  pksk::sqlite::Backend b{path};
  const auto untyped = b.open_table(pksk::backend::TableSpec{"untyped", {.type_attribute = ""}});
  const auto unsorted = b.open_table(pksk::backend::TableSpec{"unsorted", {.sk_attribute = ""}});
  RawDb raw{path};
  // pksk_no_type and pksk_no_sort_key hold '' in every row: a row that leaves them out has it.
  raw.exec("INSERT INTO untyped (pk, sk, body, size) VALUES ('P', 'A', '{\"n\":1}', 10)");
  raw.exec("INSERT INTO unsorted (pk, type, body, size) VALUES ('Q', 'T', '{\"n\":2}', 10)");
  CHECK(get(b, untyped, "P", "A") == Row{"A", "", R"({"n":1})"});
  CHECK(get(b, unsorted, "Q", "") == Row{"", "T", R"({"n":2})"});
  CHECK(raw.text("SELECT pksk_no_type FROM untyped") == "");
  CHECK(raw.text("SELECT pk, length(pksk_no_sort_key) FROM unsorted") == "Q|0");
}

TEST_CASE("an untyped or unsorted table created before its hidden column had a default opens",
          "[sqlite]") {
  TempDir dir;
  const std::string path = dir.file("old.db");
  { pksk::sqlite::Backend made{path}; }  // the file, its pksk_meta, no pksk table yet
  {
    // The tables as pksk created them before: the hidden columns NOT NULL without a default.
    RawDb raw{path};
    raw.exec(
        "CREATE TABLE \"untyped\" (\"pk\" TEXT NOT NULL, \"sk\" TEXT NOT NULL, "
        "\"pksk_no_type\" TEXT NOT NULL, body TEXT NOT NULL, size INTEGER NOT NULL, "
        "PRIMARY KEY (\"pk\", \"sk\")) WITHOUT ROWID");
    raw.exec(
        "CREATE TABLE \"unsorted\" (\"pk\" TEXT NOT NULL, \"pksk_no_sort_key\" TEXT NOT NULL, "
        "\"type\" TEXT NOT NULL, body TEXT NOT NULL, size INTEGER NOT NULL, "
        "PRIMARY KEY (\"pk\", \"pksk_no_sort_key\")) WITHOUT ROWID");
    raw.exec("INSERT INTO untyped VALUES ('P', 'A', '', '{}', 10)");
  }
  pksk::sqlite::Backend b{path};
  const auto untyped = b.open_table(pksk::backend::TableSpec{"untyped", {.type_attribute = ""}});
  const auto unsorted = b.open_table(pksk::backend::TableSpec{"unsorted", {.sk_attribute = ""}});
  CHECK(get(b, untyped, "P", "A") == Row{"A", "", "{}"});
  put(b, untyped, "P", "B", "");
  put(b, unsorted, "Q", "");
  CHECK(sks_of(b, untyped, "P") == std::vector<std::string>{"A", "B"});
  CHECK(get(b, unsorted, "Q", "") == Row{"", "T", "{}"});
  b.erase(untyped, pksk::backend::EraseRequest{{"P", "A"}});
  CHECK(sks_of(b, untyped, "P") == std::vector<std::string>{"B"});
}

TEST_CASE("a read-only database fails writes with SQLite's message", "[sqlite]") {
  TempDir dir;
  const std::string path = dir.file("ro.db");
  {
    pksk::sqlite::Backend b{path};
    put(b, b.open_table(pksk::backend::TableSpec{"shop"}), "P", "A");
  }
  pksk::sqlite::Backend ro{path, {.read_only = true}};
  auto t = ro.open_table(pksk::backend::TableSpec{"shop"});
  CHECK(get(ro, t, "P", "A"));
  CHECK(sks_of(ro, t, "P") == std::vector<std::string>{"A"});
  std::string msg = backend_error_of([&] { put(ro, t, "P", "B"); });
  CHECK(contains(msg, "pksk table 'shop' (sqlite), put of pk 'P', sk 'B': failed: "));
  CHECK(contains(msg, "attempt to write a readonly database"));
  msg = backend_error_of([&] { ro.erase(t, pksk::backend::EraseRequest{{"P", "A"}}); });
  CHECK(contains(msg, "readonly"));
  Failure failure = backend_failure_of([&] { put(ro, t, "P", "B"); });
  CHECK(failure.code == pksk::errc::access_denied);
  CHECK_FALSE(failure.retryable);
  CHECK(failure.native.origin == pksk::NativeError::Origin::sqlite);
  CHECK(failure.native.code == SQLITE_READONLY);
  CHECK(failure.native.type == sqlite3_errstr(SQLITE_READONLY));
  msg = backend_error_of([&] { ro.open_table(pksk::backend::TableSpec{"absent"}); });
  CHECK(contains(msg, "pksk table 'absent' (sqlite): "));
  CHECK(contains(msg, "read-only"));
  CHECK(backend_failure_of([&] { ro.open_table(pksk::backend::TableSpec{"absent"}); }).code ==
        pksk::errc::missing_table);
  CHECK(get(ro, t, "P", "A"));

  // Read-only on a path with no file: nothing to open, and nothing is created.
  msg = backend_error_of([&] { pksk::sqlite::Backend{dir.file("none.db"), {.read_only = true}}; });
  CHECK(contains(msg, "none.db"));
  CHECK(contains(msg, "unable to open database file"));
  failure = backend_failure_of([&] {
    pksk::sqlite::Backend{dir.file("none.db"), {.read_only = true}};
  });
  CHECK(failure.code == pksk::errc::io_error);
  CHECK((failure.native.code & 0xff) == SQLITE_CANTOPEN);
  CHECK_FALSE(fs::exists(dir.file("none.db")));

  // A file without write permission. Root ignores mode bits, so under root the write is made
  // by a forked child that has dropped to nobody (65534) first: the check runs either way.
  const std::string locked_path = dir.file("perm.db");
  {
    pksk::sqlite::Backend b{locked_path};
    b.open_table(pksk::backend::TableSpec{"shop"});
  }
  ::chmod(locked_path.c_str(), 0444);
  const auto write_error = [&] {
    pksk::sqlite::Backend b{locked_path};
    auto pt = b.open_table(pksk::backend::TableSpec{"shop"});
    return backend_error_of([&] { put(b, pt, "P", "A"); });
  };
  if (geteuid() != 0) {
    CHECK(contains(write_error(), "readonly"));
  } else {
    // nobody must reach the file: the directory is searchable and the file readable by all.
    REQUIRE(::chmod(fs::path(locked_path).parent_path().c_str(), 0755) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      // 2: could not drop privileges; 0: the write failed as read-only; 1: anything else.
      if (::setgid(65534) != 0 || ::setuid(65534) != 0 || ::geteuid() == 0) ::_exit(2);
      try {
        const std::string error = write_error();
        if (contains(error, "readonly")) ::_exit(0);
        std::fprintf(stderr, "as nobody, the write failed with: %s\n", error.c_str());
      } catch (const std::exception& e) {
        // Here the open itself writes (its WAL files, in a directory nobody cannot write to):
        // the same refusal, met one step earlier.
        if (contains(e.what(), "readonly")) ::_exit(0);
        std::fprintf(stderr, "as nobody, opening the file threw: %s\n", e.what());
      }
      ::_exit(1);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    INFO("child exit status " << status << " (2: setuid(65534) failed)");
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
}

TEST_CASE("a locked database fails the write and writes nothing", "[sqlite]") {
  TempDir dir;
  const std::string path = dir.file("locked.db");
  pksk::sqlite::Backend b{path, {.busy_timeout = std::chrono::milliseconds(50)}};
  auto t = b.open_table(pksk::backend::TableSpec{"shop"});
  put(b, t, "P", "A");

  RawDb other(path);
  other.exec("BEGIN EXCLUSIVE");
  const std::string msg = backend_error_of([&] { put(b, t, "P", "B", "T", "{\"x\":1}"); });
  CHECK(contains(msg, "database is locked"));
  CHECK(contains(msg, "pksk table 'shop' (sqlite), "));
  CHECK(contains(msg, "put"));
  CHECK(contains(backend_error_of([&] {
                   b.erase(t, pksk::backend::EraseRequest{{"P", "A"}});
                 }),
                 "locked"));
  // Another writer holding the lock is SQLite's throttling: retryable, as DynamoDB's is.
  const Failure failure = backend_failure_of([&] { put(b, t, "P", "B"); });
  CHECK(failure.code == pksk::errc::throttled);
  CHECK(failure.retryable);
  CHECK((failure.native.code & 0xff) == SQLITE_BUSY);
  // WAL: reads go on while another connection holds the write lock.
  CHECK(sks_of(b, t, "P") == std::vector<std::string>{"A"});
  other.exec("COMMIT");

  CHECK_FALSE(get(b, t, "P", "B"));
  CHECK(sks_of(b, t, "P") == std::vector<std::string>{"A"});
  put(b, t, "P", "B");  // and the backend carries on once the lock is gone
  CHECK(get(b, t, "P", "B"));
}

TEST_CASE("a visitor that throws leaves the backend usable", "[sqlite]") {
  pksk::sqlite::Backend b{":memory:"};
  auto t = b.open_table(pksk::backend::TableSpec{"t"});
  for (const char* k : {"a", "b", "c"}) put(b, t, "P", k);

  int seen = 0;
  CHECK_THROWS_AS(b.query(t, {.pk = "P"},
                          [&](const backend::ItemView&) {
                            if (++seen == 2) throw std::runtime_error("visitor");
                          }),
                  std::runtime_error);
  CHECK(seen == 2);
  CHECK(sks_of(b, t, "P") == std::vector<std::string>{"a", "b", "c"});
  CHECK_THROWS_AS(b.get(t, pksk::backend::ItemKey{"P", "a"},
                        [](const backend::ItemView&) { throw std::runtime_error("v"); }),
                  std::runtime_error);
  CHECK(get(b, t, "P", "a"));
  put(b, t, "P", "d");  // no statement is left mid-step holding the table
  CHECK(b.erase(t, pksk::backend::EraseRequest{{"P", "d"}}));

  // Re-entering from a visitor: another statement is fine, the same one is refused.
  std::vector<std::string> nested;
  query(b, t, {.pk = "P", .limit = 1});
  b.query(t, {.pk = "P"}, [&](const backend::ItemView& item) {
    b.get(t, pksk::backend::ItemKey{"P", item.sort_key()},
          [&](const backend::ItemView& inner) { nested.emplace_back(inner.sort_key()); });
  });
  CHECK(nested == std::vector<std::string>{"a", "b", "c"});
  const std::string msg = error_of([&] {
    b.query(t, {.pk = "P"}, [&](const backend::ItemView&) { query(b, t, {.pk = "P"}); });
  });
  CHECK(contains(msg, "re-entered"));
  CHECK(sks_of(b, t, "P").size() == 3);
}

TEST_CASE("a throwing visitor's exception leaves scan, batch_get and update as it was thrown",
          "[sqlite]") {
  pksk::sqlite::Backend b{":memory:"};
  auto t = b.open_table(pksk::backend::TableSpec{"t"});
  for (const char* k : {"a", "b"}) put(b, t, "P", k);
  struct Thrown {
    int code;
  };
  const auto throw_7 = [](const backend::ItemView&) { throw Thrown{7}; };
  const auto code_of = [](auto&& call) {
    try {
      call();
    } catch (const Thrown& thrown) {
      return thrown.code;
    }
    return 0;
  };
  CHECK(code_of([&] { b.scan(t, {}, throw_7); }) == 7);
  const std::vector<pksk::backend::ItemKey> keys{{"P", "a"}, {"P", "b"}};
  std::vector<std::size_t> unprocessed;
  CHECK(code_of([&] {
          b.batch_get(
              t, keys, [](std::size_t i, const backend::ItemView&) { throw Thrown{int(i) + 1}; },
              unprocessed);
        }) == 1);
  const std::vector<pksk::backend::UpdateAction> actions{
      {pksk::backend::UpdateAction::Kind::set, pksk::backend::AttributePath{{{"n", 0, false}}},
       pksk::AttributeValue::from_number("1")}};
  // The update is not committed: its visitor saw the item before the commit.
  CHECK(code_of([&] { b.update(t, {{"P", "a"}, "T", actions, nullptr}, throw_7); }) == 7);
  CHECK(get(b, t, "P", "a")->body == "{}");
  CHECK(sks_of(b, t, "P") == std::vector<std::string>{"a", "b"});
}

TEST_CASE("backend::ItemVisitor refers to its callable and copies as a pointer pair", "[sqlite]") {
  static_assert(std::is_trivially_copyable_v<pksk::backend::ItemVisitor>);
  static_assert(sizeof(pksk::backend::ItemVisitor) == 2 * sizeof(void*));
  static_assert(!std::is_default_constructible_v<pksk::backend::ItemVisitor>);
  static_assert(!std::is_convertible_v<int, pksk::backend::ItemVisitor>);
  int rows = 0;
  auto count = [&](const backend::ItemView&) { ++rows; };
  const pksk::backend::ItemVisitor visit = count;
  const pksk::backend::ItemVisitor copy = visit;  // the same callable, not a reference to `visit`
  const backend::ItemView item{"P", "a", "T", "{}", 0};
  visit(item);
  copy(item);
  CHECK(rows == 2);
  // A mutable callable is called as the lvalue it is; a result is handed back.
  int calls = 0;
  auto counter = [calls]() mutable { return ++calls; };
  const pksk::detail::FunctionRef<int()> next = counter;
  CHECK(next() == 1);
  CHECK(next() == 2);
  CHECK(calls == 0);
}

TEST_CASE("a moved backend keeps its tables and handles", "[sqlite]") {
  pksk::sqlite::Backend a{":memory:"};
  auto t = a.open_table(pksk::backend::TableSpec{"t"});
  put(a, t, "P", "A");
  pksk::sqlite::Backend b = std::move(a);
  CHECK(get(b, t, "P", "A"));
  CHECK_THROWS_AS(a.open_table(pksk::backend::TableSpec{"t"}),
                  pksk::Error);  // NOLINT: use after move, on purpose

  pksk::sqlite::Backend c{":memory:"};
  auto other = c.open_table(pksk::backend::TableSpec{"t"});
  CHECK_THROWS_AS(get(b, other, "P", "A"), pksk::Error);  // a handle of another backend
  c = std::move(b);
  CHECK(get(c, t, "P", "A"));
}

TEST_CASE("a file that is not a database fails at construction with SQLite's message", "[sqlite]") {
  TempDir dir;
  const std::string path = dir.file("junk.db");
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    REQUIRE(f != nullptr);
    const std::string junk(4096, 'j');
    std::fwrite(junk.data(), 1, junk.size(), f);
    std::fclose(f);
  }
  const std::string msg = backend_error_of([&] { pksk::sqlite::Backend{path}; });
  CHECK(contains(msg, "junk.db"));
  CHECK(contains(msg, "file is not a database"));
  const Failure failure = backend_failure_of([&] { pksk::sqlite::Backend{path}; });
  CHECK(failure.code == pksk::errc::corrupt);
  CHECK_FALSE(failure.retryable);
  CHECK(failure.native.code == SQLITE_NOTADB);
}

TEST_CASE("a query's page is stepped through first, then handed over", "[sqlite]") {
  pksk::sqlite::Backend b{":memory:"};
  auto t = b.open_table(pksk::backend::TableSpec{"t"});
  auto u = b.open_table(pksk::backend::TableSpec{"u"});
  for (const char* k : {"a", "b", "c"})
    put(b, t, "P", k, "T", std::string("{\"k\":\"") + k + "\"}");
  for (const char* k : {"x", "y"}) put(b, u, "Q", k, "U", std::string("{\"k\":\"") + k + "\"}");

  // The rows come out of the thread's row arena: padded for the parser, keys included.
  std::vector<std::string> seen;
  b.query(t, {.pk = "P"}, [&](const backend::ItemView& item) {
    CHECK(pksk::detail::RowArena::thread_arena().holds(item.body));
    CHECK(item.partition_key() == "P");
    seen.push_back(std::string(item.sort_key()) + "/" + std::string(item.type) + "/" +
                   std::string(item.body));
    // A read of another table from the visitor finds the arena in use: its rows are handed over
    // as it steps, and the outer page's rows are left as they were.
    std::vector<std::string> inner;
    b.query(u, {.pk = "Q"}, [&](const backend::ItemView& row) {
      CHECK_FALSE(pksk::detail::RowArena::thread_arena().holds(row.body));
      inner.emplace_back(row.sort_key());
    });
    CHECK(inner == std::vector<std::string>{"x", "y"});
  });
  CHECK(seen ==
        std::vector<std::string>{"a/T/{\"k\":\"a\"}", "b/T/{\"k\":\"b\"}", "c/T/{\"k\":\"c\"}"});

  // The arena is the thread's again once the read returns.
  const pksk::detail::RowArena::Lease lease;
  CHECK(lease.get() == &pksk::detail::RowArena::thread_arena());
  const pksk::detail::RowArena::Lease nested;
  CHECK(nested.get() == nullptr);
}

TEST_CASE(
    "RowArena: each text followed by a space and simdjson's padding, views stable once filled",
    "[sqlite]") {
  pksk::detail::RowArena arena;
  const std::string body(100'000, 'b');  // past the first capacity: the arena grows and moves
  arena.add("Order", "ORDER#1", "{}", 10);
  arena.add("Customer", "A", body, 20);
  arena.add("", "", "", 0);
  REQUIRE(arena.size() == 3);
  const auto first = arena[0];
  CHECK(first.type == "Order");
  CHECK(first.sort_key == "ORDER#1");
  CHECK(first.body == "{}");
  CHECK(first.size == 10);
  CHECK(first.body.data()[first.body.size()] == ' ');
  CHECK(arena[1].body == body);
  CHECK(arena[1].body.data()[body.size()] == ' ');
  CHECK(arena[2].body.empty());
  for (std::size_t i = 0; i < 3; ++i) CHECK(arena.holds(arena[i].body));
  const std::string elsewhere = "{}";
  CHECK_FALSE(arena.holds(elsewhere));
  // A view over the last text's space reaches past the texts: not one of them.
  CHECK_FALSE(arena.holds({arena[2].body.data(), 1}));
  arena.clear();
  CHECK(arena.size() == 0);
  CHECK_FALSE(arena.holds(first.body));
}
