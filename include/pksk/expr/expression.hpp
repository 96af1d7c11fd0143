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
  // One step of the path: a member by name, or a list element by index.
  struct Step {
    std::string name{};  // empty for an index step
    // The list index, for an index step.
    std::size_t index = 0;
    // Whether this step is a list index.
    bool is_index = false;
    friend bool operator==(const Step&, const Step&) = default;
  };
  // The steps, the top-level attribute first.
  std::vector<Step> steps{};

  friend bool operator==(const AttributePath&, const AttributePath&) = default;

  // The path as DynamoDB writes it: items[1].qty.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
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

// One operand of a condition: an attribute path, a value, or size(path).
struct Operand {
  // Which of the three the operand is.
  enum class Kind : unsigned char { path, value, size };  // size: size(path)
  // Which of the three.
  Kind kind = Kind::value;
  // The path, for path and size.
  AttributePath path{};
  // The value, for value.
  AttributeValue value{};
};

// A condition of DynamoDB's ConditionExpression or FilterExpression, as a tree: comparisons on
// operands, and all/any/negate over children.
struct Condition {
  // The comparison or combination; the comments say what the operands or children are.
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
  // Which comparison or combination.
  Op op = Op::all;
  // The comparison's operands, in its order.
  std::vector<Operand> operands{};
  // The conditions all, any and negate combine.
  std::vector<Condition> children{};
};

// One action of an update, as DynamoDB's UpdateExpression has them.
struct UpdateAction {
  // Which UpdateExpression clause the action is.
  enum class Kind : unsigned char {
    set,                // SET path = value
    set_if_not_exists,  // SET path = if_not_exists(path, value)
    add,                // ADD path value: numbers add (absent counts as 0), sets unite
    remove,             // REMOVE path
    append,             // SET path = list_append(if_not_exists(path, []), value)
  };
  // Which clause.
  Kind kind = Kind::set;
  // The attribute the action changes.
  AttributePath path{};
  // The value set, added or appended (none for remove).
  AttributeValue value{};
};

}  // namespace pksk::backend
