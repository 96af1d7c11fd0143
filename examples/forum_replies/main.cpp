// SPDX-License-Identifier: BSL-1.0
// Seed 002, "Best Practices for Items": DynamoDB's three answers to values past its 400 KB item
// limit, on one forum thread.
//
//  - A long reply is stored compressed (zstd, a binary attribute): 450,000 characters of
//    forum text fit in one item of a few kilobytes.
//  - A reply too large even compressed is broken into chunk items, each under its own
//    partition key, with a head under the reply's key naming their version and count; it is
//    read back whole, and replacing it never mixes versions.
//  - An attachment is kept in a blob store (here a directory; on DynamoDB, S3), its object's
//    metadata naming the item, the item keeping the object's name, size and SHA-256.
//
// One query of the thread's partition reads the thread, its replies and its attachment back
// as typed items, whatever the way each one is stored.

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Thread {
  std::string forum;
  std::string subject;
  std::string author;
};

struct Reply {
  std::string forum;
  std::string subject;
  std::string at;  // ISO 8601, so replies sort by time
  std::string author;
  std::string message;
};

struct Attachment {
  std::string forum;
  std::string subject;
  std::string name;
  std::string content_type;
  std::vector<std::byte> data;
};

template <>
struct pksk::Entity<Thread> {
  static constexpr std::string_view type = "Thread";
  static constexpr std::string_view pk = "THREAD#{forum}#{subject}";
  static constexpr std::string_view sk = "THREAD";
};

template <>
struct pksk::Entity<Reply> {
  static constexpr std::string_view type = "Reply";
  static constexpr std::string_view pk = "THREAD#{forum}#{subject}";
  static constexpr std::string_view sk = "REPLY#{at}";
  static constexpr std::array compressed = {"message"};  // stored zstd-compressed, as binary
  static constexpr bool chunked = true;  // past 400 KB even so: chunk items, read back whole
};

template <>
struct pksk::Entity<Attachment> {
  static constexpr std::string_view type = "Attachment";
  static constexpr std::string_view pk = "THREAD#{forum}#{subject}";
  static constexpr std::string_view sk = "ATTACHMENT#{name}";
  static constexpr std::array stored_in_blob_store = {"data"};  // past 64 KiB: an object
};

using ThreadPage = pksk::ItemCollection<Thread, Reply, Attachment>;

namespace {

// Forum text: sentences drawn from a few, as long replies are (they compress well).
std::string long_text(std::size_t size) {
  static constexpr std::array sentences = {
      "DynamoDB limits an item to 400 KB, names and values together. ",
      "Compressing a long value before storing it keeps it in one item. ",
      "A value too large even then can be split across several items. ",
      "Or it can be kept in Amazon S3, with the object's name in the item. "};
  std::string text;
  std::mt19937 random(7);
  while (text.size() < size) text += sentences[random() % sentences.size()];
  text.resize(size);
  return text;
}

// Text that does not compress: random letters, about 4.7 bits of every 8.
std::string random_letters(std::size_t size, unsigned seed) {
  std::mt19937 random(seed);
  std::string text(size, ' ');
  for (char& c : text) c = static_cast<char>('a' + random() % 26);
  return text;
}

std::size_t items_of_type(const pksk::TableStats& stats, std::string_view type) {
  for (const pksk::TypeStats& t : stats.types) {
    if (t.type == type) return t.items;
  }
  return 0;
}

std::size_t objects_in(const std::filesystem::path& dir) {
  std::size_t n = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() != ".meta") ++n;
  }
  return n;
}

template <class Table>
void print_thread(Table& table, const std::string& forum, const std::string& subject) {
  const ThreadPage page =
      table.template query<ThreadPage>(pksk::partition(Thread{.forum = forum, .subject = subject}));
  for (const auto& item : page) {
    std::visit(
        [](const auto& x) {
          using T = std::remove_cvref_t<decltype(x)>;
          if constexpr (std::is_same_v<T, Thread>) {
            std::printf("  thread \"%s\" by %s\n", x.subject.c_str(), x.author.c_str());
          } else if constexpr (std::is_same_v<T, Reply>) {
            std::printf("  reply %s by %s: %zu characters, \"%.24s...\"\n", x.at.c_str(),
                        x.author.c_str(), x.message.size(), x.message.c_str());
          } else {
            std::printf("  attachment %s (%s): %zu bytes\n", x.name.c_str(), x.content_type.c_str(),
                        x.data.size());
          }
        },
        item);
  }
}

}  // namespace

