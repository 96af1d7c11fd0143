// SPDX-License-Identifier: BSL-1.0
// Blob members (codec/blob_member.hpp) kept in a DirectoryBlobStore beside a SQLite table: the
// round trip through every read, the threshold, the write order (no object outlives a failed
// item write, a replaced item's object is removed), the sweep of orphans, and the errors of a
// missing or corrupt object or a missing store.
#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

namespace blob_test {

struct Message {
  std::string thread;
  std::string at;
  std::string text;
  std::optional<std::vector<std::byte>> attachment;
  friend bool operator==(const Message&, const Message&) = default;
};

struct Note {
  std::string id;
  std::string body;    // a blob member
  std::string margin;  // inline, however large
};

struct Thread {
  std::string thread;
  std::string title;
  friend bool operator==(const Thread&, const Thread&) = default;
};

}  // namespace blob_test

template <>
struct pksk::Entity<blob_test::Message> {
  static constexpr std::string_view type = "Message";
  static constexpr std::string_view pk = "THREAD#{thread}";
  static constexpr std::string_view sk = "MSG#{at}";
  static constexpr std::array stored_in_blob_store = {"text", "attachment"};
  static constexpr std::size_t blob_threshold = 100;
};
template <>
struct pksk::Entity<blob_test::Note> {
  static constexpr std::string_view type = "Note";
  static constexpr std::string_view pk = "NOTE#{id}";
  static constexpr std::string_view sk = "NOTE";
  static constexpr std::array stored_in_blob_store = {"body"};
};
template <>
struct pksk::Entity<blob_test::Thread> {
  static constexpr std::string_view type = "Thread";
  static constexpr std::string_view pk = "THREAD#{thread}";
  static constexpr std::string_view sk = "THREAD";
};

namespace {

using blob_test::Message;
using blob_test::Thread;

std::filesystem::path fresh_directory(std::string_view name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("pksk-test-blob-" + std::string(name) + "-" + pksk::ulid());
  std::filesystem::remove_all(dir);
  return dir;
}

std::vector<std::byte> bytes(std::size_t n, unsigned char seed) {
  std::vector<std::byte> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = std::byte(static_cast<unsigned char>(seed + i * 7));
  return out;
}

struct Fixture {
  std::filesystem::path dir = fresh_directory("store");
  std::shared_ptr<pksk::DirectoryBlobStore> store = std::make_shared<pksk::DirectoryBlobStore>(dir);
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table<pksk::sqlite::Backend> table{backend, "chat", [&] {
                                             pksk::TableOptions options;
                                             options.blob_store = store;
                                             return options;
                                           }()};
  ~Fixture() { std::filesystem::remove_all(dir); }

  std::vector<pksk::BlobInfo> objects() { return store->list(""); }
  std::string stored_body(const Message& m) {
    std::string body;
    backend.get(backend.open_table(pksk::backend::TableSpec{"chat"}),
                pksk::backend::ItemKey{"THREAD#" + m.thread, "MSG#" + m.at},
                [&](const pksk::backend::ItemView& row) { body = std::string(row.body); });
    return body;
  }
};

Message big_message() {
  return Message{"t1", "001", std::string(500, 'x'), bytes(1000, 3)};
}

}  // namespace

TEST_CASE("blob: a large member is an object, a small one inline, and reads fetch it") {
  Fixture f;
  const Message big = big_message();
  const Message small{"t1", "002", "hello", bytes(10, 1)};
  f.table.put(big);
  f.table.put(small);
  f.table.put(Thread{"t1", "First"});

  const auto objects = f.objects();
  REQUIRE(objects.size() == 2);  // text and attachment of `big`
  for (const auto& o : objects) {
    CHECK(o.key.starts_with("chat/"));
    const auto head = f.store->head(o.key);
    REQUIRE(head);
    CHECK(head->metadata.table == "chat");
    CHECK(head->metadata.pk == "THREAD#t1");
    CHECK(head->metadata.sk == "MSG#001");
  }
  CHECK(f.table.get(Message{"t1", "001", {}, {}}) == big);
  CHECK(f.table.get(Message{"t1", "002", {}, {}}) == small);
  CHECK(f.table.query<Message>(pksk::PartitionKey{"THREAD#t1"}) == std::vector{big, small});
  CHECK(f.table.scan<Message>() == std::vector{big, small});
  const auto collection =
      f.table.query<pksk::ItemCollection<Thread, Message>>(pksk::PartitionKey{"THREAD#t1"});
  REQUIRE(collection.size() == 3);
  std::vector<Message> in_collection;
  for (const auto& item : collection) {
    if (const Message* m = std::get_if<Message>(&item)) in_collection.push_back(*m);
  }
  CHECK(in_collection == std::vector{big, small});
  CHECK(f.table.get_all(std::vector{Message{"t1", "001", {}, {}}}) == std::vector{big});
}

