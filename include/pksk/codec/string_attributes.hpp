// SPDX-License-Identifier: BSL-1.0
#pragma once
// Two top-level string attributes of a stored item looked up by name, in either body format: an
// item's keys in a secondary index, which are ordinary attributes of it, read back when a member
// only they hold is missing from the body (key/read_back.hpp). Not on any hot path: the item is
// parsed again. For the table layer (table/detail/indexed_row.hpp), not for users: public so
// that table/ need not include codec/'s private headers.

#include <string>
#include <string_view>

#include "../detail/config.hpp"
#include "body_format.hpp"
#include "parsed_item.hpp"

namespace pksk::detail {

// Assigns the string attributes `first_name` and `second_name` of the item (`body`, or `live`
// when a backend handed it over parsed: rewound and read again) into `first` and `second`.
// False when the first is not there or is not a string; a missing second is left empty.
PKSK_DECL bool read_two_string_attributes(BodyFormat format, ParsedItem live, std::string_view body,
                                          std::string_view first_name, std::string_view second_name,
                                          std::string& first, std::string& second);

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/string_attributes.ipp"
#endif
