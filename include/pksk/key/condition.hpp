// SPDX-License-Identifier: BSL-1.0
#pragma once
// Sort-key conditions of a query, as DynamoDB's KeyConditionExpression has them. Keys are
// compared as bytes (UTF-8 code units); between is inclusive; begins_with is a byte prefix.
// These take key text; typed_condition.hpp (pksk::sort_key_of<T>) makes them from an entity's
// members, formatted by its sort-key template.

#include <string>
#include <string_view>

namespace pksk {

// The sort key a typed condition (sort_key_of<T>, typed_condition.hpp) was formatted for: its
// text means something only there, so a query checks it reads that entity in that key space
// (the table, or the index named) rather than silently matching nothing.
struct KeySpace {
  std::string_view entity{};             // Entity<T>::type
  std::string_view index{};              // empty: the table's sort key
  std::string_view sort_key_template{};  // the template it was formatted by
};

// A condition on the sort key of a query, as DynamoDB's KeyConditionExpression has: made by eq, lt,
// le, gt, ge, between and begins_with (or typed, from members: key/typed_condition.hpp).
struct KeyCondition {
  // The comparison: any (no condition), =, <, <=, >, >=, BETWEEN, begins_with, by bytes.
  enum class Op : unsigned char { any, eq, lt, le, gt, ge, between, begins_with };
  // Which comparison.
  Op op = Op::any;
  std::string first{};   // the operand; the lower bound of between; the prefix of begins_with
  std::string second{};  // the upper bound of between
  // Set by sort_key_of<T>'s conditions (static storage); null for key text given by hand.
  const KeySpace* built_for = nullptr;

  // The same condition sent to a backend: what it was built for does not change what it is.
  // Throws: nothing.
  // Exception safety: nothrow.
  friend bool operator==(const KeyCondition& a, const KeyCondition& b) noexcept {
    return a.op == b.op && a.first == b.first && a.second == b.second;
  }
};

// Sort key equal to `sk`.
// Throws: nothing (the string is moved).
// Exception safety: nothrow.
inline KeyCondition eq(std::string sk) {
  return {KeyCondition::Op::eq, std::move(sk), {}, nullptr};
}
// Sort key below `sk`, bytewise.
// Throws: nothing (the string is moved).
// Exception safety: nothrow.
inline KeyCondition lt(std::string sk) {
  return {KeyCondition::Op::lt, std::move(sk), {}, nullptr};
}
// Sort key at most `sk`, bytewise.
// Throws: nothing (the string is moved).
// Exception safety: nothrow.
inline KeyCondition le(std::string sk) {
  return {KeyCondition::Op::le, std::move(sk), {}, nullptr};
}
// Sort key above `sk`, bytewise.
// Throws: nothing (the string is moved).
// Exception safety: nothrow.
inline KeyCondition gt(std::string sk) {
  return {KeyCondition::Op::gt, std::move(sk), {}, nullptr};
}
// Sort key at least `sk`, bytewise.
// Throws: nothing (the string is moved).
// Exception safety: nothrow.
inline KeyCondition ge(std::string sk) {
  return {KeyCondition::Op::ge, std::move(sk), {}, nullptr};
}
// Sort key in [low, high], both included; low above high is a ValidationError when queried.
// Throws: nothing (the string is moved).
// Exception safety: nothrow.
inline KeyCondition between(std::string low, std::string high) {
  return {KeyCondition::Op::between, std::move(low), std::move(high), nullptr};
}
// Sort key starting with `prefix`.
// Throws: nothing (the string is moved).
// Exception safety: nothrow.
inline KeyCondition begins_with(std::string prefix) {
  return {KeyCondition::Op::begins_with, std::move(prefix), {}, nullptr};
}

}  // namespace pksk

namespace pksk {

// Whether a sort key satisfies the condition, by the same byte comparisons a backend makes.
// Throws: nothing.
// Exception safety: nothrow.
inline bool matches(const KeyCondition& condition, std::string_view sk) noexcept {
  using Op = KeyCondition::Op;
  switch (condition.op) {
    case Op::any:
      return true;
    case Op::eq:
      return sk == condition.first;
    case Op::lt:
      return sk < condition.first;
    case Op::le:
      return sk <= condition.first;
    case Op::gt:
      return sk > condition.first;
    case Op::ge:
      return sk >= condition.first;
    case Op::between:
      return condition.first <= sk && sk <= condition.second;
    case Op::begins_with:
      return sk.starts_with(condition.first);
  }
  return false;
}

}  // namespace pksk
