// SPDX-License-Identifier: BSL-1.0
// Chunked items on a SQLite file, beyond the conformance cases: a child process killed with
// SIGKILL while it writes versions of a chunked item (at each stage of the protocol, and at
// random moments) leaves the file with a whole version, the last one it reported or the next;
// four reader threads never see a mixed version while a writer replaces the item.

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/temp_dir.hpp"

namespace {

// Version n of the blob: every byte of `data` is the letter of n, so a body made of two
// versions' pieces shows.
struct Blob {
  std::string id;
  long long n{};
  std::string data;
};
struct Other {
  std::string id;
};

}  // namespace

template <>
struct pksk::Entity<Blob> {
  static constexpr std::string_view type = "Blob";
  static constexpr std::string_view pk = "BLOB#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr bool chunked = true;
};
template <>
struct pksk::Entity<Other> {
  static constexpr std::string_view type = "Other";
  static constexpr std::string_view pk = "OTHER#{id}";
  static constexpr std::string_view sk = "A";
};

namespace {

using Table = pksk::Table<pksk::sqlite::Backend>;

// 600 KB to 1 MB: two to three chunks, a different count from version to version.
Blob version(long long n) {
  return Blob{.id = "b",
              .n = n,
              .data = std::string(600'000 + static_cast<std::size_t>(n % 5) * 90'000,
                                  static_cast<char>('a' + n % 26))};
}

// Whether `blob` is one whole version.
bool whole(const Blob& blob) {
  return blob.data.size() == version(blob.n).data.size() &&
         blob.data.find_first_not_of(static_cast<char>('a' + blob.n % 26)) == std::string::npos;
}

std::size_t chunk_items(Table& table) {
  std::size_t n = 0;
  for (const pksk::RawItem& item : table.scan<pksk::ItemCollection<Other>>().unknown())
    n += item.type == "pksk:chunk" ? 1 : 0;
  return n;
}

void report(int out, long long n) {
  if (::write(out, &n, sizeof n) != static_cast<ssize_t>(sizeof n)) ::_exit(3);
}

// The reports the child wrote before it died: the last, or -1.
long long last_report(int in) {
  long long last = -1, n = 0;
  while (::read(in, &n, sizeof n) == static_cast<ssize_t>(sizeof n)) last = n;
  return last;
}

int report_out = -1;
pksk::detail::ChunkWriteStage stop_stage{};
long long stop_version = 0;
long long writing = 0;
// In the child: at `stop_stage` of version stop_version, says so (-2) and waits to be killed.
void stop_hook(pksk::detail::ChunkWriteStage stage) {
  if (stage != stop_stage || writing != stop_version) return;
  report(report_out, -2);
  for (;;) ::pause();
}

// Forks a child that writes versions 1, 2, ... of the blob to `file`, reporting each once put
// returned; with `stage`, it stops at that stage of version 3 and waits. Killed with SIGKILL
// after `delay` (or once it stopped); returns the last version it reported.
long long write_until_killed(const std::string& file,
                             std::optional<pksk::detail::ChunkWriteStage> stage,
                             std::chrono::microseconds delay) {
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(pipe_fds[0]);
    try {
      pksk::sqlite::Backend backend{file};
      Table table{backend, "blobs"};
      report_out = pipe_fds[1];
      if (stage) {
        stop_stage = *stage;
        stop_version = 3;
        pksk::detail::chunk_write_hook = &stop_hook;
      }
      report(pipe_fds[1], 0);  // open: the parent's clock starts
      for (long long n = 1;; ++n) {
        writing = n;
        table.put(version(n));
        report(pipe_fds[1], n);
      }
    } catch (...) {
      ::_exit(2);
    }
  }
  ::close(pipe_fds[1]);
  long long n = -1;
  REQUIRE(::read(pipe_fds[0], &n, sizeof n) == static_cast<ssize_t>(sizeof n));
  if (stage) {
    // Until the child says it stopped.
    for (;;) {
      REQUIRE(::read(pipe_fds[0], &n, sizeof n) == static_cast<ssize_t>(sizeof n));
      if (n == -2) break;
    }
  } else {
    std::this_thread::sleep_for(delay);
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
  const long long last = stage ? 2 : last_report(pipe_fds[0]);
  ::close(pipe_fds[0]);
  return last;
}

}  // namespace

