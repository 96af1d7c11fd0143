// SPDX-License-Identifier: BSL-1.0
// Fuzz target: the DynamoDB AttributeValue decoder (BodyDecoder::decode_attribute_values), which
// will read every item the DynamoDB backend returns.
//
// Arbitrary bytes are decoded into Kitchen (a member of every supported kind).
// - DecodeError is the only acceptable failure; any other exception, a crash, a leak or
//   undefined behaviour is a finding.
// - Round trip: what decodes re-encodes (encode_attribute_values), and that text decodes to a
//   struct that encodes identically.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <pksk/pksk.hpp>

#include "fuzz_entities.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static pksk::BodyDecoder decoder;
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  fuzz::Kitchen decoded;
  try {
    decoder.decode_attribute_values(input, decoded);
  } catch (const pksk::DecodeError&) {
    return 0;
  }

  std::string first, second;
  pksk::encode_attribute_values(decoded, first);
  fuzz::Kitchen again;
  try {
    decoder.decode_attribute_values(first, again);
  } catch (const pksk::DecodeError& e) {
    fuzz::fail("encode_attribute_values's output does not decode", first + "\n" + e.what());
  }
  pksk::encode_attribute_values(again, second);
  if (second != first)
    fuzz::fail("AttributeValue round trip changed the item", first + "\n" + second);
  return 0;
}
