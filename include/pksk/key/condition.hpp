// SPDX-License-Identifier: BSL-1.0
#pragma once
// Sort-key conditions of a query, as DynamoDB's KeyConditionExpression has them. Keys are
// compared as bytes (UTF-8 code units); between is inclusive; begins_with is a byte prefix.
// These take key text; typed_condition.hpp (pksk::sort_key_of<T>) makes them from an entity's
// members, formatted by its sort-key template.

#include <string>
#include <string_view>

namespace pksk {

struct KeyCondition {
  enum class Op : unsigned char { any, eq, lt, le, gt, ge, between, begins_with };
  Op op = Op::any;
  std::string first{};   // the operand; the lower bound of between; the prefix of begins_with
  std::string second{};  // the upper bound of between

  friend bool operator==(const KeyCondition&, const KeyCondition&) = default;
};

inline KeyCondition eq(std::string sk) {
  return {KeyCondition::Op::eq, std::move(sk), {}};
}
inline KeyCondition lt(std::string sk) {
  return {KeyCondition::Op::lt, std::move(sk), {}};
}
inline KeyCondition le(std::string sk) {
  return {KeyCondition::Op::le, std::move(sk), {}};
}
inline KeyCondition gt(std::string sk) {
  return {KeyCondition::Op::gt, std::move(sk), {}};
}
inline KeyCondition ge(std::string sk) {
  return {KeyCondition::Op::ge, std::move(sk), {}};
}
inline KeyCondition between(std::string low, std::string high) {
  return {KeyCondition::Op::between, std::move(low), std::move(high)};
}
inline KeyCondition begins_with(std::string prefix) {
  return {KeyCondition::Op::begins_with, std::move(prefix), {}};
}

}  // namespace pksk

namespace pksk {

// Whether a sort key satisfies the condition, by the same byte comparisons a backend makes.
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
