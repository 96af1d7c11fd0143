// SPDX-License-Identifier: BSL-1.0
// Compressed members (codec/compressed.hpp) in the codec: what each body format stores (one
// zstd frame, as binary), the item size counting the compressed bytes, renamed and optional
// members, the update value, and the stored bytes a read refuses. What a table does with them,
// on both backends, is in the conformance suite (cases_compressed.hpp).
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <zstd.h>

#include <pksk/codec/codec.hpp>
#include <pksk/codec/item_size.hpp>
#include <pksk/detail/base64.hpp>
#include <pksk/pksk.hpp>

namespace compressed_test {

struct Reply {
  std::string thread;
  std::string at;
  std::string message;
  std::optional<std::string> quote;
  std::vector<std::byte> attachment;
  int likes{};
  friend bool operator==(const Reply&, const Reply&) = default;
};

struct Plain {
  std::string thread;
  std::string at;
  std::string message;
};

struct Renamed {
  std::string id;
  std::string body_text;
  friend bool operator==(const Renamed&, const Renamed&) = default;
};

}  // namespace compressed_test

template <>
struct pksk::Entity<compressed_test::Reply> {
  static constexpr std::string_view type = "Reply";
  static constexpr std::string_view pk = "THREAD#{thread}";
  static constexpr std::string_view sk = "REPLY#{at}";
  static constexpr std::array compressed = {"message", "quote", "attachment"};
};
template <>
struct pksk::Entity<compressed_test::Plain> {
  static constexpr std::string_view type = "Reply";
  static constexpr std::string_view pk = "THREAD#{thread}";
  static constexpr std::string_view sk = "REPLY#{at}";
};
template <>
struct pksk::Entity<compressed_test::Renamed> {
  static constexpr std::string_view type = "Note";
  static constexpr std::string_view pk = "NOTE#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"body_text", "Body Text"}};
  static constexpr std::array compressed = {"body_text"};
  static constexpr int compression_level = 19;
};

using namespace compressed_test;

namespace {

// A text of `n` bytes that compresses well: words repeated with a counter.
std::string repetitive_text(std::size_t n) {
  std::string text;
  for (int i = 0; text.size() < n; ++i) {
    text += "Reply " + std::to_string(i % 100) + ": the quick brown fox jumps over the lazy dog. ";
  }
  text.resize(n);
  return text;
}

std::string base64_of(std::string_view bytes) {
  std::string out;
  pksk::detail::append_base64(out, reinterpret_cast<const unsigned char*>(bytes.data()),
                              bytes.size());
  return out;
}

std::string encoded(const Reply& r) {
  std::string out;
  pksk::encode_body(r, out);
  return out;
}

std::string zstd_of(std::string_view bytes) {
  std::string frame(ZSTD_compressBound(bytes.size()), '\0');
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  frame.resize(ZSTD_compress2(c, frame.data(), frame.size(), bytes.data(), bytes.size()));
  ZSTD_freeCCtx(c);
  return frame;
}

// The base64 text after `"<name>":{"<tag>":"` in `json`.
std::string stored_base64(const std::string& json, const std::string& opening) {
  const std::size_t at = json.find(opening);
  REQUIRE(at != std::string::npos);
  const std::size_t from = at + opening.size();
  return json.substr(from, json.find('"', from) - from);
}

std::string unzstd(const std::string& base64) {
  std::string frame;
  REQUIRE(pksk::detail::decode_base64(base64, frame));
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  REQUIRE(size != ZSTD_CONTENTSIZE_ERROR);
  REQUIRE(size != ZSTD_CONTENTSIZE_UNKNOWN);
  std::string out(size, '\0');
  REQUIRE(ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size()) == size);
  return out;
}

Reply sample() {
  return Reply{.thread = "t1",
               .at = "2024-01-02",
               .message = repetitive_text(500'000),
               .quote = "quoted \xC3\xA9",
               .attachment = {std::byte{0}, std::byte{0xFF}, std::byte{7}},
               .likes = 3};
}

}  // namespace