int main() {
  const std::filesystem::path blobs = "forum-blobs";
  std::filesystem::remove_all(blobs);
  std::filesystem::remove("forum.db");
  pksk::sqlite::Backend backend{"forum.db"};
  pksk::TableOptions options;
  options.blob_store = std::make_shared<pksk::DirectoryBlobStore>(blobs);
  pksk::Table table{backend, "forum", options};

  const std::string forum = "DynamoDB", subject = "Large items";
  table.put(Thread{.forum = forum, .subject = subject, .author = "ada"});
  // 1. A long reply: compressed, one item.
  table.put(Reply{.forum = forum,
                  .subject = subject,
                  .at = "2024-05-01T10:00:00Z",
                  .author = "ada",
                  .message = long_text(450'000)});
  // 2. A reply too large even compressed: chunk items and a head.
  table.put(Reply{.forum = forum,
                  .subject = subject,
                  .at = "2024-05-01T11:00:00Z",
                  .author = "bob",
                  .message = random_letters(1'000'000, 1)});
  // 3. An attachment: an object in the blob store, its name in the item.
  std::vector<std::byte> diagram(300'000);
  for (std::size_t i = 0; i < diagram.size(); ++i) diagram[i] = static_cast<std::byte>(i * 7);
  table.put(Attachment{.forum = forum,
                       .subject = subject,
                       .name = "diagram.png",
                       .content_type = "image/png",
                       .data = diagram});

  std::printf("The thread, read back in one query of its partition:\n");
  print_thread(table, forum, subject);

  pksk::TableStats stats = table.stats();
  for (const pksk::TypeStats& t : stats.types) {
    if (t.type != "Reply") continue;
    // The compressed reply is the larger item; the chunked one's head is the smaller.
    std::printf(
        "Stored: %zu reply items: the compressed one %zu bytes, the chunked one's head %zu\n",
        t.items, t.max_bytes, t.min_bytes);
  }
  std::printf("        %zu chunk items, %zu object in the blob store\n",
              items_of_type(stats, "pksk:chunk"), objects_in(blobs));

  // Bob edits his reply: new chunks, then the head, then the old chunks removed.
  table.put(Reply{.forum = forum,
                  .subject = subject,
                  .at = "2024-05-01T11:00:00Z",
                  .author = "bob",
                  .message = random_letters(1'500'000, 2)});
  const auto bob =
      table.get(Reply{.forum = forum, .subject = subject, .at = "2024-05-01T11:00:00Z"});
  stats = table.stats();
  std::printf("After bob's edit: his reply has %zu characters, %zu chunk items are stored\n",
              bob->message.size(), items_of_type(stats, "pksk:chunk"));

  // A new attachment under the same name replaces the object; the old one is removed.
  table.put(Attachment{.forum = forum,
                       .subject = subject,
                       .name = "diagram.png",
                       .content_type = "image/png",
                       .data = std::vector<std::byte>(200'000, std::byte{1})});
  std::printf("After a new diagram: %zu object in the store\n", objects_in(blobs));

  // What a crashed writer leaves (chunks no head names, objects no item names) is removed by
  // the sweeps, from a maintenance job; a grace of zero here, since no write is in flight.
  const std::size_t chunks = pksk::maintenance(table).sweep_chunks(std::chrono::milliseconds(0));
  const std::size_t objects = pksk::maintenance(table).sweep_blobs(std::chrono::seconds(0));
  std::printf("Sweeps: %zu dead chunks, %zu orphan objects removed\n", chunks, objects);

  table.erase(Reply{.forum = forum, .subject = subject, .at = "2024-05-01T11:00:00Z"});
  table.erase(Attachment{.forum = forum, .subject = subject, .name = "diagram.png"});
  stats = table.stats();
  std::printf("After erasing both: %zu chunk items, %zu objects\n",
              items_of_type(stats, "pksk:chunk"), objects_in(blobs));
}