TEST_CASE("a process killed at each stage of a chunked put leaves a whole version", "[chunked]") {
  using Stage = pksk::detail::ChunkWriteStage;
  for (const Stage stage : {Stage::chunk_written, Stage::chunks_written, Stage::head_written}) {
    const support::TempDir dir;
    const std::string file = dir.file("blobs.db");
    REQUIRE(write_until_killed(file, stage, {}) == 2);
    pksk::sqlite::Backend backend{file};
    Table table{backend, "blobs"};
    const std::optional<Blob> got = table.get(Blob{.id = "b"});
    REQUIRE(got);
    CHECK(whole(*got));
    // Before the head: version 2 stands; after it, version 3 does.
    CHECK(got->n == (stage == Stage::head_written ? 3 : 2));
    // The dead version's chunks (or the replaced one's) are left; a sweep removes them.
    const std::size_t current = (version(got->n).data.size() + 349'999) / 350'000;
    CHECK(chunk_items(table) > current);
    CHECK(pksk::maintenance(table).sweep_chunks(std::chrono::milliseconds(0)) > 0);
    CHECK(chunk_items(table) == current);
    CHECK(table.get(Blob{.id = "b"})->n == got->n);
  }
}

TEST_CASE("a process killed at random moments of chunked puts leaves a whole version",
          "[chunked]") {
  std::mt19937 random(7);
  for (int trial = 0; trial < 8; ++trial) {
    const support::TempDir dir;
    const std::string file = dir.file("blobs.db");
    const auto delay = std::chrono::microseconds(20'000 + random() % 200'000);
    const long long last = write_until_killed(file, std::nullopt, delay);
    pksk::sqlite::Backend backend{file};
    Table table{backend, "blobs"};
    const std::optional<Blob> got = table.get(Blob{.id = "b"});
    INFO("trial " << trial << ", last reported " << last);
    if (last < 1) {
      // Killed before the first put returned: nothing, or version 1 whole.
      CHECK((!got || (got->n == 1 && whole(*got))));
      continue;
    }
    REQUIRE(got);
    CHECK(whole(*got));
    CHECK((got->n == last || got->n == last + 1));
    pksk::maintenance(table).sweep_chunks(std::chrono::milliseconds(0));
    CHECK(table.get(Blob{.id = "b"})->n == got->n);
  }
}

TEST_CASE("four readers never see a mixed version while a writer replaces a chunked item",
          "[chunked]") {
  const support::TempDir dir;
  pksk::sqlite::Backend backend{dir.file("blobs.db")};
  Table table{backend, "blobs"};
  table.put(version(1));
  std::atomic<bool> done{false};
  std::atomic<int> bad{0};
  std::atomic<long long> reads{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 4; ++r) {
    readers.emplace_back([&, r] {
      long long seen = 0;
      while (!done.load()) {
        try {
          std::optional<Blob> got;
          if (r % 2 == 0) {
            got = table.get(Blob{.id = "b"});
          } else {
            std::vector<Blob> all = table.query<Blob>(pksk::partition(Blob{.id = "b"}));
            if (all.size() == 1) got = std::move(all.front());
          }
          // Always present, whole, and never older than a version this reader saw.
          if (!got || !whole(*got) || got->n < seen) ++bad;
          if (got) seen = got->n;
          ++reads;
        } catch (const pksk::Error&) {
          ++bad;
        }
      }
    });
  }
  for (long long n = 2; n <= 60; ++n) table.put(version(n));
  done = true;
  for (std::thread& t : readers) t.join();
  CHECK(bad.load() == 0);
  CHECK(reads.load() > 0);
  CHECK(table.get(Blob{.id = "b"})->n == 60);
  CHECK(chunk_items(table) == (version(60).data.size() + 349'999) / 350'000);
}
