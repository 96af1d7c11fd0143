// SPDX-License-Identifier: BSL-1.0
#pragma once
// How every error message of pksk quotes a key, a table, index or attribute name: one style
// for the Table layer and the backends alike, with bytes a terminal would not show escaped.

#include <string>
#include <string_view>

#include "config.hpp"

namespace pksk::detail {

// A key or name in an error message, in single quotes, with bytes a terminal would not show
// escaped: keys read back from a store are not trusted to be printable.
PKSK_DECL std::string quoted(std::string_view text);

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/quoted.ipp"
#endif
