#pragma once
// The typed front end of expressions: attr(&Order::total) > 100.0, when(...), if_absent,
// set/add/remove/append/if_not_exists. Values are typed by the member, so
// attr(&Order::total) == "x" does not compile; what comes out is the raw tree of
// expression.hpp, tagged with its entity so that a condition on Customer cannot guard a put
// of an Order.

#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../codec/attribute_value.hpp"
#include "../codec/codec.hpp"
#include "../codec/decimal.hpp"
#include "../error.hpp"
#include "../key/detail/fixed_string.hpp"
#include "../key/diagnose.hpp"
#include "../key/entity.hpp"
#include "../key/key.hpp"
#include "../reflect/detail/std_traits.hpp"
#include "../reflect/member_pointer.hpp"
#include "../reflect/reflect.hpp"
#include "expression.hpp"

namespace pksk {

namespace diagnostics {
// An update of a member the item's key is built from: it would move the item, and DynamoDB
// refuses to update key attributes.
template <class Entity, detail::fixed_string Member>
struct update_changes_a_member_of_the_items_key;
}  // namespace diagnostics

namespace detail {

template <class M>
struct unwrap_optional {
  using type = M;
};
template <class M>
struct unwrap_optional<std::optional<M>> {
  using type = M;
};

template <class M>
inline constexpr bool is_number_member_v =
    (std::is_arithmetic_v<M> && !std::is_same_v<M, bool> && !is_char_v<M>);

// Which field of T a pointer to member names: compared by address on one default T, so it
// works for aggregates and Hana-adapted structs alike. Done once per expression, not per item.
template <class T, class M>
std::size_t member_index(M T::*member) {
  const T& record = default_record<T>();
  const void* target = &(record.*member);
  std::size_t found = field_count_v<T>;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (void)((std::is_same_v<field_type_t<T, I>, M> &&
            static_cast<const void*>(&get_field<I>(record)) == target && (found = I, true)) ||
           ...);
  }(std::make_index_sequence<field_count_v<T>>{});
  if (found == field_count_v<T>) {
    throw Error(
        "pksk: the member pointer names a member that pksk does not map (a Hana-adapted "
        "struct lists only its adapted members)");
  }
  return found;
}

template <auto Member, std::size_t Index = member_index_of<Member>()>
struct UpdateTargetCheck {
  using T = typename member_pointer_traits<Member>::entity;
  static constexpr bool ok = true;  // a member compile time cannot see: checked at run time
};
template <auto Member, std::size_t Index>
  requires(Index < field_count_v<typename member_pointer_traits<Member>::entity>)
struct UpdateTargetCheck<Member, Index> {
  using T = typename member_pointer_traits<Member>::entity;
  static constexpr fixed_string<field_names_v<T>[Index].size()> name{field_names_v<T>[Index]};
  static constexpr bool ok =
      diagnose_v<!is_key_member<T>(Index),
                 diagnostics::update_changes_a_member_of_the_items_key<T, name>>;
};

template <class T, class M>
AttributePath::Step member_step(M T::*member) {
  return {std::string(field_names_v<T>[member_index(member)]), 0, false};
}

}  // namespace detail

// The value type an operand of member type M takes: the optional's value type.
template <class M>
using member_value_t = typename detail::unwrap_optional<M>::type;

// A condition on items of entity T.
template <class T>
struct Expr {
  Condition node;

  // a && b && c is one AND of three, as a person would write it.
  friend Expr operator&&(Expr a, Expr b) {
    return join(Condition::Op::all, std::move(a), std::move(b));
  }
  friend Expr operator||(Expr a, Expr b) {
    return join(Condition::Op::any, std::move(a), std::move(b));
  }
  friend Expr operator!(Expr a) {
    Expr out{{Condition::Op::negate, {}, {}}};
    out.node.children.push_back(std::move(a.node));
    return out;
  }

 private:
  static Expr join(Condition::Op op, Expr a, Expr b) {
    Expr out{{op, {}, {}}};
    for (Expr* part : {&a, &b}) {
      if (part->node.op == op) {
        for (Condition& c : part->node.children) out.node.children.push_back(std::move(c));
      } else {
        out.node.children.push_back(std::move(part->node));
      }
    }
    return out;
  }
};

