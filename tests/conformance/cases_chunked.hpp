// SPDX-License-Identifier: BSL-1.0
// The conformance cases on chunked items (Entity<T>::chunked), included by cases.hpp: a reply
// of 1 MB of bytes no compression shrinks, written as chunk items and a head, read back whole
// by every read; a version replaced or removed takes its chunks with it; a put that fails
// between its chunks and its head leaves the item as it was, and maintenance(table).sweep_chunks
// removes what it left; a writer that loses the race on the head gets ConditionFailed.

#include <algorithm>
#include <atomic>
#include <functional>
#include <random>
#include <thread>

#include "chunked.hpp"

namespace conformance {

using BigForum = pksk::ItemCollection<BigThread, BigReply>;

// `n` bytes no compression shrinks (a fixed seed: the same in every run).
inline std::vector<std::byte> noise(std::size_t n, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<std::byte> out(n);
  for (std::byte& b : out) b = static_cast<std::byte>(random() & 0xff);
  return out;
}

inline BigReply big_reply(std::string at, std::size_t bytes, unsigned seed) {
  return BigReply{
      .thread = "t1", .at = std::move(at), .author = "ada", .message = noise(bytes, seed)};
}

// How many chunk items the table holds: a scan that keeps every item raw.
template <class Table>
std::size_t chunk_items(Table& table) {
  const auto all = table.template scan<pksk::ItemCollection<BigThread>>();
  std::size_t n = 0;
  for (const pksk::RawItem& item : all.unknown()) n += item.type == "pksk:chunk" ? 1 : 0;
  return n;
}

// Throws at one stage of a chunked put, as a process dying there would stop it.
struct InjectedCrash {};
inline pksk::detail::ChunkWriteStage crash_at{};
inline void crash_hook(pksk::detail::ChunkWriteStage stage) {
  if (stage == crash_at) throw InjectedCrash{};
}
struct CrashAt {
  explicit CrashAt(pksk::detail::ChunkWriteStage stage) {
    crash_at = stage;
    pksk::detail::chunk_write_hook = &crash_hook;
  }
  ~CrashAt() { pksk::detail::chunk_write_hook = nullptr; }
  CrashAt(const CrashAt&) = delete;
  CrashAt& operator=(const CrashAt&) = delete;
};

}  // namespace conformance

