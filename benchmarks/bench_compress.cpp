// SPDX-License-Identifier: BSL-1.0
// Compressed members (Entity<T>::compressed): how fast pksk compresses and decompresses a
// member, and how small it gets, against the `zstd` command line on the same bytes in the same
// run. Two samples:
//   repetitive  450 KB of forum-reply text built from a few sentences (past 400 KB raw, as a
//               reply compression makes fit);
//   source      450 KB of pksk's own headers, concatenated: real text, far less repetitive.
// pksk's side is the codec with compression: encode_body of a Reply whose message is the
// sample (zstd level 3, one frame with checksum) and decode_body back. Its rate is the
// sample's bytes per second (SetBytesProcessed); `ratio` is the sample's size over the stored
// frame's; pksk's times are CPU times (Google Benchmark's default). The CLI's side runs
// `zstd -3 -c -q` (and `-d -c`) on the sample's file in a subprocess (std::system) per
// iteration, output to /dev/null, timed as the CPU time (user + system) of the child processes
// (getrusage(RUSAGE_CHILDREN), UseManualTime): the shell's and zstd's start, reading the file
// and the work; `cli_startup_ms` is the same on an empty input, in the same iterations. The
// CLI's in-memory rate, `zstd -b3`, is recorded by benchmarks/README.md next to these.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <pksk/codec/codec.hpp>
#include <pksk/pksk.hpp>

#ifndef PKSK_BENCH_SOURCE_DIR
#error "PKSK_BENCH_SOURCE_DIR names pksk's checkout (its headers are the source sample)"
#endif

namespace {

struct Reply {
  std::string thread;
  std::string at;
  std::string message;
};
struct PlainReply {
  std::string thread;
  std::string at;
  std::string message;
};

}  // namespace

template <>
struct pksk::Entity<Reply> {
  static constexpr std::string_view type = "Reply";
  static constexpr std::string_view pk = "THREAD#{thread}";
  static constexpr std::string_view sk = "REPLY#{at}";
  static constexpr std::array compressed = {"message"};
};
template <>
struct pksk::Entity<PlainReply> {
  static constexpr std::string_view type = "Reply";
  static constexpr std::string_view pk = "THREAD#{thread}";
  static constexpr std::string_view sk = "REPLY#{at}";
};

namespace {

constexpr std::size_t sample_bytes = 450'000;

// Forum replies: sentences from a small set, in an order and with numbers from a fixed-seed
// stream (splitmix64), so that zstd finds long matches but no single period.
std::string repetitive_sample() {
  static constexpr std::array<std::string_view, 12> sentences = {
      "Thanks for the quick answer, that fixed it. ",
      "Which version of the library are you on? ",
      "I see the same error after upgrading to release ",
      "The item is larger than 400 KB once the attachments are inlined. ",
      "Could you post the full stack trace and the table definition? ",
      "Compressing the message before the put worked for us. ",
      "We split the reply into chunks of 300 KB each. ",
      "Closing this thread as answered. ",
      "Same here: the query returns nothing when the sort key has a trailing space. ",
      "See the guide, section on item collections, for the pattern. ",
      "Reopening: it happens again with the latest build. ",
      "Measured it: about 12 ms per read at the 99th percentile. "};
  std::uint64_t state = 42;
  const auto next = [&state] {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  std::string text;
  while (text.size() < sample_bytes) {
    text += "Reply #" + std::to_string(next() % 100'000) + " by user" +
            std::to_string(next() % 500) + ": ";
    for (std::uint64_t n = 1 + next() % 4; n > 0; --n) text += sentences[next() % sentences.size()];
    text += '\n';
  }
  text.resize(sample_bytes);
  return text;
}

std::string source_sample() {
  std::string text;
  const std::filesystem::path root = std::filesystem::path(PKSK_BENCH_SOURCE_DIR) / "include";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());  // the same bytes every run
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    text += s.str();
    if (text.size() >= sample_bytes) break;
  }
  if (text.size() < sample_bytes) throw std::runtime_error("pksk's headers hold too few bytes");
  text.resize(sample_bytes);
  return text;
}

const std::string& sample(int which) {
  static const std::string repetitive = repetitive_sample();
  static const std::string source = source_sample();
  return which == 0 ? repetitive : source;
}

// The sample written to a file, for the command line.
std::string sample_file(int which) {
  const std::string path = std::filesystem::temp_directory_path() /
                           ("pksk_bench_compress_" + std::to_string(which) + ".txt");
  std::ofstream(path, std::ios::binary) << sample(which);
  return path;
}

// The stored frame of the sample's message, as the codec writes it.
std::size_t stored_frame_bytes(int which) {
  return pksk::detail::zstd_compress(sample(which), 3).size();
}

void label(benchmark::State& state, int which) {
  state.SetLabel(which == 0 ? "repetitive" : "source");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * sample(which).size()));
}

