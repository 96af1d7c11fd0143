// SPDX-License-Identifier: BSL-1.0
// The conformance cases on compressed members (Entity<T>::compressed), included by cases.hpp:
// a reply past 400 KB of text through every write and read, what is stored (a zstd frame as a
// binary attribute: B on DynamoDB), updates and projections of it, and stored bytes a read
// refuses, on both backends.

#include <zstd.h>

#include "compressed.hpp"

namespace conformance {

using Forum = pksk::ItemCollection<ForumThread, Reply>;

// A reply's stored item, raw: read as an item of no type a collection of threads knows.
template <class Table>
pksk::RawItem stored_reply(Table& table, std::string_view sk) {
  const auto raw =
      table.template query<pksk::ItemCollection<ForumThread>>(pksk::PartitionKey{"THREAD#t1"});
  for (const pksk::RawItem& item : raw.unknown()) {
    if (item.sk == sk) return item;
  }
  FAIL("no item with sort key " << sk);
  return {};
}

inline std::vector<std::byte> bytes_of_text(std::string_view text) {
  std::vector<std::byte> out(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) out[i] = static_cast<std::byte>(text[i]);
  return out;
}

inline std::string zstd_frame(std::string_view text) {
  std::string frame(ZSTD_compressBound(text.size()), '\0');
  frame.resize(ZSTD_compress(frame.data(), frame.size(), text.data(), text.size(), 1));
  return frame;
}

}  // namespace conformance