TEST_CASE("a chunked reply of 1 MB of incompressible bytes round-trips through every read",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  const BigReply small = big_reply("2024-01-01", 1000, 1);
  const BigReply big = big_reply("2024-01-02", 1024 * 1024, 2);
  const BigReply bigger = big_reply("2024-01-03", 900 * 1024, 3);
  table.put(BigThread{.id = "t1", .subject = "large items"});
  table.put(small);
  table.put(big);
  table.put(bigger);
  // 1 MB compressed is still 1 MB, and its body text holds it in base64: four chunks of
  // 350,000 bytes; 900 KB four too; the small reply none.
  CHECK(chunk_items(table) == 8);

  CHECK(table.get(BigReply{.thread = "t1", .at = "2024-01-02"}) == big);
  CHECK(table.get(BigReply{.thread = "t1", .at = "2024-01-01"}) == small);
  CHECK_FALSE(table.get(BigReply{.thread = "t1", .at = "2024-01-09"}));
  CHECK(table.get_all(std::vector<BigReply>{{.thread = "t1", .at = "2024-01-03"},
                                            {.thread = "t1", .at = "2024-01-09"},
                                            {.thread = "t1", .at = "2024-01-02"}}) ==
        std::vector<BigReply>{bigger, big});

  const pksk::PartitionKey pk{"BIG#t1"};
  CHECK(table.query<BigReply>(pk) == std::vector<BigReply>{small, big, bigger});
  CHECK(table.query<BigReply>(pk, {.forward = false}) == std::vector<BigReply>{bigger, big, small});
  const BigForum forum = table.query<BigForum>(pk);
  CHECK(forum.first<BigThread>()->subject == "large items");
  CHECK(forum.count<BigReply>() == 3);
  CHECK(forum.unknown().empty());
  auto replies = forum.items<BigReply>();
  CHECK(std::vector<BigReply>(replies.begin(), replies.end()) ==
        std::vector<BigReply>{small, big, bigger});

  // Paging: one item a page, the chunked ones whole on their page.
  auto page = table.query_page<BigReply>(pk, {.limit = 1});
  std::vector<BigReply> paged = page.items;
  while (page.next) {
    page = table.query_page<BigReply>(pk, {.limit = 1, .start = *page.next});
    paged.insert(paged.end(), page.items.begin(), page.items.end());
  }
  CHECK(paged == std::vector<BigReply>{small, big, bigger});

  // Chunk items are no entity's: a typed scan sees the replies only.
  CHECK(table.scan<BigReply>() == std::vector<BigReply>{small, big, bigger});
  CHECK(table.scan<BigForum>().size() == 4);
  CHECK(table.count<BigReply>(pk) == 3);

  // A filter or a projection would apply to the head, not the item: refused.
  CHECK_THROWS_AS(
      table.query<BigReply>(pk, {.filter = pksk::attr(&BigReply::author) == std::string("ada")}),
      pksk::ValidationError);
  CHECK_THROWS_AS(table.query<BigReply>(pk, {.select = pksk::members(&BigReply::author)}),
                  pksk::ValidationError);
  CHECK_THROWS_AS(
      table.scan<BigReply>({.filter = pksk::attr(&BigReply::author) == std::string("ada")}),
      pksk::ValidationError);
  CHECK_THROWS_AS(
      table.count<BigReply>(pk, {.filter = pksk::attr(&BigReply::author) == std::string("ada")}),
      pksk::ValidationError);

  // A collection's filter on the type, the sort key or its other members is applied as to any
  // collection: a chunked reply's head has the reply's type and key, and no thread attribute.
  const BigForum threads = table.query<BigForum>(
      pk, {.filter = pksk::attr(&BigThread::subject) == std::string("large items")});
  CHECK(threads.count<BigThread>() == 1);
  CHECK(threads.count<BigReply>() == 0);
  CHECK(table.query<BigForum>(pk, {.filter = pksk::attr(&BigThread::subject) == std::string("x")})
            .size() == 0);
  const BigForum only_replies = table.query<BigForum>(pk, {.filter = pksk::type_is<BigReply>()});
  CHECK(only_replies.count<BigThread>() == 0);
  auto whole = only_replies.items<BigReply>();
  CHECK(std::vector<BigReply>(whole.begin(), whole.end()) ==
        std::vector<BigReply>{small, big, bigger});
  // Not (a thread whose subject is "x"): the thread, and every reply reassembled, since the
  // heads are no threads. (A typed `!` stays within its entity: no reply.)
  const BigForum not_x = table.query<BigForum>(
      pk, {.filter = !pksk::Filter(pksk::attr(&BigThread::subject) == std::string("x"))});
  CHECK(not_x.count<BigThread>() == 1);
  auto not_x_replies = not_x.items<BigReply>();
  CHECK(std::vector<BigReply>(not_x_replies.begin(), not_x_replies.end()) ==
        std::vector<BigReply>{small, big, bigger});
  const BigForum typed_not =
      table.query<BigForum>(pk, {.filter = !(pksk::attr(&BigThread::subject) == std::string("x"))});
  CHECK(typed_not.count<BigThread>() == 1);
  CHECK(typed_not.count<BigReply>() == 0);
  CHECK(table.query<BigForum>(pk, {.filter = pksk::begins_with(pksk::sort_key, "REPLY#2024-01-0")})
            .count<BigReply>() == 3);
  CHECK(table.scan<BigForum>({.filter = pksk::type_is<BigReply>()}).count<BigReply>() == 3);
  CHECK(table.count<BigForum>(pk, {.filter = pksk::type_is<BigReply>()}) == 3);
  CHECK(table.count<BigForum>(
            pk, {.filter = pksk::attr(&BigThread::subject) == std::string("large items")}) == 1);
  // Paging: a limit counts the items evaluated (chunks included, beside no parent here), the
  // filter then drops the thread; the pages hold the replies whole, in order.
  std::vector<BigReply> filtered_pages;
  std::size_t pages = 0;
  auto filtered = table.query_page<BigForum>(pk, {.limit = 2, .filter = pksk::type_is<BigReply>()});
  for (;;) {
    ++pages;
    REQUIRE(pages <= 20);
    auto got = filtered.items.items<BigReply>();
    filtered_pages.insert(filtered_pages.end(), got.begin(), got.end());
    if (!filtered.next) break;
    filtered = table.query_page<BigForum>(
        pk, {.limit = 2, .start = *filtered.next, .filter = pksk::type_is<BigReply>()});
  }
  CHECK(filtered_pages == std::vector<BigReply>{small, big, bigger});
  // A filter on the chunked member's attributes would be applied to its heads: refused (with
  // typed options, a compile error).
  const pksk::QueryOptions by_author{.filter = pksk::type_is<BigThread>() ||
                                               pksk::attr(&BigReply::author) == std::string("ada")};
  CHECK_THROWS_WITH(table.query<BigForum>(pk, by_author),
                    Catch::Contains("member BigReply is chunked takes no filter on BigReply's "
                                    "attribute 'author'"));
  CHECK_THROWS_AS(table.scan<BigForum>(by_author), pksk::ValidationError);
  CHECK_THROWS_AS(table.count<BigForum>(pk, by_author), pksk::ValidationError);
  // A projection would drop the head's own attributes: still refused.
  CHECK_THROWS_AS(table.query<BigForum>(pk, {.select = pksk::members(&BigThread::subject)}),
                  pksk::ValidationError);
}

