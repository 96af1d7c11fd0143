// SPDX-License-Identifier: BSL-1.0
#pragma once
// The entities of the compressed-member cases (cases_compressed.hpp): seed 002's forum, whose
// replies' long messages are stored zstd-compressed as binary, a renamed and an optional
// compressed member, and views of the same items that read the stored bytes as they are.

#include <array>
#include <cstddef>
#include <optional>
#include <pksk/pksk.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace conformance {

struct ForumThread {
  std::string id;
  std::string subject;
  friend bool operator==(const ForumThread&, const ForumThread&) = default;
};

struct Reply {
  std::string thread;
  std::string at;
  std::string author;
  std::string message;                // compressed
  std::optional<std::string> quote;   // compressed, often absent
  std::vector<std::byte> attachment;  // compressed bytes
  friend bool operator==(const Reply&, const Reply&) = default;
};

// A table someone else designed: PascalCase names, the compressed member renamed.
struct Post {
  std::string id;
  std::string body_text;  // "Body", compressed
  int views{};
  friend bool operator==(const Post&, const Post&) = default;
};

// In the posts' partitions, to read a post raw (as an item of no type its collection knows).
struct PostIndex {
  std::string id;
};

// A reply as stored, read without decompressing: its message's bytes, or what another program
// wrote there.
struct StoredReply {
  std::string thread;
  std::string at;
  std::vector<std::byte> message;
};
struct TextReply {
  std::string thread;
  std::string at;
  std::string message;
};

}  // namespace conformance

template <>
struct pksk::Entity<conformance::ForumThread> {
  static constexpr std::string_view type = "Thread";
  static constexpr std::string_view pk = "THREAD#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<conformance::Reply> {
  static constexpr std::string_view type = "Reply";
  static constexpr std::string_view pk = "THREAD#{thread}";
  static constexpr std::string_view sk = "REPLY#{at}";
  static constexpr std::array compressed = {"message", "quote", "attachment"};
};
template <>
struct pksk::Entity<conformance::Post> {
  static constexpr std::string_view type = "Post";
  static constexpr std::string_view pk = "POST#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"body_text", "Body"}};
  static constexpr std::array compressed = {"body_text"};
};
template <>
struct pksk::Entity<conformance::PostIndex> {
  static constexpr std::string_view type = "PostIndex";
  static constexpr std::string_view pk = "POST#{id}";
  static constexpr std::string_view sk = "INDEX";
};
template <>
struct pksk::Entity<conformance::StoredReply> {
  static constexpr std::string_view type = "Reply";
  static constexpr std::string_view pk = "THREAD#{thread}";
  static constexpr std::string_view sk = "REPLY#{at}";
};
template <>
struct pksk::Entity<conformance::TextReply> {
  static constexpr std::string_view type = "Reply";
  static constexpr std::string_view pk = "THREAD#{thread}";
  static constexpr std::string_view sk = "REPLY#{at}";
};

namespace conformance {

// A text of `n` bytes that compresses well (about 60 to 1): a forum reply quoting itself.
inline std::string long_reply_text(std::size_t n) {
  std::string text;
  for (int i = 0; text.size() < n; ++i) {
    text += "Reply " + std::to_string(i % 97) + ": the quick brown fox jumps over the lazy dog. ";
  }
  text.resize(n);
  return text;
}

inline Reply long_reply(std::string at) {
  return Reply{.thread = "t1",
               .at = std::move(at),
               .author = "ada",
               .message = long_reply_text(450'000),
               .quote = "short \xC3\xA9",
               .attachment = {std::byte{0}, std::byte{0xFF}, std::byte{0x28}}};
}

}  // namespace conformance