TEST_CASE("a compressed reply past 400 KB of text round-trips through every write and read",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  const Reply r1 = long_reply("2024-01-01");
  REQUIRE(r1.message.size() > pksk::max_item_bytes);
  table.put(ForumThread{.id = "t1", .subject = "large items"});
  table.put(r1);
  CHECK(table.get(Reply{.thread = "t1", .at = "2024-01-01"}) == r1);

  Reply r2 = long_reply("2024-01-02");
  r2.quote.reset();
  r2.attachment.clear();
  Reply r3 = long_reply("2024-01-03");
  r3.message[10] = '!';
  table.put_all(std::vector<Reply>{r2, r3});
  CHECK(table.get_all(std::vector<Reply>{{.thread = "t1", .at = "2024-01-02"},
                                         {.thread = "t1", .at = "2024-01-03"}}) ==
        std::vector<Reply>{r2, r3});

  const pksk::PartitionKey pk{"THREAD#t1"};
  CHECK(table.query<Reply>(pk) == std::vector<Reply>{r1, r2, r3});
  const Forum forum = table.query<Forum>(pk);
  CHECK(forum.first<ForumThread>()->subject == "large items");
  CHECK(forum.count<Reply>() == 3);
  std::vector<Reply> replies;
  for (const Reply& r : forum.items<Reply>()) replies.push_back(r);
  CHECK(replies == std::vector<Reply>{r1, r2, r3});
  CHECK(table.scan<Reply>().size() == 3);
  std::size_t seen = 0;
  for (const Reply& r : table.each<Reply>(pk, {.forward = false})) {
    CHECK(r.message.size() == 450'000);
    ++seen;
  }
  CHECK(seen == 3);

  Reply r4 = long_reply("2024-01-04");
  r4.message = "short";
  table.transact().put(r4).erase(Reply{.thread = "t1", .at = "2024-01-01"}).commit();
  CHECK(table.get(Reply{.thread = "t1", .at = "2024-01-04"}) == r4);
  CHECK_FALSE(table.get(Reply{.thread = "t1", .at = "2024-01-01"}));
}

TEST_CASE("a compressed member is stored as one zstd frame in a binary attribute",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  const Reply r = long_reply("2024-01-01");
  table.put(r);
  const pksk::RawItem raw = stored_reply(table, "REPLY#2024-01-01");
  // A zstd frame begins 28 B5 2F FD, in base64 "KLUv/": a B attribute on DynamoDB, the JSON
  // body's binary object ({"": base64}) on SQLite.
  const std::string binary =
      raw.format == pksk::BodyFormat::attribute_value ? R"({"B":"KLUv)" : R"({"":"KLUv)";
  CHECK(raw.json.find(R"("message":)" + binary) != std::string::npos);
  CHECK(raw.json.find(R"("attachment":)" + binary) != std::string::npos);
  CHECK(raw.json.find(R"("author":)") != std::string::npos);
  CHECK(raw.json.size() < 20'000);
  // The stored bytes are a frame any zstd reads.
  const StoredReply stored = pksk::decode_body<StoredReply>(raw);
  std::string out(r.message.size(), '\0');
  CHECK(ZSTD_decompress(out.data(), out.size(), stored.message.data(), stored.message.size()) ==
        r.message.size());
  CHECK(out == r.message);
}

TEST_CASE("an incompressible text past 400 KB is still too large", "[conformance]") {
  Store store;
  auto table = make_table(store);
  Reply r = long_reply("2024-01-01");
  r.attachment.resize(450'000);
  std::uint64_t x = 88172645463325252ull;  // xorshift: bytes zstd cannot shrink
  for (std::byte& b : r.attachment) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b = static_cast<std::byte>(x >> 32);
  }
  CHECK_THROWS_AS(table.put(r), pksk::ItemTooLarge);
  CHECK_FALSE(table.get(Reply{.thread = "t1", .at = "2024-01-01"}));
}

TEST_CASE("set on a compressed member compresses; a projection decompresses", "[conformance]") {
  Store store;
  auto table = make_table(store);
  table.put(Reply{.thread = "t1", .at = "a", .author = "ada", .message = "first"});
  const std::string text = long_reply_text(420'000);
  const Reply updated = table.update(
      Reply{.thread = "t1", .at = "a"}, pksk::set(&Reply::message, text),
      pksk::set(&Reply::quote, std::string("q")), pksk::set(&Reply::author, std::string("grace")));
  CHECK(updated.message == text);
  CHECK(updated.quote == "q");
  CHECK(updated.author == "grace");
  const Reply read = *table.get(Reply{.thread = "t1", .at = "a"});
  CHECK(read == updated);
  const pksk::RawItem raw = stored_reply(table, "REPLY#a");
  CHECK(raw.json.size() < 20'000);
  // if_not_exists leaves a present member alone and compresses into an absent one.
  const Reply kept =
      table.update(Reply{.thread = "t1", .at = "a"}, pksk::if_not_exists(&Reply::message, "x"),
                   pksk::remove(&Reply::quote));
  CHECK(kept.message == text);
  CHECK_FALSE(kept.quote);
  const Reply filled = table.update(Reply{.thread = "t1", .at = "a"},
                                    pksk::if_not_exists(&Reply::quote, std::string("again")));
  CHECK(filled.quote == "again");
  // In a transaction.
  table.transact()
      .update(Reply{.thread = "t1", .at = "a"}, pksk::set(&Reply::message, "tx"))
      .commit();
  CHECK(table.get(Reply{.thread = "t1", .at = "a"})->message == "tx");

  const auto slim = table.query<Reply>(pksk::PartitionKey{"THREAD#t1"},
                                       {.select = pksk::members(&Reply::message, &Reply::quote)});
  REQUIRE(slim.size() == 1);
  CHECK(slim[0].message == "tx");
  CHECK(slim[0].quote == "again");
  CHECK(slim[0].author.empty());
}

TEST_CASE("a renamed compressed member is stored under its name", "[conformance]") {
  Store store;
  auto table = make_table(store);
  const Post p{.id = "1", .body_text = long_reply_text(500'000), .views = 7};
  table.put(p);
  CHECK(table.get(Post{.id = "1"}) == p);
  const auto all = table.query<pksk::ItemCollection<PostIndex>>(pksk::PartitionKey{"POST#1"});
  REQUIRE(all.unknown().size() == 1);
  const pksk::RawItem& raw = all.unknown()[0];
  const std::string binary =
      raw.format == pksk::BodyFormat::attribute_value ? R"({"B":"KLUv)" : R"({"":"KLUv)";
  CHECK(raw.json.find(R"("Body":)" + binary) != std::string::npos);
  CHECK(raw.json.find("body_text") == std::string::npos);
  const Post updated = table.update(Post{.id = "1"}, pksk::set(&Post::body_text, "new"));
  CHECK(updated.body_text == "new");
  CHECK(table.get(Post{.id = "1"})->body_text == "new");
}

TEST_CASE("a compressed member whose stored bytes are no zstd frame is a DecodeError",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  const auto error_of = [&](std::string_view at) -> std::string {
    try {
      (void)table.get(Reply{.thread = "t1", .at = std::string(at)});
    } catch (const pksk::DecodeError& e) {
      return e.what();
    }
    return "decoded";
  };
  table.put(StoredReply{.thread = "t1", .at = "garbage", .message = bytes_of_text("not zstd")});
  CHECK_THAT(error_of("garbage"),
             Catch::Contains("THREAD#t1") && Catch::Contains("REPLY#garbage") &&
                 Catch::Contains("$.message") && Catch::Contains("not one zstd frame"));
  std::string frame = zstd_frame(long_reply_text(1000));
  frame.pop_back();
  table.put(StoredReply{.thread = "t1", .at = "cut", .message = bytes_of_text(frame)});
  CHECK_THAT(error_of("cut"), Catch::Contains("REPLY#cut") && Catch::Contains("$.message"));
  // Stored uncompressed, as text (by another program, or before the member was compressed).
  table.put(TextReply{.thread = "t1", .at = "text", .message = "plain"});
  CHECK_THAT(error_of("text"), Catch::Contains("REPLY#text") && Catch::Contains("$.message"));
  // A zip bomb: a few KB that would decompress past pksk::max_decompressed_bytes.
  table.put(StoredReply{
      .thread = "t1",
      .at = "bomb",
      .message = bytes_of_text(zstd_frame(std::string(pksk::max_decompressed_bytes + 1, 'z')))});
  CHECK_THAT(error_of("bomb"), Catch::Contains("REPLY#bomb") &&
                                   Catch::Contains("more than pksk::max_decompressed_bytes"));
  // keep_undecodable reads around them.
  table.put(Reply{.thread = "t1", .at = "good", .message = "fine"});
  const auto lenient =
      table.query<Forum>(pksk::PartitionKey{"THREAD#t1"}, {.keep_undecodable = true});
  CHECK(lenient.count<Reply>() == 1);
  CHECK(lenient.unknown().size() == 4);
}
