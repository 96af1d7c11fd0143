// SPDX-License-Identifier: BSL-1.0
#pragma once
// The raw expression tree: what conditions, filters, checks and updates are once the typed
// front end (attr.hpp) has checked them against the entity. Backends see only this: the SQLite
// backend evaluates it on the stored item (backend/emulation/evaluate.hpp), the DynamoDB
// backend renders it into expression strings with #name / :value placeholders.

#include <cstddef>
#include <string>
#include <vector>

#include "../codec/attribute_value.hpp"

namespace pksk::backend {

// A document path: top-level attribute, then members and list indexes ("items[1].qty").
struct AttributePath {
  struct Step {
    std::string name{};  // empty for an index step
    std::size_t index = 0;
    bool is_index = false;
    friend bool operator==(const Step&, const Step&) = default;
  };
  std::vector<Step> steps{};

  friend bool operator==(const AttributePath&, const AttributePath&) = default;

  std::string to_string() const {
    std::string out;
    for (const Step& s : steps) {
      if (s.is_index) {
        out += '[' + std::to_string(s.index) + ']';
      } else {
        if (!out.empty()) out += '.';
        out += s.name;
      }
    }
    return out;
  }
};

struct Operand {
  enum class Kind : unsigned char { path, value, size };  // size: size(path)
  Kind kind = Kind::value;
  AttributePath path{};
  AttributeValue value{};
};

struct Condition {
  enum class Op : unsigned char {
    eq,
    ne,
    lt,
    le,
    gt,
    ge,
    between,      // operands: a, low, high
    in,           // operands: a, then the candidates
    all,          // children: every one holds (AND)
    any,          // children: one holds (OR)
    negate,       // children[0] does not hold (NOT)
    begins_with,  // operands: path, prefix
    contains,     // operands: path, operand
    exists,       // operands: path
    not_exists,   // operands: path
  };
  Op op = Op::all;
  std::vector<Operand> operands{};
  std::vector<Condition> children{};
};

// One action of an update, as DynamoDB's UpdateExpression has them.
struct UpdateAction {
  enum class Kind : unsigned char {
    set,                // SET path = value
    set_if_not_exists,  // SET path = if_not_exists(path, value)
    add,                // ADD path value: numbers add (absent counts as 0), sets unite
    remove,             // REMOVE path
    append,             // SET path = list_append(if_not_exists(path, []), value)
  };
  Kind kind = Kind::set;
  AttributePath path{};
  AttributeValue value{};
};

}  // namespace pksk::backend
