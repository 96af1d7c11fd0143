// SPDX-License-Identifier: BSL-1.0
#pragma once
// Expression trees as DynamoDB's expression language. One walk serves two ends: with
// placeholders (#n0 for every name, :v0 for every value, as requests need them: many attribute
// names, such as status, count or date, are reserved words), or inline (names and values
// written out) for error messages.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../codec/attribute_value_json.hpp"
#include "expression.hpp"

namespace pksk {

namespace backend {

// Placeholders handed out while rendering one request: each distinct name once, each value
// once per use.
class ExpressionPlaceholders {
 public:
  std::string name(std::string_view attribute) {
    for (std::size_t i = 0; i < names_.size(); ++i) {
      if (names_[i] == attribute) return "#n" + std::to_string(i);
    }
    names_.emplace_back(attribute);
    return "#n" + std::to_string(names_.size() - 1);
  }
  std::string value(const AttributeValue& v) {
    values_.push_back(v);
    return ":v" + std::to_string(values_.size() - 1);
  }

  bool empty() const noexcept { return names_.empty() && values_.empty(); }
  const std::vector<std::string>& names() const noexcept { return names_; }
  const std::vector<AttributeValue>& values() const noexcept { return values_; }

  // "ExpressionAttributeNames":{...},"ExpressionAttributeValues":{...} (each only when
  // non-empty), with a leading comma, ready to close a request object.
  void append_json(std::string& out) const {
    if (!names_.empty()) {
      out += ",\"ExpressionAttributeNames\":{";
      for (std::size_t i = 0; i < names_.size(); ++i) {
        if (i) out += ',';
        out += "\"#n" + std::to_string(i) + "\":";
        detail::append_json_string(out, names_[i]);
      }
      out += '}';
    }
    if (!values_.empty()) {
      out += ",\"ExpressionAttributeValues\":{";
      for (std::size_t i = 0; i < values_.size(); ++i) {
        if (i) out += ',';
        out += "\":v" + std::to_string(i) + "\":";
        append_attribute_value_json(out, values_[i]);
      }
      out += '}';
    }
  }