namespace detail {

inline Operand path_operand(AttributePath path) {
  return {Operand::Kind::path, std::move(path), {}};
}
inline Operand value_operand(AttributeValue value) {
  return {Operand::Kind::value, {}, std::move(value)};
}
template <class T>
Expr<T> binary(Condition::Op op, Operand a, Operand b) {
  Expr<T> out{{op, {}, {}}};
  out.node.operands.push_back(std::move(a));
  out.node.operands.push_back(std::move(b));
  return out;
}

}  // namespace detail

// size(attr): a number compared with sizes (string bytes, elements of a list, map or set).
template <class T>
struct SizeOf {
  AttributePath path;

  Operand operand() const { return {Operand::Kind::size, path, {}}; }
  static Operand number(std::size_t n) {
    return detail::value_operand(AttributeValue::from_number(std::to_string(n)));
  }
  friend Expr<T> operator==(const SizeOf& s, std::size_t n) {
    return detail::binary<T>(Condition::Op::eq, s.operand(), number(n));
  }
  friend Expr<T> operator!=(const SizeOf& s, std::size_t n) {
    return detail::binary<T>(Condition::Op::ne, s.operand(), number(n));
  }
  friend Expr<T> operator<(const SizeOf& s, std::size_t n) {
    return detail::binary<T>(Condition::Op::lt, s.operand(), number(n));
  }
  friend Expr<T> operator<=(const SizeOf& s, std::size_t n) {
    return detail::binary<T>(Condition::Op::le, s.operand(), number(n));
  }
  friend Expr<T> operator>(const SizeOf& s, std::size_t n) {
    return detail::binary<T>(Condition::Op::gt, s.operand(), number(n));
  }
  friend Expr<T> operator>=(const SizeOf& s, std::size_t n) {
    return detail::binary<T>(Condition::Op::ge, s.operand(), number(n));
  }
};

// A typed path into entity T that ends at a value of type M.
template <class T, class M>
class Attr {
 public:
  using entity_type = T;
  using member_type = M;
  using value_type = member_value_t<M>;

  explicit Attr(AttributePath path) : path_(std::move(path)) {}

  const AttributePath& path() const& noexcept { return path_; }
  AttributePath path() && noexcept { return std::move(path_); }

  // An element of a vector member: attr(&Order::items)[0].
  auto operator[](std::size_t index) const
    requires detail::is_vector_v<value_type>
  {
    AttributePath p = path_;
    p.steps.push_back({{}, index, true});
    return Attr<T, typename value_type::value_type>(std::move(p));
  }

  // A member of a nested record: attr(&Order::shipping)->*&Address::city.
  template <class N, class R>
    requires std::same_as<R, value_type> && Reflectable<R>
  Attr<T, N> operator->*(N R::*member) const {
    AttributePath p = path_;
    p.steps.push_back(detail::member_step(member));
    return Attr<T, N>(std::move(p));
  }

  friend Expr<T> operator==(const Attr& a, const value_type& v) {
    return a.compare(Condition::Op::eq, v);
  }
  friend Expr<T> operator!=(const Attr& a, const value_type& v) {
    return a.compare(Condition::Op::ne, v);
  }
  friend Expr<T> operator<(const Attr& a, const value_type& v) {
    return a.compare(Condition::Op::lt, v);
  }
  friend Expr<T> operator<=(const Attr& a, const value_type& v) {
    return a.compare(Condition::Op::le, v);
  }
  friend Expr<T> operator>(const Attr& a, const value_type& v) {
    return a.compare(Condition::Op::gt, v);
  }
  friend Expr<T> operator>=(const Attr& a, const value_type& v) {
    return a.compare(Condition::Op::ge, v);
  }

  Operand operand() const { return detail::path_operand(path_); }
  static Operand value(const value_type& v) { return detail::value_operand(to_attribute_value(v)); }

 private:
  Expr<T> compare(Condition::Op op, const value_type& v) const {
    return detail::binary<T>(op, operand(), value(v));
  }
  AttributePath path_;
};

// attr(&Order::total); attr(&Order::shipping, &Address::city) for a nested member.
template <class T, class M>
Attr<T, M> attr(M T::*member) {
  return Attr<T, M>(AttributePath{{detail::member_step(member)}});
}
template <class T, class M, class N, class R>
  requires std::same_as<R, member_value_t<M>>
