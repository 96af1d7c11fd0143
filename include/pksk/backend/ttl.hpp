// SPDX-License-Identifier: BSL-1.0
#pragma once
// Time to live (TableOptions::ttl_attribute) as a backend applies it to reads: an item whose
// ttl attribute is a number of epoch seconds at or before now is not handed over. A query's or
// scan's expired item still counts toward its limit and page size, as an item DynamoDB has not
// deleted yet counts there when a filter rejects it; an attribute that is absent or not a
// number never expires an item (DynamoDB's TTL ignores it).

#include <chrono>
#include <cstdint>
#include <string>

#include "../expr/expression.hpp"
#include "backend.hpp"

namespace pksk::backend {

// Whether the table expires items at all.
// Throws: nothing.
// Exception safety: nothrow.
inline bool has_ttl(const TableSpec& spec) noexcept {
  return !spec.ttl_attribute.empty();
}

// Now, in whole seconds since the epoch, by the table's clock.
// Throws: what the table's clock (TableOptions::ttl_clock) throws.
// Exception safety: strong.
inline std::int64_t ttl_now(const TableSpec& spec) {
  const std::chrono::system_clock::time_point now =
      spec.ttl_clock ? spec.ttl_clock() : std::chrono::system_clock::now();
  return std::chrono::floor<std::chrono::seconds>(now.time_since_epoch()).count();
}

// The filter that keeps the items not expired at `now`:
//   attribute_not_exists(ttl) OR NOT (ttl <= now)
// (a ttl attribute that is not a number compares false, and so keeps its item).
// Throws: only std::bad_alloc.
// Exception safety: strong.
inline Condition unexpired(const TableSpec& spec, std::int64_t now) {
  AttributePath path;
  path.steps.push_back({spec.ttl_attribute, 0});
  Condition absent{Condition::Op::not_exists, {{Operand::Kind::path, path, {}}}, {}};
  Condition due{Condition::Op::le,
                {{Operand::Kind::path, path, {}},
                 {Operand::Kind::value, {}, AttributeValue::from_number(std::to_string(now))}},
                {}};
  Condition not_due{Condition::Op::negate, {}, {}};
  not_due.children.push_back(std::move(due));
  Condition keep{Condition::Op::any, {}, {}};
  keep.children.push_back(std::move(absent));
  keep.children.push_back(std::move(not_due));
  return keep;
}

// `filter` AND unexpired(spec, now), into `out`; returns what a read filters with.
// Throws: only std::bad_alloc.
// Exception safety: basic: out is unspecified on an exception.
inline const Condition* with_unexpired(const TableSpec& spec, const Condition* filter,
                                       std::int64_t now, Condition& out) {
  Condition keep = unexpired(spec, now);
  if (filter == nullptr) {
    out = std::move(keep);
  } else {
    out = Condition{Condition::Op::all, {}, {}};
    out.children.push_back(*filter);
    out.children.push_back(std::move(keep));
  }
  return &out;
}

}  // namespace pksk::backend