 private:
  std::vector<std::string> names_;
  std::vector<AttributeValue> values_;
};

}  // namespace backend

namespace detail {

// Names and values written out: `status = "pending"`.
struct InlineNames {
  std::string name(std::string_view attribute) { return std::string(attribute); }
  std::string value(const AttributeValue& v) {
    std::string out;
    append_plain_json(out, v);
    return out;
  }
};

template <class Names>
std::string render_path(const backend::AttributePath& path, Names& names) {
  std::string out;
  for (const backend::AttributePath::Step& step : path.steps) {
    if (step.is_index) {
      out += '[' + std::to_string(step.index) + ']';
    } else {
      if (!out.empty()) out += '.';
      out += names.name(step.name);
    }
  }
  return out;
}

template <class Names>
std::string render_operand(const backend::Operand& operand, Names& names) {
  switch (operand.kind) {
    case backend::Operand::Kind::path:
      return render_path(operand.path, names);
    case backend::Operand::Kind::size:
      return "size(" + render_path(operand.path, names) + ")";
    case backend::Operand::Kind::value:
      return names.value(operand.value);
  }
  return {};
}

template <class Names>
std::string render_condition(const backend::Condition& c, Names& names) {
  using Op = backend::Condition::Op;
  // Operands are rendered first, in order: the operands of an overloaded + are unsequenced, and
  // placeholders must be numbered as they appear in the text.
  std::vector<std::string> operand;
  operand.reserve(c.operands.size());
  for (const backend::Operand& o : c.operands) operand.push_back(render_operand(o, names));
  const auto infix = [&](const char* op) { return operand.at(0) + ' ' + op + ' ' + operand.at(1); };
  switch (c.op) {
    case Op::eq:
      return infix("=");
    case Op::ne:
      return infix("<>");
    case Op::lt:
      return infix("<");
    case Op::le:
      return infix("<=");
    case Op::gt:
      return infix(">");
    case Op::ge:
      return infix(">=");
    case Op::between:
      return operand.at(0) + " BETWEEN " + operand.at(1) + " AND " + operand.at(2);
    case Op::in: {
      std::string out = operand.at(0) + " IN (";
      for (std::size_t i = 1; i < operand.size(); ++i) {
        if (i > 1) out += ", ";
        out += operand[i];
      }
      return out + ")";
    }
    case Op::all:
    case Op::any: {
      if (c.children.size() == 1) return render_condition(c.children[0], names);
      std::string out;
      for (std::size_t i = 0; i < c.children.size(); ++i) {
        if (i) out += c.op == Op::all ? " AND " : " OR ";
        out += '(';
        out += render_condition(c.children[i], names);
        out += ')';
      }
      return out;
    }
    case Op::negate:
      return "NOT (" + render_condition(c.children.at(0), names) + ")";
    case Op::begins_with:
      return "begins_with(" + operand.at(0) + ", " + operand.at(1) + ")";
    case Op::contains:
      return "contains(" + operand.at(0) + ", " + operand.at(1) + ")";
    case Op::exists:
      return "attribute_exists(" + operand.at(0) + ")";
    case Op::not_exists:
      return "attribute_not_exists(" + operand.at(0) + ")";
  }
  return {};
}

// The actions, and `last` after them when there is one (a backend's own action, rendered without
// copying the caller's).
template <class Names>
std::string render_update(std::span<const backend::UpdateAction> actions, Names& names,
                          const backend::UpdateAction* last = nullptr) {
  std::string set, add, remove;
  const auto clause = [](std::string& to, const std::string& text) {
    if (!to.empty()) to += ", ";
    to += text;
  };
  const auto render = [&](const backend::UpdateAction& a) {
    const std::string path = render_path(a.path, names);
    switch (a.kind) {
      case backend::UpdateAction::Kind::set: {
        const std::string value = names.value(a.value);
        clause(set, path + " = " + value);
        break;
      }
      case backend::UpdateAction::Kind::set_if_not_exists: {
        const std::string value = names.value(a.value);
        clause(set, path + " = if_not_exists(" + path + ", " + value + ")");
        break;
      }
      case backend::UpdateAction::Kind::append: {
        const std::string empty = names.value(AttributeValue::empty_list());
        const std::string value = names.value(a.value);
        clause(set,
               path + " = list_append(if_not_exists(" + path + ", " + empty + "), " + value + ")");
        break;
      }
      case backend::UpdateAction::Kind::add: {
        const std::string value = names.value(a.value);
        clause(add, path + " " + value);
        break;
      }
      case backend::UpdateAction::Kind::remove:
        clause(remove, path);
        break;
    }
  };
  for (const backend::UpdateAction& a : actions) render(a);
  if (last != nullptr) render(*last);
  std::string out;
  const auto section = [&](const char* keyword, const std::string& body) {
    if (body.empty()) return;
    if (!out.empty()) out += ' ';
    out += keyword;
    out += ' ';
    out += body;
  };
  section("SET", set);
  section("ADD", add);
  section("REMOVE", remove);
  return out;
}

}  // namespace detail

namespace backend {

// DynamoDB's ConditionExpression text, with placeholders registered in `names`.
inline std::string render_condition(const Condition& c, ExpressionPlaceholders& names) {
  return detail::render_condition(c, names);
}
inline std::string render_update(std::span<const UpdateAction> actions,
                                 ExpressionPlaceholders& names) {
  return detail::render_update(actions, names);
}

// The condition as a person reads it, for messages: `status = "pending"`.
inline std::string describe(const Condition& c) {
  detail::InlineNames names;
  return detail::render_condition(c, names);
}

}  // namespace backend

}  // namespace pksk
