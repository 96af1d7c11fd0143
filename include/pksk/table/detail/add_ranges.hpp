// SPDX-License-Identifier: BSL-1.0
#pragma once
// An add to an integer member must not take it past its type's range: DynamoDB would store the
// sum, which no later read decodes. add is relative, so the check is the store's: each such add
// guards the update with the condition
//   attribute_not_exists(member) OR member <= max - n     (n > 0; member >= min - n for n < 0)
// and when the update's condition fails, the stored item it was evaluated on (asked for with
// ReturnValuesOnConditionCheckFailure) says whether a guard was false: a ValidationError naming
// the entity and the member, rather than the caller's ConditionFailed.

#include <charconv>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../../backend/backend.hpp"
#include "../../codec/attribute_value_read.hpp"
#include "../../detail/quoted.hpp"
#include "../../error.hpp"
#include "../../expr/attr.hpp"
#include "../../expr/expression.hpp"
#include "../../expr/update.hpp"
#include "../../key/stored_names.hpp"
#include "../../reflect/reflect.hpp"
#include "messages.hpp"

namespace pksk::detail {

template <class P>
struct member_of_pointer {
  using type = void;
};
template <class T, class M>
struct member_of_pointer<M T::*> {
  using type = M;
};

// The integer type an update part adds to; void for any other part.
template <class P>
struct added_integer {
  using type = void;
};
template <auto Member>
struct added_integer<add<Member>> {
  using value = member_value_t<typename member_of_pointer<decltype(Member)>::type>;
  using type =
      std::conditional_t<std::is_integral_v<value> && !std::is_same_v<value, bool>, value, void>;
};
template <class P>
using added_integer_t = typename added_integer<std::remove_cvref_t<P>>::type;

template <class... Parts>
inline constexpr bool adds_integer_v = (!std::is_void_v<added_integer_t<Parts>> || ...);

// One add's guard: the stored value at `path` must be absent, or at most (upper) or at least
// `bound`.
struct AddRange {
  backend::AttributePath path;
  std::string bound;
  bool upper = true;
  std::string added;     // n
  std::string min, max;  // the member type's range
};

template <class Part>
std::optional<AddRange> add_range(const Part& part) {
  using V = added_integer_t<Part>;
  if constexpr (std::is_void_v<V>) {
    return std::nullopt;
  } else {
    const std::string& text = part.action.value.text;
    V n{};
    if (std::from_chars(text.data(), text.data() + text.size(), n).ec != std::errc{} || n == 0)
      return std::nullopt;
    AddRange range{part.action.path,
                   {},
                   n > 0,
                   text,
                   std::to_string(std::numeric_limits<V>::min()),
                   std::to_string(std::numeric_limits<V>::max())};
    range.bound = n > 0 ? std::to_string(std::numeric_limits<V>::max() - n)
                        : std::to_string(std::numeric_limits<V>::min() - n);
    return range;
  }
}

inline backend::Condition range_condition(const AddRange& range) {
  using Op = backend::Condition::Op;
  backend::Condition absent{Op::not_exists, {path_operand(range.path)}, {}};
  backend::Condition within{
      range.upper ? Op::le : Op::ge,
      {path_operand(range.path), value_operand(AttributeValue::from_number(range.bound))},
      {}};
  return {Op::any, {}, {std::move(absent), std::move(within)}};
}

template <class... Parts>
std::vector<AddRange> add_ranges(const Parts&... parts) {
  std::vector<AddRange> out;
  const auto one = [&](const auto& part) {
    if (std::optional<AddRange> range = add_range(part)) out.push_back(std::move(*range));
  };
  (one(parts), ...);
  return out;
}

// -1, 0 or 1: decimal integer `a` against `b` (both "-"? digits); nullopt when `a` is not one.
inline std::optional<int> compare_integers(std::string_view a, std::string_view b) {
  const auto split = [](std::string_view& s) {
    const bool negative = !s.empty() && s.front() == '-';
    if (negative) s.remove_prefix(1);
    while (s.size() > 1 && s.front() == '0') s.remove_prefix(1);
    return negative && s != "0";
  };
  const bool an = split(a);
  const bool bn = split(b);
  if (a.empty() || a.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  if (an != bn) return an ? -1 : 1;
  int magnitude =
      a.size() != b.size() ? (a.size() < b.size() ? -1 : 1) : (a < b ? -1 : (a == b ? 0 : 1));
  return an ? -magnitude : magnitude;
}

// The guard that is false on the stored item `item` (a parsed body), if one is.
inline const AddRange* broken_range(const std::vector<AddRange>& ranges, const AttributeValue& item,
                                    std::string& value) {
  for (const AddRange& range : ranges) {
    const AttributeValue* at = &item;
    for (const backend::AttributePath::Step& step : range.path.steps) {
      if (at == nullptr) break;
      if (step.is_index) {
        at = at->kind == AttributeValue::Kind::list && step.index < at->list.size()
                 ? &at->list[step.index]
                 : nullptr;
      } else {
        at = at->kind == AttributeValue::Kind::map ? at->find(step.name) : nullptr;
      }
    }
    if (at == nullptr || at->kind != AttributeValue::Kind::number) continue;
    const std::optional<int> order = compare_integers(at->text, range.bound);
    if (order && (range.upper ? *order > 0 : *order < 0)) {
      value = at->text;
      return &range;
    }
  }
  return nullptr;
}

// After an update guarded by `ranges` failed its condition: a ValidationError when a guard was
// false on the stored item the failure carries. Returns when none was.
template <class T>
void refuse_add_past_range(std::string_view table, const std::vector<AddRange>& ranges,
                           const ConditionFailed& failed) {
  if (ranges.empty() || failed.stored() == nullptr) return;
  AttributeValue item;
  try {
    item = parse_body(failed.stored()->json, failed.stored()->format);
  } catch (const DecodeError&) {
    return;
  }
  std::string value;
  const AddRange* range = broken_range(ranges, item, value);
  if (range == nullptr) return;
  const std::string& top = range->path.steps.front().name;
  const std::size_t index = stored_field_index<T>(top);
  std::string member = range->path.to_string();
  if (index < field_count_v<T> && range->path.steps.size() == 1)
    member = std::string(field_names_v<T>[index]);
  throw ValidationError(table_context(table, "update", type_name_v<T>) + "adding " + range->added +
                            " to the member " + detail::quoted(member) + " (stored: " + value +
                            ") would take it past its type's range, " + range->min + " to " +
                            range->max + "; nothing was written",
                        failed.native(), std::make_exception_ptr(failed));
}

// The failure as the caller asked for it: without the stored item it did not ask for.
inline ConditionFailed without_stored(const ConditionFailed& failed) {
  return ConditionFailed(failed.what(), failed.native(), failed.cause(), nullptr);
}

// The caller's side of a failed update guarded by `ranges`, which asked for the stored item to
// tell a guard's failure from the caller's condition: a ValidationError when a guard failed;
// else the failure without the stored item when the caller did not ask for it, or nullopt when
// `failed` is already what the caller should see.
template <class T>
std::optional<ConditionFailed> failure_of_guarded_update(std::string_view table,
                                                         const std::vector<AddRange>& ranges,
                                                         const ConditionFailed& failed,
                                                         bool caller_asked_stored) {
  refuse_add_past_range<T>(table, ranges, failed);
  if (caller_asked_stored || failed.stored() == nullptr) return std::nullopt;
  return without_stored(failed);
}

}  // namespace pksk::detail
