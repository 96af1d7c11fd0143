// SPDX-License-Identifier: BSL-1.0
#pragma once
// Expression trees as DynamoDB's expression language. One walk serves two ends: with
// placeholders (#n0 for every name, :v0 for every value, as requests need them: many attribute
// names, such as status, count or date, are reserved words), or inline (names and values
// written out) for error messages.

#include <charconv>
#include <cstddef>
#include <forward_list>
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
// once per use. A value given as an lvalue is referred to, not copied: it must live until
// append_json has written it (a request's own conditions and actions do).
class ExpressionPlaceholders {
 public:
  // The placeholder of an attribute name, #n0, the same for the same name.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  std::string name(std::string_view attribute) {
    std::string out;
    append_name(out, attribute);
    return out;
  }
  // A value is referred to, not copied (a request's values outlive its rendering); one made for
  // the request alone (a key condition's text) is kept here.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  std::string value(const AttributeValue& v) {
    std::string out;
    append_value(out, v);
    return out;
  }
  // A value made for the request alone, kept here until the request is written.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  std::string value(AttributeValue&& v) {
    owned_.push_front(std::move(v));
    return value(owned_.front());
  }

  // The placeholders appended where the text is being written: #n0 for each distinct name, :v0
  // for each value.
  // Throws: only std::bad_alloc.
  // Exception safety: basic: out may hold part of the text.
  void append_name(std::string& out, std::string_view attribute) {
    std::size_t i = 0;
    while (i < names_.size() && names_[i] != attribute) ++i;
    if (i == names_.size()) names_.emplace_back(attribute);
    out += "#n";
    append_index(out, i);
  }
  // Appends a value's placeholder, :v0; `v` must live until append_json has written it.
  // Throws: only std::bad_alloc.
  // Exception safety: basic: out may hold part of the text.
  void append_value(std::string& out, const AttributeValue& v) {
    values_.push_back(&v);
    out += ":v";
    append_index(out, values_.size() - 1);
  }
  // As append_value, the value kept here.
  // Throws: only std::bad_alloc.
  // Exception safety: basic: out may hold part of the text.
  void append_value(std::string& out, AttributeValue&& v) {
    owned_.push_front(std::move(v));
    append_value(out, owned_.front());
  }

  // Whether no placeholder was handed out.
  // Throws: nothing.
  // Exception safety: nothrow.
  bool empty() const noexcept { return names_.empty() && values_.empty(); }
  // The names, by placeholder number.
  // Throws: nothing.
  // Exception safety: nothrow.
  const std::vector<std::string>& names() const noexcept { return names_; }
  // The values, by placeholder number.
  // Throws: nothing.
  // Exception safety: nothrow.
  const std::vector<const AttributeValue*>& values() const noexcept { return values_; }

  // "ExpressionAttributeNames":{...},"ExpressionAttributeValues":{...} (each only when
  // non-empty), with a leading comma, ready to close a request object.
  // Throws: only std::bad_alloc.
  // Exception safety: basic: out may hold part of the text.
  void append_json(std::string& out) const {
    if (!names_.empty()) {
      out += ",\"ExpressionAttributeNames\":{";
      for (std::size_t i = 0; i < names_.size(); ++i) {
        out += i == 0 ? "\"#n" : ",\"#n";
        append_index(out, i);
        out += "\":";
        detail::append_json_string(out, names_[i]);
      }
      out += '}';
    }
    if (!values_.empty()) {
      out += ",\"ExpressionAttributeValues\":{";
      for (std::size_t i = 0; i < values_.size(); ++i) {
        out += i == 0 ? "\":v" : ",\":v";
        append_index(out, i);
        out += "\":";
        append_attribute_value_json(out, *values_[i]);
      }
      out += '}';
    }
  }

 private:
  static void append_index(std::string& out, std::size_t i) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, i).ptr;
    out.append(digits, static_cast<std::size_t>(end - digits));
  }

  std::vector<std::string> names_;
  std::vector<const AttributeValue*> values_;
  std::forward_list<AttributeValue> owned_;  // the values made for the request: addresses kept
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
  void append_name(std::string& out, std::string_view attribute) { out += attribute; }
  void append_value(std::string& out, const AttributeValue& v) { append_plain_json(out, v); }
};

template <class Names>
void append_path(std::string& out, const backend::AttributePath& path, Names& names) {
  bool first = true;
  for (const backend::AttributePath::Step& step : path.steps) {
    if (step.is_index) {
      out += '[';
      out += std::to_string(step.index);
      out += ']';
    } else {
      if (!first) out += '.';
      names.append_name(out, step.name);
    }
    first = false;
  }
}

template <class Names>
std::string render_path(const backend::AttributePath& path, Names& names) {
  std::string out;
  append_path(out, path, names);
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
  // Each clause is written where it goes, its placeholders appended in place: an update's
  // expression is rendered for every request.
  static const AttributeValue empty_list = AttributeValue::empty_list();
  std::string set, add, remove;
  const auto render = [&](const backend::UpdateAction& a) {
    using Kind = backend::UpdateAction::Kind;
    std::string& to = a.kind == Kind::add ? add : a.kind == Kind::remove ? remove : set;
    if (!to.empty()) to += ", ";
    const std::size_t path_at = to.size();
    append_path(to, a.path, names);
    const std::size_t path_size = to.size() - path_at;
    switch (a.kind) {
      case Kind::set:
        to += " = ";
        names.append_value(to, a.value);
        break;
      case Kind::set_if_not_exists:
        to += " = if_not_exists(";
        to.append(to, path_at, path_size);
        to += ", ";
        names.append_value(to, a.value);
        to += ')';
        break;
      case Kind::append:
        to += " = list_append(if_not_exists(";
        to.append(to, path_at, path_size);
        to += ", ";
        names.append_value(to, empty_list);
        to += "), ";
        names.append_value(to, a.value);
        to += ')';
        break;
      case Kind::add:
        to += ' ';
        names.append_value(to, a.value);
        break;
      case Kind::remove:
        break;
    }
  };
  for (const backend::UpdateAction& a : actions) render(a);
  if (last != nullptr) render(*last);
  std::string out;
  out.reserve(set.size() + add.size() + remove.size() + 20);
  const auto section = [&](std::string_view keyword, const std::string& body) {
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
// Throws: only std::bad_alloc.
// Exception safety: basic: names may hold placeholders of part of it.
inline std::string render_condition(const Condition& c, ExpressionPlaceholders& names) {
  return detail::render_condition(c, names);
}
// DynamoDB's UpdateExpression text (SET ..., REMOVE ..., ADD ...), placeholders in `names`.
// Throws: only std::bad_alloc.
// Exception safety: basic: names may hold placeholders of part of it.
inline std::string render_update(std::span<const UpdateAction> actions,
                                 ExpressionPlaceholders& names) {
  return detail::render_update(actions, names);
}

// The condition as a person reads it, for messages: `status = "pending"`.
// Throws: only std::bad_alloc.
// Exception safety: strong.
inline std::string describe(const Condition& c) {
  detail::InlineNames names;
  return detail::render_condition(c, names);
}

}  // namespace backend

}  // namespace pksk