TEST_CASE("a chunked item replaced or removed takes its chunks with it", "[conformance]") {
  Store store;
  auto table = make_table(store);
  const BigReply v1 = big_reply("2024-01-01", 800 * 1024, 1);
  table.put(v1);
  CHECK(chunk_items(table) == 4);
  const BigReply v2 = big_reply("2024-01-01", 400 * 1024, 2);  // two chunks
  table.put(v2);
  CHECK(table.get(BigReply{.thread = "t1", .at = "2024-01-01"}) == v2);
  CHECK(chunk_items(table) == 2);
  const BigReply v3 = big_reply("2024-01-01", 100, 3);  // plain again
  table.put(v3);
  CHECK(table.get(BigReply{.thread = "t1", .at = "2024-01-01"}) == v3);
  CHECK(chunk_items(table) == 0);
  table.put(v1);
  CHECK(chunk_items(table) == 4);
  CHECK(table.erase(BigReply{.thread = "t1", .at = "2024-01-01"}));
  CHECK_FALSE(table.get(BigReply{.thread = "t1", .at = "2024-01-01"}));
  CHECK(chunk_items(table) == 0);
  CHECK_FALSE(table.erase(BigReply{.thread = "t1", .at = "2024-01-01"}));
}

TEST_CASE("chunks beside their parent stay out of its collection's reads", "[conformance]") {
  Store store;
  auto table = make_table(store);
  const NearReply near{
      .thread = "t1", .at = "2024-01-01", .message = conformance::noise(500'000, 4)};
  table.put(near);
  CHECK(table.get(NearReply{.thread = "t1", .at = "2024-01-01"}) == near);
  const pksk::PartitionKey pk{"NEAR#t1"};
  CHECK(table.query<NearReply>(pk) == std::vector<NearReply>{near});
  const auto all = table.query<pksk::ItemCollection<NearReply>>(pk);
  CHECK(all.size() == 1);
  CHECK(all.unknown().empty());
  CHECK(chunk_items(table) == 2);
  CHECK(table.erase(NearReply{.thread = "t1", .at = "2024-01-01"}));
  CHECK(chunk_items(table) == 0);
}

TEST_CASE("a chunked put that stops between its chunks and its head leaves the item as it was",
          "[conformance]") {
  using Stage = pksk::detail::ChunkWriteStage;
  Store store;
  auto table = make_table(store);
  const BigReply key{.thread = "t1", .at = "2024-01-01"};
  const BigReply v1 = big_reply("2024-01-01", 700 * 1024, 1);
  table.put(v1);
  {
    const CrashAt crash(Stage::chunks_written);
    CHECK_THROWS_AS(table.put(big_reply("2024-01-01", 1024 * 1024, 2)), InjectedCrash);
  }
  CHECK(table.get(key) == v1);
  CHECK(chunk_items(table) == 3 + 4);
  {
    const CrashAt crash(Stage::chunk_written);  // after the first batch of chunks
    CHECK_THROWS_AS(table.put(big_reply("2024-01-01", 500 * 1024, 3)), InjectedCrash);
  }
  CHECK(table.get(key) == v1);
  CHECK(chunk_items(table) == 3 + 4 + 2);
  // Chunks written moments ago may be a put's still in progress: kept.
  CHECK(pksk::maintenance(table).sweep_chunks() == 0);
  CHECK(pksk::maintenance(table).sweep_chunks(std::chrono::milliseconds(0)) == 6);
  CHECK(table.get(key) == v1);
  CHECK(chunk_items(table) == 3);

  // Stopped after its head: the new version is the item, the old chunks are left to sweep.
  const BigReply v4 = big_reply("2024-01-01", 450 * 1024, 4);
  {
    const CrashAt crash(Stage::head_written);
    CHECK_THROWS_AS(table.put(v4), InjectedCrash);
  }
  CHECK(table.get(key) == v4);
  CHECK(pksk::maintenance(table).sweep_chunks(std::chrono::milliseconds(0)) == 3);
  CHECK(table.get(key) == v4);
  CHECK(chunk_items(table) == 2);
}

namespace conformance {
// Puts `other` once, from inside the first chunked put's pause between chunks and head: a
// second writer that gets there first.
inline std::function<void()> racing_write;
inline void race_hook(pksk::detail::ChunkWriteStage stage) {
  if (stage != pksk::detail::ChunkWriteStage::chunks_written || !racing_write) return;
  const std::function<void()> write = std::move(racing_write);
  racing_write = nullptr;
  write();
}
}  // namespace conformance

TEST_CASE("a chunked put that loses the race for the head gets ConditionFailed", "[conformance]") {
  Store store;
  auto table = make_table(store);
  const BigReply key{.thread = "t1", .at = "2024-01-01"};
  table.put(big_reply("2024-01-01", 500 * 1024, 1));
  const BigReply winner = big_reply("2024-01-01", 600 * 1024, 2);
  const BigReply loser = big_reply("2024-01-01", 700 * 1024, 3);
  racing_write = [&] { table.put(winner); };
  pksk::detail::chunk_write_hook = &race_hook;
  CHECK_THROWS_AS(table.put(loser), pksk::ConditionFailed);
  pksk::detail::chunk_write_hook = nullptr;
  CHECK(table.get(key) == winner);
  CHECK(chunk_items(table) == 3);  // the winner's; the loser removed its own, the old are gone

  // A small item written meanwhile wins the same way.
  racing_write = [&] { table.put(big_reply("2024-01-01", 10, 4)); };
  pksk::detail::chunk_write_hook = &race_hook;
  CHECK_THROWS_AS(table.put(loser), pksk::ConditionFailed);
  pksk::detail::chunk_write_hook = nullptr;
  CHECK(table.get(key) == big_reply("2024-01-01", 10, 4));
  CHECK(chunk_items(table) == 0);
}

TEST_CASE("four readers never see a mixed version of a chunked item while a writer replaces it",
          "[conformance]") {
  Store store;
  auto table = make_table(store);
  // Version n: its author is n, its message n's bytes; sizes from two to four chunks.
  std::vector<BigReply> versions;
  for (unsigned n = 0; n < 7; ++n) {
    BigReply v = big_reply("2024-01-01", (450 + 120 * (n % 4)) * 1024, 10 + n);
    v.author = std::to_string(n);
    versions.push_back(std::move(v));
  }
  const BigReply key{.thread = "t1", .at = "2024-01-01"};
  table.put(versions[0]);
  std::atomic<bool> done{false};
  std::atomic<int> bad{0};
  std::atomic<int> reads{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 4; ++r) {
    readers.emplace_back([&, r] {
      std::size_t seen = 0;
      do {
        try {
          std::optional<BigReply> got;
          if (r % 2 == 0) {
            got = table.get(key);
          } else {
            std::vector<BigReply> all = table.query<BigReply>(pksk::PartitionKey{"BIG#t1"});
            if (all.size() == 1) got = std::move(all.front());
          }
          // Present, one whole version, never older than one this reader saw.
          const std::size_t n = got ? std::stoul(got->author) : 0;
          if (!got || n >= versions.size() || !(*got == versions[n]) || n < seen) ++bad;
          seen = std::max(seen, n);
          ++reads;
        } catch (const pksk::Error&) {
          ++bad;
        }
      } while (!done.load());
    });
  }
  for (std::size_t n = 1; n < versions.size(); ++n) table.put(versions[n]);
  done = true;
  for (std::thread& t : readers) t.join();
  CHECK(bad.load() == 0);
  CHECK(reads.load() >= 4);
  CHECK(table.get(key) == versions.back());
  CHECK(chunk_items(table) == 3);  // 690 KB in base64: the last version's chunks only
}
