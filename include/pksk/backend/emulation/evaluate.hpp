// SPDX-License-Identifier: BSL-1.0
#pragma once
// The in-process evaluator, part of what a backend that is not DynamoDB emulates
// (backend/emulation.hpp): conditions and updates applied to a stored item (an AttributeValue
// map holding every attribute, keys and discriminator included) with DynamoDB's typed
// semantics, not SQL's loose ones:
// - a number never equals a string; =, <, <=, >, >=, BETWEEN and IN are false when an operand is
//   absent or the types differ; <> is then true;
// - numbers compare as decimals, strings as UTF-8 bytes, binary as unsigned bytes; < and >
//   apply to numbers, strings and binary only;
// - begins_with applies to strings and binary; contains to strings and binary (substring), sets
//   (member) and lists (element); size to strings and binary (bytes), lists, maps and sets;
// - ADD adds to a number (absent counts as 0) or unites sets; on anything else it is a
//   ValidationError, as is list_append on a non-list.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "../../codec/attribute_value_read.hpp"
#include "../../codec/decimal.hpp"
#include "../../error.hpp"
#include "../../expr/expression.hpp"

namespace pksk {

namespace detail {

inline const AttributeValue* resolve(const AttributeValue& item,
                                     const backend::AttributePath& path) {
  const AttributeValue* at = &item;
  for (const backend::AttributePath::Step& step : path.steps) {
    if (step.is_index) {
      if (at->kind != AttributeValue::Kind::list || step.index >= at->list.size()) return nullptr;
      at = &at->list[step.index];
    } else {
      if (at->kind != AttributeValue::Kind::map) return nullptr;
      at = at->find(step.name);
      if (at == nullptr) return nullptr;
    }
  }
  return at;
}
inline AttributeValue* resolve(AttributeValue& item, const backend::AttributePath& path) {
  return const_cast<AttributeValue*>(resolve(std::as_const(item), path));
}

// An operand's value on this item: a view of the item's own attribute or of the operand's value
// (no copy), or empty when its path is absent (or size() of a type that has none).
struct OperandValue {
  const AttributeValue* at = nullptr;
  std::optional<AttributeValue> size;  // what size(path) computed; `at` then points here

  OperandValue() = default;
  OperandValue(const OperandValue&) = delete;
  OperandValue& operator=(const OperandValue&) = delete;
  explicit operator bool() const noexcept { return at != nullptr; }
  const AttributeValue& operator*() const noexcept { return *at; }
  const AttributeValue* operator->() const noexcept { return at; }
};

inline void operand_value(const AttributeValue& item, const backend::Operand& operand,
                          OperandValue& out) {
  out.at = nullptr;
  switch (operand.kind) {
    case backend::Operand::Kind::value:
      out.at = &operand.value;
      return;
    case backend::Operand::Kind::path:
      out.at = resolve(item, operand.path);
      return;
    case backend::Operand::Kind::size: {
      const AttributeValue* v = resolve(item, operand.path);
      if (v == nullptr) return;
      std::size_t n = 0;
      switch (v->kind) {
        case AttributeValue::Kind::string:
        case AttributeValue::Kind::binary:
          n = v->text.size();
          break;
        case AttributeValue::Kind::list:
          n = v->list.size();
          break;
        case AttributeValue::Kind::map:
          n = v->map.size();
          break;
        case AttributeValue::Kind::string_set:
        case AttributeValue::Kind::number_set:
        case AttributeValue::Kind::binary_set:
          n = v->set.size();
          break;
        default:
          return;
      }
      out.at = &out.size.emplace(AttributeValue::from_number(std::to_string(n)));
      return;
    }
  }
}

// A plain decimal ([-]digits[.digits], no exponent: how numbers are written in bodies and by
// the codec) split for comparison as text, without building a backend::Decimal.
struct PlainDecimal {
  bool negative = false;
  std::string_view integer;   // leading zeros dropped
  std::string_view fraction;  // trailing zeros dropped

