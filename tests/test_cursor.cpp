// SPDX-License-Identifier: BSL-1.0
// Cursors name the table, the index and the partition they belong to, and a table with a
// cursor_key signs them (HMAC-SHA256) and refuses any it did not sign.

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include <pksk/detail/hmac_sha256.hpp>  // the MAC the cursors are signed with, tested alone
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

namespace {

struct Note {
  std::string owner;
  int n{};
  std::string text;
};

std::string hex(const pksk::detail::Sha256Digest& d) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char b : d) {
    out += digits[b >> 4];
    out += digits[b & 0xF];
  }
  return out;
}

}  // namespace

template <>
struct pksk::Entity<Note> {
  static constexpr std::string_view type = "Note";
  static constexpr std::string_view pk = "OWNER#{owner}";
  static constexpr std::string_view sk = "NOTE#{n}";
};

TEST_CASE("SHA-256 and HMAC-SHA256 match FIPS 180-4 and RFC 4231") {
  using pksk::detail::hmac_sha256;
  using pksk::detail::sha256;
  CHECK(hex(sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hex(sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  const std::string million(1'000'000, 'a');
  CHECK(hex(sha256(million)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // RFC 4231 test cases 1, 2, 6 (a key longer than the block) and 7.
  CHECK(hex(hmac_sha256(std::string(20, '\x0b'), "Hi There")) ==
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  CHECK(hex(hmac_sha256("Jefe", "what do ya want for nothing?")) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  CHECK(hex(hmac_sha256(std::string(131, '\xaa'),
                        "Test Using Larger Than Block-Size Key - Hash Key First")) ==
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  CHECK(hex(hmac_sha256(std::string(131, '\xaa'),
                        "This is a test using a larger than block-size key and a larger than "
                        "block-size data. The key needs to be hashed before being used by the "
                        "HMAC algorithm.")) ==
        "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

TEST_CASE("a cursor names its table, index and partition; used elsewhere it is refused") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table notes{backend, "notes"};
  pksk::Table other{backend, "other"};
  for (int i = 0; i < 5; ++i) {
    notes.put(Note{.owner = "ada", .n = i});
    other.put(Note{.owner = "ada", .n = i});
    notes.put(Note{.owner = "bob", .n = i});
  }
  const pksk::PartitionKey ada = pksk::partition(Note{.owner = "ada"});
  const auto page = notes.query_page<Note>(ada, {.limit = 2});
  REQUIRE(page.next);
  CHECK(page.next->table == "notes");
  CHECK(page.next->index.empty());
  CHECK(page.next->pk == ada.value);
  const pksk::Cursor cursor = pksk::Cursor::parse(page.next->to_string());
  CHECK(cursor == *page.next);
  CHECK(notes.query_page<Note>(ada, {.limit = 2, .start = cursor}).items.size() == 2);

  CHECK_THROWS_WITH(other.query_page<Note>(ada, {.start = cursor}),
                    Catch::Contains("belongs to table 'notes'"));
  CHECK_THROWS_AS(other.query_page<Note>(ada, {.start = cursor}), pksk::ValidationError);
  CHECK_THROWS_AS(notes.query_page<Note>(pksk::partition(Note{.owner = "bob"}), {.start = cursor}),
                  pksk::ValidationError);
  pksk::Cursor of_index = cursor;
  of_index.index = "gsi1";
  CHECK_THROWS_WITH(notes.query_page<Note>(ada, {.start = of_index}),
                    Catch::Contains("belongs to index 'gsi1'"));
}

TEST_CASE("with a cursor_key, cursors are signed and only this key's signature is accepted") {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table notes{backend, "notes", {.cursor_key = "s3cret"}};
  pksk::Table unsigned_notes{backend, "notes"};
  pksk::Table other_key{backend, "notes", {.cursor_key = "another"}};
  for (int i = 0; i < 6; ++i) notes.put(Note{.owner = "ada", .n = i, .text = "t"});
  const pksk::PartitionKey ada = pksk::partition(Note{.owner = "ada"});

  // Paging to the end with signed cursors sees every item once.
  std::vector<int> seen;
  std::optional<pksk::Cursor> next;
  int pages_read = 0;
  do {
    REQUIRE(++pages_read <= 1000);  // a cursor that never ends
    const auto page = notes.query_page<Note>(ada, {.limit = 4, .start = next});
    for (const Note& n : page.items) seen.push_back(n.n);
    next = page.next;
    if (next) CHECK(next->signature.size() == 32);
  } while (next);
  CHECK(seen == std::vector<int>{0, 1, 2, 3, 4, 5});

  const auto first = notes.query_page<Note>(ada, {.limit = 2});
  REQUIRE(first.next);
  const pksk::Cursor good = pksk::Cursor::parse(first.next->to_string());
  CHECK(notes.query_page<Note>(ada, {.limit = 2, .start = good}).items.front().n == 2);

  // An edited sort key with a valid checksum (re-serialised) but the old signature.
  pksk::Cursor steered = good;
  steered.sk = "NOTE#4";
  CHECK_THROWS_WITH(
      notes.query_page<Note>(ada, {.start = pksk::Cursor::parse(steered.to_string())}),
      Catch::Contains("signature does not verify"));
  CHECK_THROWS_AS(notes.query_page<Note>(ada, {.start = steered}), pksk::ValidationError);
  // The same cursor without a signature, or signed with another key.
  pksk::Cursor bare = good;
  bare.signature.clear();
  CHECK_THROWS_WITH(notes.query_page<Note>(ada, {.start = bare}), Catch::Contains("not signed"));
  const auto from_other = other_key.query_page<Note>(ada, {.limit = 2});
  REQUIRE(from_other.next);
  CHECK_THROWS_AS(notes.query_page<Note>(ada, {.start = from_other.next}), pksk::ValidationError);
  // A table without a key takes the signed cursor as any other (the signature is unchecked).
  CHECK(unsigned_notes.query_page<Note>(ada, {.limit = 2, .start = good}).items.size() == 2);
  // Every single-byte edit of the signed token is refused, by checksum or by signature.
  const std::string token = first.next->to_string();
  for (std::size_t i = 0; i < token.size(); ++i) {
    std::string edited = token;
    edited[i] = edited[i] == 'A' ? 'B' : 'A';
    INFO("position " << i);
    CHECK_THROWS_AS(notes.query_page<Note>(ada, {.start = pksk::Cursor::parse(edited)}),
                    pksk::ValidationError);
  }
}
