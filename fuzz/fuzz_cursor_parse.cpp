// SPDX-License-Identifier: BSL-1.0
// Fuzz target: pksk::Cursor::parse, which reads a token a client hands back (untrusted).
//
// - The input as a token: parse either throws pksk::Error (or a subclass) or returns a cursor
//   whose to_string() parses back to an equal cursor.
// - The input as a cursor's fields (a signature of 32 bytes or none, as tables make them):
//   to_string() always parses back to the same cursor.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <fuzzer/FuzzedDataProvider.h>

#include <pksk/pksk.hpp>

#include "fuzz_entities.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view token(reinterpret_cast<const char*>(data), size);
  try {
    const pksk::Cursor cursor = pksk::Cursor::parse(token);
    const std::string text = cursor.to_string();
    if (pksk::Cursor::parse(text) != cursor)
      fuzz::fail("a parsed cursor does not round-trip", text);
  } catch (const pksk::Error&) {
    // Rejected: the only acceptable failure.
  }

  FuzzedDataProvider provider(data, size);
  pksk::Cursor cursor;
  cursor.index = provider.ConsumeRandomLengthString();
  cursor.pk = provider.ConsumeRandomLengthString();
  cursor.table = provider.ConsumeRandomLengthString();
  // A signature is what a table with a cursor_key makes: 32 bytes, or none.
  if (provider.ConsumeBool()) cursor.signature = provider.ConsumeBytesAsString(32);
  if (!cursor.signature.empty()) cursor.signature.resize(32, '\0');
  cursor.sk = provider.ConsumeRemainingBytesAsString();
  const std::string text = cursor.to_string();
  if (pksk::Cursor::parse(text) != cursor) fuzz::fail("a cursor does not round-trip", text);
  return 0;
}
