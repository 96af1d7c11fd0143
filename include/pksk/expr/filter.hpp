// SPDX-License-Identifier: BSL-1.0
#pragma once
// Filters of queries and scans: the typed conditions of attr.hpp (an Expr<T> converts to a
// Filter), plus conditions on the sort key (contains(sort_key, "..."), begins_with(sort_key,
// "...")) and on the entity type (type_is<Order>()). A Filter is untyped, so filters on
// different entities combine with &&, || and !, as a collection query needs:
//
//   .filter = pksk::type_is<Customer>() || pksk::attr(&Order::total) > 100.0
//
// A condition on T's members holds only for items of type T: in a collection query, an item of
// another type lacks T's attributes, and a filter on them is false for it, whatever the
// operator (attr(&Order::status) != "x" does not keep a Customer). The filter is the same raw
// tree (expression.hpp) that the SQLite backend evaluates per row and the DynamoDB backend
// renders as FilterExpression. The key and type attributes' names belong to the table
// (TableOptions), so the tree names them by placeholders that Table replaces per query.

#include <string>
#include <string_view>
#include <utility>

#include "../key/entity.hpp"
#include "../key/key.hpp"
#include "attr.hpp"
#include "expression.hpp"

namespace pksk {

namespace detail {
// Stand-ins for the table's attribute names; no member can be named so (a control byte).
inline constexpr std::string_view sort_key_marker = "\x01sk";
inline constexpr std::string_view type_marker = "\x01type";

inline backend::Operand marker_operand(std::string_view marker) {
  return {
      backend::Operand::Kind::path, backend::AttributePath{{{std::string(marker), 0, false}}}, {}};
}
}  // namespace detail

// A query's or scan's filter (DynamoDB's FilterExpression): a condition on members of one entity,
// on the sort key or the type, or a combination of them with &&, || and !.
class Filter {
 public:
  Filter() = default;

  // A condition on T's members: it holds for items of type T only.
  // Throws: nothing (the condition is moved).
  // Exception safety: nothrow.
  template <class T>
  Filter(Expr<T> expr)  // NOLINT(google-explicit-constructor): `.filter = expr` reads best
      : node_(std::move(expr.node)), scope_(type_name_v<T>), present_(true), marked_(true) {}

  // A raw condition on the stored item's attributes, key and type attributes by their names.
  // Throws: nothing (the condition is moved).
  // Exception safety: nothrow.
  static Filter raw(backend::Condition condition) {
    Filter f;
    f.node_ = std::move(condition);
    f.present_ = true;
    return f;
  }

  // Whether there is no condition: every item passes.
  // Throws: nothing.
  // Exception safety: nothrow.
  bool empty() const noexcept { return !present_; }

  // The condition, its entity scope included, with the placeholders left in place.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  backend::Condition scoped() const {
    if (scope_.empty()) return node_;
    backend::Condition out{backend::Condition::Op::all, {}, {}};
    out.children.push_back(type_equals(scope_));
    out.children.push_back(node_);
    return out;
  }

