// SPDX-License-Identifier: BSL-1.0
#pragma once
// DecoderHandle's allocation: inline through decoder_handle.hpp in header-only mode, compiled
// once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <memory>

#include "../decode.hpp"
#include "../decoder_handle.hpp"

namespace pksk::detail {

PKSK_DECL void BodyDecoderDeleter::operator()(BodyDecoder* decoder) const noexcept {
  delete decoder;
}

PKSK_DECL std::unique_ptr<BodyDecoder, BodyDecoderDeleter> make_body_decoder() {
  return std::unique_ptr<BodyDecoder, BodyDecoderDeleter>(new BodyDecoder());
}

}  // namespace pksk::detail