TEST_CASE("blob: the item keeps the object's key, size and SHA-256") {
  Fixture f;
  const Message big = big_message();
  f.table.put(big);
  const std::string body = f.stored_body(big);
  CHECK(body.find("\"blob\":\"chat/") != std::string::npos);
  CHECK(body.find("\"size\":500") != std::string::npos);
  CHECK(body.find(pksk::detail::sha256_hex(big.text)) != std::string::npos);
  CHECK(body.find(std::string(500, 'x')) == std::string::npos);
}

TEST_CASE("blob: replacing an item removes the objects it no longer refers to") {
  Fixture f;
  Message m = big_message();
  f.table.put(m);
  const auto before = f.objects();
  REQUIRE(before.size() == 2);
  m.text = std::string(300, 'y');
  m.attachment = std::nullopt;
  f.table.put(m);
  const auto after = f.objects();
  REQUIRE(after.size() == 1);
  CHECK(after[0].key != before[0].key);
  CHECK(after[0].key != before[1].key);
  CHECK(f.table.get(m) == m);
  m.text = "short";
  f.table.put(m);
  CHECK(f.objects().empty());
  CHECK(f.table.get(m) == m);
}

TEST_CASE("blob: an update returns the item with its objects read") {
  Fixture f;
  Message m = big_message();
  f.table.put(m);
  m.text = "edited";
  CHECK(f.table.update(Message{"t1", "001", {}, {}}, pksk::set(&Message::text, m.text)) == m);
  // The text's old object is left to the sweep (an update reads no old item); the
  // attachment's stays referenced.
  CHECK(pksk::maintenance(f.table).sweep_blobs(std::chrono::seconds(-5)) == 1);
  CHECK(f.table.get(m) == m);
}

TEST_CASE("blob: erasing an item removes its objects") {
  Fixture f;
  const Message m = big_message();
  f.table.put(m);
  REQUIRE(f.objects().size() == 2);
  CHECK_THROWS_AS(f.table.erase(m, pksk::when(pksk::attr(&Message::thread) == "other")),
                  pksk::ConditionFailed);
  CHECK(f.objects().size() == 2);  // a refused erase keeps them
  const std::optional<Message> old = f.table.erase(m, pksk::return_old);
  CHECK(old == m);  // read before its objects went
  CHECK(f.objects().empty());
  f.table.put(m);
  CHECK(f.table.erase(m));
  CHECK(f.objects().empty());
}

TEST_CASE("blob: an item write that fails leaves no object") {
  Fixture f;
  Message m = big_message();
  f.table.put(m);
  const auto before = f.objects();
  m.text = std::string(700, 'z');
  CHECK_THROWS_AS(f.table.put(m, pksk::if_absent), pksk::ConditionFailed);
  const auto after = f.objects();
  REQUIRE(after.size() == before.size());
  for (std::size_t i = 0; i < after.size(); ++i) CHECK(after[i].key == before[i].key);
  CHECK(f.table.get(m)->text == std::string(500, 'x'));
}

TEST_CASE("blob: an item refused after its objects were stored leaves no object") {
  Fixture f;
  // The body goes to the store first; the item, its margin past 400 KB, is then refused.
  const blob_test::Note note{"n1", std::string(100'000, 'b'), std::string(500'000, 'm')};
  CHECK_THROWS_AS(f.table.put(note), pksk::ItemTooLarge);
  CHECK(f.objects().empty());
  CHECK_FALSE(f.table.get(blob_test::Note{"n1", {}, {}}));
}