Attr<T, N> attr(M T::*member, N R::*nested) {
  return attr(member)->*nested;
}

template <class T, class M>
Expr<T> between(const Attr<T, M>& a, const member_value_t<M>& low, const member_value_t<M>& high) {
  Operand lo = Attr<T, M>::value(low);
  Operand hi = Attr<T, M>::value(high);
  // DynamoDB refuses an empty range with a ValidationException rather than matching nothing.
  bool inverted = false;
  if (lo.value.kind == AttributeValue::Kind::number &&
      hi.value.kind == AttributeValue::Kind::number) {
    inverted = compare(*Decimal::parse(lo.value.text), *Decimal::parse(hi.value.text)) > 0;
  } else if (lo.value.kind == AttributeValue::Kind::string &&
             hi.value.kind == AttributeValue::Kind::string) {
    inverted = lo.value.text > hi.value.text;
  }
  if (inverted) {
    throw ValidationError("pksk: between on " + a.path().to_string() +
                          ": the lower bound is greater than the upper bound");
  }
  Expr<T> out{{Condition::Op::between, {}, {}}};
  out.node.operands = {a.operand(), std::move(lo), std::move(hi)};
  return out;
}

template <class T, class M>
Expr<T> in(const Attr<T, M>& a, std::initializer_list<member_value_t<M>> candidates) {
  // DynamoDB's IN takes 1 to 100 values.
  if (candidates.size() == 0 || candidates.size() > 100) {
    throw ValidationError("pksk: in() on " + a.path().to_string() + " takes 1 to 100 values, not " +
                          std::to_string(candidates.size()));
  }
  Expr<T> out{{Condition::Op::in, {}, {}}};
  out.node.operands.push_back(a.operand());
  for (const auto& c : candidates) out.node.operands.push_back(Attr<T, M>::value(c));
  return out;
}

template <class T, class M>
  requires std::same_as<member_value_t<M>, std::string>
Expr<T> begins_with(const Attr<T, M>& a, const std::string& prefix) {
  return detail::binary<T>(Condition::Op::begins_with, a.operand(),
                           detail::value_operand(AttributeValue::from_string(prefix)));
}

// contains: a substring of a string, a member of a set, an element of a list.
template <class T, class M>
  requires std::same_as<member_value_t<M>, std::string> ||
           detail::is_string_set_v<member_value_t<M>>
Expr<T> contains(const Attr<T, M>& a, const std::string& operand) {
  return detail::binary<T>(Condition::Op::contains, a.operand(),
                           detail::value_operand(AttributeValue::from_string(operand)));
}
template <class T, class M>
  requires detail::is_vector_v<member_value_t<M>>
Expr<T> contains(const Attr<T, M>& a, const typename member_value_t<M>::value_type& element) {
  return detail::binary<T>(Condition::Op::contains, a.operand(),
                           detail::value_operand(to_attribute_value(element)));
}

template <class T, class M>
SizeOf<T> size(const Attr<T, M>& a) {
  return {a.path()};
}

// exists / not_exists: of an attribute, exists(attr(&Order::note)); `exists` alone is also
// the condition "the item exists" for writes and transaction checks.
struct ExistsTag {
  template <class T, class M>
  Expr<T> operator()(const Attr<T, M>& a) const {
    Expr<T> out{{Condition::Op::exists, {}, {}}};
    out.node.operands.push_back(a.operand());
    return out;
  }
};
struct NotExistsTag {
  template <class T, class M>
  Expr<T> operator()(const Attr<T, M>& a) const {
    Expr<T> out{{Condition::Op::not_exists, {}, {}}};
    out.node.operands.push_back(a.operand());
    return out;
  }
};
inline constexpr ExistsTag exists{};
inline constexpr NotExistsTag not_exists{};

// The item must not exist yet (a put that never overwrites).
struct IfAbsentTag {};
inline constexpr IfAbsentTag if_absent{};

// A condition of a write on entity T: when(attr(&Order::status) == "pending").
template <class T>
struct When {
  Condition node;
};
template <class T>
When<T> when(Expr<T> condition) {
  return {std::move(condition.node)};
}

// ------------------------------------------------------------------------------ updates

