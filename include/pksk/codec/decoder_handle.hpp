// SPDX-License-Identifier: BSL-1.0
#pragma once
// DecoderHandle: a BodyDecoder (a simdjson parser and its padded buffer) owned through a pointer,
// so that what keeps one per thread (Table's scratch) needs neither simdjson nor BodyDecoder's
// definition: with PKSK_SEPARATE_COMPILATION, a translation unit that only calls an entity's
// code never parses simdjson's headers.

#include <memory>

#include "../detail/config.hpp"

namespace pksk {

class BodyDecoder;

namespace detail {
struct BodyDecoderDeleter {
  PKSK_DECL void operator()(BodyDecoder* decoder) const noexcept;
};
PKSK_DECL std::unique_ptr<BodyDecoder, BodyDecoderDeleter> make_body_decoder();
}  // namespace detail

// Owns a BodyDecoder where its definition is not seen (codec/decode.hpp is heavy): what separate
// compilation hands the table's code.
class DecoderHandle {
 public:
  // A new decoder.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  DecoderHandle() : decoder_(detail::make_body_decoder()) {}
  // The decoder.
  // Throws: nothing.
  // Exception safety: nothrow.
  BodyDecoder& operator*() const noexcept { return *decoder_; }

 private:
  std::unique_ptr<BodyDecoder, detail::BodyDecoderDeleter> decoder_;
};

}  // namespace pksk

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/decoder_handle.ipp"
#endif