  // nullopt when the text is not a plain decimal.
  static std::optional<PlainDecimal> split(std::string_view t) noexcept {
    PlainDecimal p;
    if (t.starts_with('-')) {
      p.negative = true;
      t.remove_prefix(1);
    }
    const std::size_t point = t.find('.');
    std::string_view integer = t.substr(0, point);
    std::string_view fraction = point == t.npos ? std::string_view{} : t.substr(point + 1);
    if (integer.empty() && fraction.empty()) return std::nullopt;
    for (const char c : integer) {
      if (c < '0' || c > '9') return std::nullopt;
    }
    for (const char c : fraction) {
      if (c < '0' || c > '9') return std::nullopt;
    }
    while (!integer.empty() && integer.front() == '0') integer.remove_prefix(1);
    while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
    p.integer = integer;
    p.fraction = fraction;
    if (integer.empty() && fraction.empty()) p.negative = false;  // -0 is 0
    return p;
  }

  friend int compare(const PlainDecimal& x, const PlainDecimal& y) noexcept {
    if (x.negative != y.negative) return x.negative ? -1 : 1;
    int magnitude = 0;
    if (x.integer.size() != y.integer.size()) {
      magnitude = x.integer.size() < y.integer.size() ? -1 : 1;
    } else if (const int c = x.integer.compare(y.integer); c != 0) {
      magnitude = c < 0 ? -1 : 1;
    } else if (const int f = x.fraction.compare(y.fraction); f != 0) {
      magnitude = f < 0 ? -1 : 1;
    }
    return x.negative ? -magnitude : magnitude;
  }
};

// Two plain decimals compared exactly as text: the common case, which a filter meets once per
// row. nullopt when either is not plain.
inline std::optional<int> order_short_numbers(std::string_view a, std::string_view b) noexcept {
  const std::optional<PlainDecimal> x = PlainDecimal::split(a);
  if (!x) return std::nullopt;
  const std::optional<PlainDecimal> y = PlainDecimal::split(b);
  if (!y) return std::nullopt;
  return compare(*x, *y);
}

// -1, 0, 1, or nullopt when the two cannot be ordered (different types, or not N or S).
inline std::optional<int> order(const AttributeValue& a, const AttributeValue& b) {
  using Kind = AttributeValue::Kind;
  if (a.kind != b.kind) return std::nullopt;
  if (a.kind == Kind::number) {
    if (const auto fast = order_short_numbers(a.text, b.text)) return fast;
    const auto x = backend::Decimal::parse(a.text);
    const auto y = backend::Decimal::parse(b.text);
    if (!x || !y) return std::nullopt;
    return compare(*x, *y);
  }
  if (a.kind == Kind::string || a.kind == Kind::binary) {  // bytes, unsigned
    const int c = std::string_view(a.text).compare(b.text);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return std::nullopt;
}

}  // namespace detail

namespace backend {

// Whether the condition holds on the item (a map of every attribute).
// Throws: only std::bad_alloc (a condition that cannot hold is false, as in DynamoDB).
// Exception safety: strong (it changes nothing).
inline bool evaluate(const Condition& condition, const AttributeValue& item) {
  using Op = Condition::Op;
  // Views of the operands, not copies: evaluated once per row by a filter.
  const auto value = [&](std::size_t i, detail::OperandValue& out) -> detail::OperandValue& {
    detail::operand_value(item, condition.operands[i], out);
    return out;
  };
  detail::OperandValue v0, v1, v2;
  switch (condition.op) {
    case Op::all:
      for (const Condition& c : condition.children) {
        if (!evaluate(c, item)) return false;
      }
      return true;
    case Op::any:
      for (const Condition& c : condition.children) {
        if (evaluate(c, item)) return true;
      }
      return false;
    case Op::negate:
      return !evaluate(condition.children.at(0), item);
    case Op::exists:
      return detail::resolve(item, condition.operands.at(0).path) != nullptr;
    case Op::not_exists:
      return detail::resolve(item, condition.operands.at(0).path) == nullptr;
    case Op::eq:
    case Op::ne: {
      const auto& a = value(0, v0);
      const auto& b = value(1, v1);
      const bool equal = a && b && *a == *b;
      return condition.op == Op::eq ? equal : !equal;
    }
    case Op::lt:
    case Op::le:
    case Op::gt:
    case Op::ge: {
      const auto& a = value(0, v0);
      const auto& b = value(1, v1);
      if (!a || !b) return false;
      const auto c = detail::order(*a, *b);
      if (!c) return false;
      switch (condition.op) {
        case Op::lt:
          return *c < 0;
        case Op::le:
          return *c <= 0;
        case Op::gt:
          return *c > 0;
        default:
          return *c >= 0;
      }
    }
    case Op::between: {
      const auto& a = value(0, v0);
      const auto& low = value(1, v1);
      const auto& high = value(2, v2);
      if (!a || !low || !high) return false;
      const auto above = detail::order(*a, *low);
      const auto below = detail::order(*a, *high);
      return above && below && *above >= 0 && *below <= 0;
    }
    case Op::in: {
      const auto& a = value(0, v0);
      if (!a) return false;
      for (std::size_t i = 1; i < condition.operands.size(); ++i) {
        const auto& candidate = value(i, v1);
        if (candidate && *a == *candidate) return true;
      }
      return false;
    }
    case Op::begins_with: {
      const auto& a = value(0, v0);
      const auto& prefix = value(1, v1);
      return a && prefix &&
             (a->kind == AttributeValue::Kind::string || a->kind == AttributeValue::Kind::binary) &&
             prefix->kind == a->kind && a->text.starts_with(prefix->text);
    }
    case Op::contains: {
      const auto& a = value(0, v0);
      const auto& operand = value(1, v1);
      if (!a || !operand) return false;
      switch (a->kind) {
        case AttributeValue::Kind::string:
        case AttributeValue::Kind::binary:
          return operand->kind == a->kind && a->text.find(operand->text) != std::string::npos;
        case AttributeValue::Kind::string_set:
          return operand->kind == AttributeValue::Kind::string &&
                 std::binary_search(a->set.begin(), a->set.end(), operand->text);
        case AttributeValue::Kind::binary_set:
          return operand->kind == AttributeValue::Kind::binary &&
                 std::binary_search(a->set.begin(), a->set.end(), operand->text);
        case AttributeValue::Kind::number_set:
          return operand->kind == AttributeValue::Kind::number &&
                 std::binary_search(a->set.begin(), a->set.end(), operand->text,
                                    detail::number_text_less);
        case AttributeValue::Kind::list:
          for (const AttributeValue& e : a->list) {
            if (e == *operand) return true;
          }
          return false;
        default:
          return false;
      }
    }
  }
  return false;
}

}  // namespace backend

namespace detail {

// The parent container of the path's last step, created for top-level attributes only: as in
// DynamoDB, SET a.b = 1 needs a to exist.
inline AttributeValue* parent_of(AttributeValue& item, const backend::AttributePath& path) {
  AttributeValue* at = &item;
  for (std::size_t i = 0; i + 1 < path.steps.size(); ++i) {
    const backend::AttributePath::Step& step = path.steps[i];
    AttributeValue* next = nullptr;
    if (step.is_index) {
      if (at->kind == AttributeValue::Kind::list && step.index < at->list.size()) {
        next = &at->list[step.index];
      }
    } else if (at->kind == AttributeValue::Kind::map) {
      next = at->find(step.name);
    }
    if (next == nullptr) return nullptr;
    at = next;
  }
  return at;
}

[[noreturn]] inline void invalid_update(const backend::UpdateAction& action,
                                        const std::string& why) {
  throw ValidationError("pksk: update of " + action.path.to_string() + ": " + why);
}

inline void assign_at(AttributeValue& item, const backend::UpdateAction& action,
                      AttributeValue value) {
  AttributeValue* parent = parent_of(item, action.path);
  if (parent == nullptr) {
    invalid_update(action, "the document path does not exist in the item");
  }
  const backend::AttributePath::Step& last = action.path.steps.back();
  if (last.is_index) {
    if (parent->kind != AttributeValue::Kind::list)
      invalid_update(action, "the path is not a list");
    // DynamoDB appends when the index is past the end.
    if (last.index < parent->list.size()) {
      parent->list[last.index] = std::move(value);
    } else {
      parent->list.push_back(std::move(value));
    }
  } else {
    if (parent->kind != AttributeValue::Kind::map) invalid_update(action, "the path is not a map");
    parent->assign(last.name, std::move(value));
  }
}

}  // namespace detail

namespace backend {

// Applies one update action to the item, as DynamoDB's UpdateItem does.
// Throws: ValidationError for an action DynamoDB refuses (a document path that does not exist in
// the item or goes through what is not a map or list, an empty attribute name, ADD to an attribute
// of another type or past DynamoDB's number range, list_append on a non-list).
// Exception safety: basic: the item may hold part of the action; the SQLite backend applies the
// actions inside a transaction it rolls back on failure.
inline void apply(const UpdateAction& action, AttributeValue& item) {
  using Kind = UpdateAction::Kind;
  // DynamoDB refuses an empty attribute name; and the SQLite body marks binary values and typed
  // sets with a member named "", which an attribute of that name would mimic.
  for (const AttributePath::Step& step : action.path.steps) {
    if (!step.is_index && step.name.empty()) [[unlikely]]
      detail::invalid_update(action, "an attribute name in the path is empty");
  }
  // A value replaced where it stands is copied over the old one, which keeps its buffers, with
  // no temporary moved in.
  AttributeValue* current = detail::resolve(item, action.path);
  switch (action.kind) {
    case Kind::set:
      if (current != nullptr)
        *current = action.value;
      else
        detail::assign_at(item, action, action.value);
      return;
    case Kind::set_if_not_exists:
      if (current == nullptr) detail::assign_at(item, action, action.value);
      return;
    case Kind::remove: {
      if (current == nullptr) return;
      AttributeValue* parent = detail::parent_of(item, action.path);
      const AttributePath::Step& last = action.path.steps.back();
      if (last.is_index) {
        parent->list.erase(parent->list.begin() + static_cast<std::ptrdiff_t>(last.index));
      } else {
        parent->erase(last.name);
      }
      return;
    }
    case Kind::add: {
      if (action.value.kind == AttributeValue::Kind::number) {
        if (current == nullptr) {
          detail::assign_at(item, action, action.value);
          return;
        }
        if (current->kind != AttributeValue::Kind::number) {
          detail::invalid_update(action, std::string("ADD of a number to an attribute of type ") +
                                             to_string(current->kind));
        }
        if (detail::add_plain_numbers(current->text, action.value.text, current->text)) return;
        const auto stored = Decimal::parse(current->text);
        const auto added = Decimal::parse(action.value.text);
        if (!stored || !added) detail::invalid_update(action, "ADD of a malformed number");
        const Decimal sum = *stored + *added;
        if (!sum.fits_dynamodb())
          detail::invalid_update(action, "the sum is outside DynamoDB's number range");
        current->text = sum.to_string();
        return;
      }
      // A set, united with a set of its own type (a plain body's string set is an array).
      if (current == nullptr) {
        detail::assign_at(item, action, action.value);
        return;
      }
      const AttributeValue::Kind set_kind = action.value.kind;
      AttributeValue existing =
          set_kind == AttributeValue::Kind::string_set ? current->as_string_set() : *current;
      if (existing.kind != set_kind) {
        detail::invalid_update(action, std::string("ADD of a set of type ") + to_string(set_kind) +
                                           " to an attribute of type " + to_string(current->kind));
      }
      std::vector<std::string> united = existing.set;
      united.insert(united.end(), action.value.set.begin(), action.value.set.end());
      AttributeValue result = set_kind == AttributeValue::Kind::number_set
                                  ? AttributeValue::from_number_set(std::move(united))
                              : set_kind == AttributeValue::Kind::binary_set
                                  ? AttributeValue::from_binary_set(std::move(united))
                                  : AttributeValue::from_set(std::move(united));
      detail::assign_at(item, action, std::move(result));
      return;
    }
    case Kind::append: {
      if (current == nullptr) {
        detail::assign_at(item, action, action.value);
        return;
      }
      if (current->kind != AttributeValue::Kind::list) {
        detail::invalid_update(
            action, std::string("list_append to an attribute of type ") + to_string(current->kind));
      }
      AttributeValue joined = *current;
      joined.list.insert(joined.list.end(), action.value.list.begin(), action.value.list.end());
      detail::assign_at(item, action, std::move(joined));
      return;
    }
  }
}

}  // namespace backend

}  // namespace pksk
