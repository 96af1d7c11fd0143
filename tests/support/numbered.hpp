// SPDX-License-Identifier: BSL-1.0
#pragma once
// numbered("e", 7) == "e7": the ids and keys tests make in loops.
//
// Built by appending rather than as "e" + std::to_string(n): at -O2, g++ 12 inlines that
// operator+ (an insert at the front of the temporary) and reports a memcpy of 2^63 bytes that
// may overlap, a bogus -Wrestrict (GCC bug 105651) that -Werror makes a failed build.

#include <string>
#include <string_view>

namespace support {

inline std::string numbered(std::string_view prefix, long long n) {
  std::string text(prefix);
  text += std::to_string(n);
  return text;
}

}  // namespace support