// One update action on entity T. `member` is the top-level member it changes, so that Table can
// refuse an update of a key member.
template <class T>
struct Update {
  UpdateAction action;
};

namespace detail {
template <class T>
Update<T> make_update(UpdateAction::Kind kind, AttributePath path, AttributeValue value = {}) {
  return {{kind, std::move(path), std::move(value)}};
}
}  // namespace detail

template <class T, class M>
Update<T> set(Attr<T, M> a, const member_value_t<M>& value) {
  return detail::make_update<T>(UpdateAction::Kind::set, std::move(a).path(),
                                to_attribute_value(value));
}
template <class T, class M>
Update<T> set(M T::*member, const member_value_t<M>& value) {
  return set(attr(member), value);
}

template <class T, class M>
Update<T> if_not_exists(Attr<T, M> a, const member_value_t<M>& value) {
  return detail::make_update<T>(UpdateAction::Kind::set_if_not_exists, std::move(a).path(),
                                to_attribute_value(value));
}
template <class T, class M>
Update<T> if_not_exists(M T::*member, const member_value_t<M>& value) {
  return if_not_exists(attr(member), value);
}

// add: to a number (an absent one counts as 0), or the strings to a string set.
template <class T, class M>
  requires detail::is_number_member_v<member_value_t<M>> ||
           detail::is_string_set_v<member_value_t<M>>
Update<T> add(Attr<T, M> a, const member_value_t<M>& value) {
  return detail::make_update<T>(UpdateAction::Kind::add, std::move(a).path(),
                                to_attribute_value(value));
}
template <class T, class M>
  requires detail::is_number_member_v<member_value_t<M>> ||
           detail::is_string_set_v<member_value_t<M>>
Update<T> add(M T::*member, const member_value_t<M>& value) {
  return add(attr(member), value);
}

template <class T, class M>
Update<T> remove(Attr<T, M> a) {
  return detail::make_update<T>(UpdateAction::Kind::remove, std::move(a).path());
}
template <class T, class M>
Update<T> remove(M T::*member) {
  return remove(attr(member));
}

// append: elements to the end of a list (an absent list counts as empty).
template <class T, class M>
  requires detail::is_vector_v<member_value_t<M>>
Update<T> append(Attr<T, M> a, const member_value_t<M>& elements) {
  return detail::make_update<T>(UpdateAction::Kind::append, std::move(a).path(),
                                to_attribute_value(elements));
}
template <class T, class M>
  requires detail::is_vector_v<member_value_t<M>>
Update<T> append(Attr<T, M> a, const typename member_value_t<M>::value_type& element) {
  return append(std::move(a), member_value_t<M>{element});
}
template <class T, class M>
  requires detail::is_vector_v<member_value_t<M>>
Update<T> append(M T::*member, const member_value_t<M>& elements) {
  return append(attr(member), elements);
}
template <class T, class M>
  requires detail::is_vector_v<member_value_t<M>>
Update<T> append(M T::*member, const typename member_value_t<M>::value_type& element) {
  return append(attr(member), element);
}

// The same actions with the member as a template argument: set<&Order::status>("shipped").
// Spelled so, an update of a key member is a compile-time error naming the entity and the
// member (with a pointer passed as an argument, Table refuses it at run time instead).
// Reading ok instantiates the check: one error, naming the entity and the member.
template <auto Member>
auto set(const member_value_t<typename detail::member_pointer_traits<Member>::type>& value) {
  (void)detail::UpdateTargetCheck<Member>::ok;
  return set(Member, value);
}
template <auto Member>
auto add(const member_value_t<typename detail::member_pointer_traits<Member>::type>& value) {
  (void)detail::UpdateTargetCheck<Member>::ok;
  return add(Member, value);
}
template <auto Member>
auto remove() {
  (void)detail::UpdateTargetCheck<Member>::ok;
  return remove(Member);
}
template <auto Member>
auto append(const member_value_t<typename detail::member_pointer_traits<Member>::type>& value) {
  (void)detail::UpdateTargetCheck<Member>::ok;
  return append(Member, value);
}
template <auto Member>
auto if_not_exists(
    const member_value_t<typename detail::member_pointer_traits<Member>::type>& value) {
  (void)detail::UpdateTargetCheck<Member>::ok;
  return if_not_exists(Member, value);
}

}  // namespace pksk