TEST_CASE("blob: the sweep removes orphans past the grace period, and nothing else") {
  Fixture f;
  const Message m = big_message();
  f.table.put(m);
  // A put that crashed between its object and its item: an object naming an item that does
  // not refer to it.
  const std::string orphan = pksk::detail::blob_object_key("chat", "THREAD#t1", "MSG#001", "text");
  f.store->put(orphan, "lost", pksk::BlobMetadata{"chat", "THREAD#t1", "MSG#001", "text"});
  const std::string lonely = pksk::detail::blob_object_key("chat", "THREAD#t9", "MSG#9", "text");
  f.store->put(lonely, "lost", pksk::BlobMetadata{"chat", "THREAD#t9", "MSG#9", "text"});
  REQUIRE(f.objects().size() == 4);
  CHECK(pksk::maintenance(f.table).sweep_blobs(std::chrono::hours(1)) ==
        0);  // too young: a put may be in flight
  CHECK(pksk::maintenance(f.table).sweep_blobs(std::chrono::seconds(0)) == 2);
  const auto left = f.objects();
  REQUIRE(left.size() == 2);
  for (const auto& o : left) {
    CHECK(o.key != orphan);
    CHECK(o.key != lonely);
  }
  CHECK(f.table.get(m) == m);
}

TEST_CASE("blob: a missing or corrupt object is a BlobError naming the member and the item") {
  Fixture f;
  const Message m = big_message();
  f.table.put(m);
  std::string text_key;
  for (const auto& o : f.objects()) {
    if (f.store->head(o.key)->metadata.member == "text") text_key = o.key;
  }
  REQUIRE(!text_key.empty());
  {
    std::ofstream out(f.dir / text_key, std::ios::binary | std::ios::trunc);
    out << std::string(500, 'X');
  }
  try {
    (void)f.table.get(m);
    FAIL("no error");
  } catch (const pksk::BlobError& e) {
    const std::string what = e.what();
    CHECK(what.find("corrupt") != std::string::npos);
    CHECK(what.find("text") != std::string::npos);
    CHECK(what.find("pk 'THREAD#t1', sk 'MSG#001'") != std::string::npos);
  }
  f.store->remove(text_key);
  try {
    (void)f.table.query<Message>(pksk::PartitionKey{"THREAD#t1"});
    FAIL("no error");
  } catch (const pksk::BlobError& e) {
    const std::string what = e.what();
    CHECK(what.find("missing") != std::string::npos);
    CHECK(what.find(text_key) != std::string::npos);
    CHECK(what.find("pk 'THREAD#t1', sk 'MSG#001'") != std::string::npos);
  }
}

TEST_CASE("blob: a table without a blob store refuses the entity") {
  Fixture f;
  f.table.put(big_message());
  f.table.put(Thread{"t1", "First"});
  pksk::Table<pksk::sqlite::Backend> bare{f.backend, "chat"};
  CHECK_THROWS_AS(bare.put(big_message()), pksk::ValidationError);
  CHECK_THROWS_AS(bare.get(big_message()), pksk::ValidationError);
  CHECK_THROWS_AS(bare.query<Message>(pksk::PartitionKey{"THREAD#t1"}), pksk::ValidationError);
  CHECK(bare.get(Thread{"t1", {}})->title == "First");  // other entities are unaffected
  CHECK_THROWS_AS(pksk::maintenance(bare).sweep_blobs(), pksk::ValidationError);
}

TEST_CASE("blob: a write that cannot store objects refuses a value over the threshold") {
  Fixture f;
  f.table.put(Message{"t1", "003", "x", std::nullopt});
  CHECK_THROWS_AS(f.table.update(Message{"t1", "003", {}, {}},
                                 pksk::set(&Message::text, std::string(500, 'u'))),
                  pksk::ValidationError);
  CHECK(f.table.update(Message{"t1", "003", {}, {}}, pksk::set(&Message::text, std::string("ok")))
            .text == "ok");
  CHECK_THROWS_AS(f.table.upsert(big_message()), pksk::ValidationError);
  CHECK(f.objects().empty());
  CHECK_THROWS_AS(f.table.put_all(std::vector{big_message()}), pksk::ValidationError);
  CHECK(f.objects().empty());
  const Message small{"t1", "002", "hello", std::nullopt};
  f.table.put_all(std::vector{small});
  CHECK(f.table.get(small) == small);
}
