// SPDX-License-Identifier: BSL-1.0
// Fuzz target: the plain JSON body decoder (pksk::BodyDecoder::decode), as Table::get and
// Table::query run it on every stored body.
//
// Arbitrary bytes are decoded into Kitchen, which has a member of every supported kind.
// - DecodeError is the only acceptable failure; any other exception, a crash, a leak or
//   undefined behaviour is a finding.
// - Decoding into a struct that already holds another item's values (as a reused Table buffer
//   does) gives the same result as decoding into a fresh one.
// - Round trip: what decodes re-encodes (encode_body; an empty map key, which DynamoDB refuses,
//   is refused: a ValidationError), and that text decodes to a struct that encodes identically. The
//   same value also survives a trip through the AttributeValue format.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <pksk/pksk.hpp>

#include "fuzz_entities.hpp"

namespace {

// A struct full of values, decoded over by every run: no member may leak into the result.
fuzz::Kitchen filled() {
  fuzz::Kitchen k;
  k.s = "previous";
  k.b = true;
  k.i8 = -8;
  k.u64 = 64;
  k.f = 1.5f;
  k.color = fuzz::Color::blue;
  k.opt_s = "kept?";
  k.opt_i = 7;
  k.opt_inner = fuzz::Inner{.name = "old", .count = 3, .weights = {1, 2, 3}};
  k.strings = {"a", "b", "c"};
  k.bits = {true, false, true};
  k.sparse = {1, std::nullopt, 3};
  k.matrix = {{1, 2}, {3}};
  k.counts = {{"x", 1}};
  k.by_name = {{"n", fuzz::Inner{.name = "n"}}};
  k.maybe = {{"m", 2.5}};
  k.tags = {"t"};
  k.at = std::chrono::system_clock::time_point{std::chrono::seconds{1}};
  k.maybe_at = k.at;
  k.middle.inners = {fuzz::Inner{.name = "i", .count = 1}};
  k.middles = {k.middle, k.middle};
  k.tree = fuzz::Tree{.label = "root", .children = {fuzz::Tree{.label = "leaf"}}};
  return k;
}

bool decodes(pksk::BodyDecoder& decoder, std::string_view json, fuzz::Kitchen& out) {
  try {
    decoder.decode(json, out);
    return true;
  } catch (const pksk::DecodeError&) {
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static pksk::BodyDecoder decoder;
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  fuzz::Kitchen fresh;
  const bool ok = decodes(decoder, input, fresh);
  fuzz::Kitchen reused = filled();
  if (decodes(decoder, input, reused) != ok) fuzz::fail("a reused struct decodes differently");
  if (!ok) return 0;

  std::string first, second, reused_text;
  try {
    pksk::encode_body(fresh, first);
  } catch (const pksk::ValidationError&) {
    // A body may hold what no write makes, an empty map key (DynamoDB refuses an empty
    // attribute name): it decodes, and encoding refuses it, for the reused struct alike.
    try {
      pksk::encode_body(reused, reused_text);
    } catch (const pksk::ValidationError&) {
      return 0;
    }
    fuzz::fail("a reused struct encodes what a fresh one refuses", reused_text);
  }
  pksk::encode_body(reused, reused_text);
  if (reused_text != first) fuzz::fail("a reused struct keeps old values", reused_text);

  fuzz::Kitchen again;
  if (!decodes(decoder, first, again)) fuzz::fail("encode_body's output does not decode", first);
  pksk::encode_body(again, second);
  if (second != first) fuzz::fail("body round trip changed the item", first + "\n" + second);

  std::string attribute_values, third;
  pksk::encode_attribute_values(fresh, attribute_values);
  fuzz::Kitchen from_attribute_values;
  decoder.decode_attribute_values(attribute_values, from_attribute_values);
  pksk::encode_body(from_attribute_values, third);
  if (third != first) fuzz::fail("AttributeValue trip changed the item", first + "\n" + third);
  return 0;
}
