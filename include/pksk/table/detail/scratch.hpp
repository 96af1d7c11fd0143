// SPDX-License-Identifier: BSL-1.0
#pragma once
// A Table call's reusable buffers (keys, body, decoder, an update's actions): one set per
// thread, shared by every Table on the thread, so that a warm call allocates nothing and a Table
// shared by threads has no shared scratch. A call made from inside another on the same thread
// (a visitor that calls the table again) gets a set of its own (ThreadLease).

#include <string>
#include <vector>

#include "../../codec/decoder_handle.hpp"
#include "../../detail/thread_lease.hpp"
#include "../../expr/expression.hpp"

namespace pksk::detail {

struct Scratch {
  DecoderHandle decoder;  // *decoder: the thread's BodyDecoder
  std::string pk, sk, body;
  // An update's actions: its key members' first, rewritten in place each time (their paths
  // and values keep their capacity), then the caller's.
  std::vector<backend::UpdateAction> actions;
};

using ScratchLease = ThreadLease<Scratch>;

}  // namespace pksk::detail