  // The condition for a table whose sort key and type attributes are named so; the entity scope
  // is left out when the query reads only items of that entity anyway.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  backend::Condition resolve(std::string_view sk_attribute, std::string_view type_attribute,
                             std::string_view only_type = {}) const {
    backend::Condition out = (!scope_.empty() && scope_ == only_type) ? node_ : scoped();
    if (marked_) rename(out, sk_attribute, type_attribute);
    return out;
  }

  // The entity whose members the condition names, or empty (a combination, a sort-key or type
  // condition).
  // Throws: nothing.
  // Exception safety: nothrow.
  std::string_view scope() const noexcept { return scope_; }

  // Filters on different entities combine (namespace-scope operators below, so that
  // Expr<Order> && Expr<Customer> finds them too).
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  static Filter join(backend::Condition::Op op, const Filter& a, const Filter& b);
  // The filter that passes what `a` rejects (its entity scope included in what is negated).
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  static Filter negate(const Filter& a) {
    Filter out;
    out.node_ = {backend::Condition::Op::negate, {}, {}};
    out.node_.children.push_back(a.scoped());
    out.present_ = true;
    out.marked_ = a.marked_;
    return out;
  }

  // The condition that the item's type attribute is `type`.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  static backend::Condition type_equals(std::string_view type) {
    backend::Condition c{backend::Condition::Op::eq, {}, {}};
    c.operands.push_back(detail::marker_operand(detail::type_marker));
    c.operands.push_back(
        {backend::Operand::Kind::value, {}, AttributeValue::from_string(std::string(type))});
    return c;
  }

  // Internal: used by sort_key and type_is.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  static Filter marked(backend::Condition condition) {
    Filter f = raw(std::move(condition));
    f.marked_ = true;
    return f;
  }

 private:
  static void rename(backend::Condition& c, std::string_view sk_attribute,
                     std::string_view type_attribute) {
    for (backend::Operand& o : c.operands) {
      if (o.kind == backend::Operand::Kind::value || o.path.steps.empty()) continue;
      std::string& name = o.path.steps.front().name;
      if (name == detail::sort_key_marker) {
        name = sk_attribute;
      } else if (name == detail::type_marker) {
        name = type_attribute;
      }
    }
    for (backend::Condition& child : c.children) rename(child, sk_attribute, type_attribute);
  }

  backend::Condition node_;
  std::string_view scope_;  // type_name_v<T>: static storage
  bool present_ = false;
  bool marked_ = false;  // holds a placeholder for the sort key or type attribute
};

inline Filter Filter::join(backend::Condition::Op op, const Filter& a, const Filter& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  Filter out;
  out.node_ = {op, {}, {}};
  for (const Filter* part : {&a, &b}) {
    backend::Condition c = part->scoped();
    if (c.op == op) {
      for (backend::Condition& child : c.children) out.node_.children.push_back(std::move(child));
    } else {
      out.node_.children.push_back(std::move(c));
    }
  }
  out.present_ = true;
  out.marked_ = a.marked_ || b.marked_;
  return out;
}

// Both filters hold (an empty one is left out).
// Throws: only std::bad_alloc.
// Exception safety: strong.
inline Filter operator&&(const Filter& a, const Filter& b) {
  return Filter::join(backend::Condition::Op::all, a, b);
}
// Either filter holds (an empty one is left out).
// Throws: only std::bad_alloc.
// Exception safety: strong.
inline Filter operator||(const Filter& a, const Filter& b) {
  return Filter::join(backend::Condition::Op::any, a, b);
}
// The filter does not hold.
// Throws: only std::bad_alloc.
// Exception safety: strong.
inline Filter operator!(const Filter& a) {
  return Filter::negate(a);
}

// pksk::sort_key (key/key.hpp) names the item's sort key: contains(sort_key, "#inventory::").

// The sort key holds `text` anywhere (DynamoDB's contains on a string).
// Throws: only std::bad_alloc.
// Exception safety: strong.
inline Filter contains(SortKeyTag, std::string text) {
  return Filter::marked(
      detail::binary<void>(backend::Condition::Op::contains,
                           detail::marker_operand(detail::sort_key_marker),
                           detail::value_operand(AttributeValue::from_string(std::move(text))))
          .node);
}

// The sort key starts with `prefix`. In a query prefer the key condition (.sk =
// pksk::begins_with(...)), which reads only the matching range; as a filter it is for a scan,
// or for a second prefix within a range.
// Throws: only std::bad_alloc.
// Exception safety: strong.
inline Filter begins_with(SortKeyTag, std::string prefix) {
  return Filter::marked(
      detail::binary<void>(backend::Condition::Op::begins_with,
                           detail::marker_operand(detail::sort_key_marker),
                           detail::value_operand(AttributeValue::from_string(std::move(prefix))))
          .node);
}

// Items of entity T only (their type attribute is T's discriminator): in a collection query,
// type_is<Customer>() || attr(&Order::total) > 100.0 keeps the customer and the large orders.
// Throws: only std::bad_alloc.
// Exception safety: strong.
template <EntityType T>
Filter type_is() {
  return Filter::marked(Filter::type_equals(type_name_v<T>));
}

}  // namespace pksk
