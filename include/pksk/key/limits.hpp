// SPDX-License-Identifier: BSL-1.0
#pragma once
// DynamoDB's limits on a key attribute's value, in bytes (UTF-8): 2,048 for a partition key,
// 1,024 for a sort key. A longer key would be refused by DynamoDB at write time, so it is
// refused here, on every backend, before anything is written: by key/ when it formats a key,
// and by a backend that emulates DynamoDB (backend/emulation.hpp) for any key it is given.

#include <cstddef>

namespace pksk::detail {

inline constexpr std::size_t max_partition_key_size = 2048;
inline constexpr std::size_t max_sort_key_size = 1024;

}  // namespace pksk::detail