void BM_pksk_compress(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  // Two replies whose messages differ in their first byte, written in turn: the codec
  // remembers its last frame (a DynamoDB write encodes an item twice), and the same value
  // every iteration would measure that memory instead of zstd.
  std::array<Reply, 2> replies{Reply{.thread = "t", .at = "a", .message = sample(which)},
                               Reply{.thread = "t", .at = "a", .message = sample(which)}};
  replies[1].message[0] = '#';
  std::string body;
  std::size_t i = 0;
  for (auto _ : state) {
    pksk::encode_body(replies[i++ & 1], body);
    benchmark::DoNotOptimize(body.data());
  }
  label(state, which);
  state.counters["ratio"] =
      static_cast<double>(sample(which).size()) / static_cast<double>(stored_frame_bytes(which));
  state.counters["stored_bytes"] = static_cast<double>(stored_frame_bytes(which));
}

void BM_pksk_decompress(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  std::string body;
  pksk::encode_body(Reply{.thread = "t", .at = "a", .message = sample(which)}, body);
  pksk::BodyDecoder decoder;
  Reply out;
  for (auto _ : state) {
    decoder.decode(body, out);
    benchmark::DoNotOptimize(out.message.data());
  }
  if (out.message != sample(which)) state.SkipWithError("the message did not read back");
  label(state, which);
}

// The same member uncompressed: what a read or write of the text costs without compression.
void BM_plain_encode(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  const PlainReply r{.thread = "t", .at = "a", .message = sample(which)};
  std::string body;
  for (auto _ : state) {
    pksk::encode_body(r, body);
    benchmark::DoNotOptimize(body.data());
  }
  label(state, which);
}
void BM_plain_decode(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  std::string body;
  pksk::encode_body(PlainReply{.thread = "t", .at = "a", .message = sample(which)}, body);
  pksk::BodyDecoder decoder;
  PlainReply out;
  for (auto _ : state) {
    decoder.decode(body, out);
    benchmark::DoNotOptimize(out.message.data());
  }
  label(state, which);
}

// The CPU time (user and system) one shell command's processes take, output discarded: the
// measure that compares with pksk's CPU time on a machine other programs load too.
double run_cpu_seconds(const std::string& command) {
  const auto children = [] {
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    const auto seconds = [](const timeval& t) {
      return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
    };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
  };
  const double before = children();
  if (std::system(command.c_str()) != 0) throw std::runtime_error("failed: " + command);
  return children() - before;
}

void cli(benchmark::State& state, bool decompress) {
  const int which = static_cast<int>(state.range(0));
  const std::string input = sample_file(which);
  const std::string frame = input + ".zst";
  const std::string empty = input + ".empty";
  std::ofstream(empty, std::ios::binary).flush();
  if (std::system(("zstd -3 -q -f " + input + " -o " + frame).c_str()) != 0) {
    state.SkipWithError("no zstd command (Debian: zstd)");
    return;
  }
  const std::string empty_frame = empty + ".zst";
  (void)std::system(("zstd -3 -q -f " + empty + " -o " + empty_frame).c_str());
  const std::string command = decompress ? "zstd -d -q -c " + frame + " > /dev/null"
                                         : "zstd -3 -q -c " + input + " > /dev/null";
  const std::string startup = decompress ? "zstd -d -q -c " + empty_frame + " > /dev/null"
                                         : "zstd -3 -q -c " + empty + " > /dev/null";
  double startup_total = 0;
  int startup_runs = 0;
  for (auto _ : state) {
    const double whole = run_cpu_seconds(command);
    startup_total += run_cpu_seconds(startup);
    ++startup_runs;
    state.SetIterationTime(whole);
  }
  label(state, which);
  state.counters["cli_startup_ms"] = startup_runs ? startup_total / startup_runs * 1e3 : 0;
  if (!decompress) {
    state.counters["ratio"] = static_cast<double>(sample(which).size()) /
                              static_cast<double>(std::filesystem::file_size(frame));
  }
}
void BM_zstd_cli_compress(benchmark::State& state) {
  cli(state, false);
}
void BM_zstd_cli_decompress(benchmark::State& state) {
  cli(state, true);
}

}  // namespace

BENCHMARK(BM_pksk_compress)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_pksk_decompress)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_plain_encode)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_plain_decode)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_zstd_cli_compress)->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_zstd_cli_decompress)->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