TEST_CASE("a compressed member is stored as one plain zstd frame, in both body formats") {
  const Reply r = sample();
  const std::string body = encoded(r);
  // The SQLite body's binary: {"":"<base64>"}; any zstd reads the frame back.
  CHECK(unzstd(stored_base64(body, R"("message":{"":")")) == r.message);
  CHECK(unzstd(stored_base64(body, R"("quote":{"":")")) == *r.quote);
  CHECK(body.find(R"("likes":3)") != std::string::npos);
  CHECK(body.size() < 20'000);
  std::string av;
  pksk::encode_attribute_values(r, av);
  CHECK(unzstd(stored_base64(av, R"("message":{"B":")")) == r.message);
  const std::string attachment = unzstd(stored_base64(av, R"("attachment":{"B":")"));
  CHECK(attachment == std::string("\0\xFF\x07", 3));

  CHECK(pksk::decode_body<Reply>(body) == r);
  CHECK(pksk::decode_body<Reply>(av, pksk::BodyFormat::attribute_value) == r);
}

TEST_CASE("an empty optional compressed member is absent; an empty string is a frame") {
  Reply r{.thread = "t", .at = "a"};
  const std::string body = encoded(r);
  CHECK(body.find("quote") == std::string::npos);
  CHECK(unzstd(stored_base64(body, R"("message":{"":")")).empty());
  CHECK(pksk::decode_body<Reply>(body) == r);
}

TEST_CASE("the item size counts the compressed bytes") {
  const Reply r = sample();
  const std::size_t size = pksk::attributes_size(r);
  CHECK(size < 20'000);
  std::string body;
  CHECK(pksk::encode_body_sized(r, body) == size);
  // The plain layout of the same item: the message's own bytes.
  const std::size_t plain = pksk::attributes_size(Plain{r.thread, r.at, r.message});
  CHECK(plain > r.message.size());
  CHECK(plain > pksk::max_item_bytes);
}

TEST_CASE("a renamed compressed member is stored under its name, at the entity's level") {
  const Renamed n{.id = "1", .body_text = repetitive_text(10'000)};
  std::string body;
  pksk::encode_body(n, body);
  const std::string base64 = stored_base64(body, R"("Body Text":{"":")");
  CHECK(unzstd(base64) == n.body_text);
  CHECK(base64.size() < zstd_of(n.body_text).size() * 4 / 3 + 4);  // level 19, not 3
  CHECK(pksk::decode_body<Renamed>(body) == n);
}

TEST_CASE("set on a compressed member stores the frame; on another member, the value") {
  const auto action = pksk::set(&Reply::message, std::string("hello"));
  REQUIRE(action.action.value.kind == pksk::AttributeValue::Kind::binary);
  CHECK(action.action.value.text == zstd_of("hello"));
  const auto quote = pksk::set(&Reply::quote, std::string("q"));
  CHECK(quote.action.value.kind == pksk::AttributeValue::Kind::binary);
  const auto plain = pksk::set(&Plain::message, std::string("hello"));
  CHECK(plain.action.value.kind == pksk::AttributeValue::Kind::string);
  CHECK_THROWS_AS(pksk::set(&Reply::message, std::string("\xFF")), pksk::EncodeError);
}

TEST_CASE("stored bytes that are not one zstd frame are a DecodeError naming the member") {
  const auto body_with = [](std::string_view bytes) {
    const std::string b64 = base64_of(bytes);
    return R"({"thread":"t","at":"a","message":{"":")" + b64 + R"("}})";
  };
  const auto message_of = [](const std::string& body) -> std::string {
    try {
      (void)pksk::decode_body<Reply>(body);
    } catch (const pksk::DecodeError& e) {
      return e.what();
    }
    return "decoded";
  };
  CHECK_THAT(message_of(body_with("not zstd at all")),
             Catch::Contains("$.message") && Catch::Contains("not one zstd frame"));
  std::string frame = zstd_of(repetitive_text(1000));
  CHECK_THAT(message_of(body_with(frame + "x")), Catch::Contains("bytes follow the frame"));
  std::string corrupt = frame;
  corrupt[corrupt.size() / 2] = static_cast<char>(corrupt[corrupt.size() / 2] ^ 0x55);
  CHECK_THAT(message_of(body_with(corrupt)), Catch::Contains("$.message"));
  CHECK_THAT(message_of(body_with(frame.substr(0, frame.size() - 3))),
             Catch::Contains("$.message"));
  // A string where the frame belongs (the member was stored uncompressed).
  CHECK_THAT(message_of(R"({"thread":"t","at":"a","message":"plain"})"),
             Catch::Contains("$.message") && Catch::Contains("binary"));
  // A frame whose content size is unknown (streamed) is refused before anything is allocated.
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0);
  std::string streamed(ZSTD_compressBound(10), '\0');
  streamed.resize(ZSTD_compress2(c, streamed.data(), streamed.size(), "0123456789", 10));
  ZSTD_freeCCtx(c);
  CHECK_THAT(message_of(body_with(streamed)), Catch::Contains("content size"));
}

TEST_CASE("a frame that decompresses past max_decompressed_bytes is refused (a zip bomb)") {
  const std::string zeros(pksk::max_decompressed_bytes + 1, '\0');
  const std::string bomb = zstd_of(zeros);
  CHECK(bomb.size() < 10'000);
  const std::string b64 = base64_of(bomb);
  try {
    (void)pksk::decode_body<Reply>(R"({"thread":"t","at":"a","message":{"":")" + b64 + R"("}})");
    FAIL("a zip bomb was decompressed");
  } catch (const pksk::DecodeError& e) {
    CHECK_THAT(e.what(), Catch::Contains("$.message") &&
                             Catch::Contains("more than pksk::max_decompressed_bytes"));
  }
  // And no value is written that no read would accept.
  Reply r{.thread = "t", .at = "a", .message = zeros};
  CHECK_THROWS_AS(encoded(r), pksk::EncodeError);
}
