// SPDX-License-Identifier: BSL-1.0
#pragma once
// The typed front end of expressions: attr(&Order::total) > 100.0, when(...), if_absent; the
// update actions on the same paths are update.hpp's. Values are typed by the member, so
// attr(&Order::total) == "x" does not compile; what comes out is the raw tree of
// expression.hpp, tagged with its entity so that a condition on Customer cannot guard a put
// of an Order. Over 600 lines only with the reference's Throws and Exception safety lines
// (docs/reference.md): the code alone is under 600, and it is one family of operators.

#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../codec/attribute_value_json.hpp"
#include "../codec/decimal.hpp"
#include "../codec/encode.hpp"
#include "../detail/diagnose.hpp"
#include "../detail/fixed_string.hpp"
#include "../detail/std_traits.hpp"
#include "../error.hpp"
#include "../key/entity.hpp"
#include "../key/key.hpp"
#include "../key/read_back.hpp"
#include "../key/stored_names.hpp"
#include "../reflect/member_pointer.hpp"
#include "../reflect/reflect.hpp"
#include "expression.hpp"

namespace pksk {

namespace diagnostics {
// An update of a member the item's key is built from: it would move the item, and DynamoDB
// refuses to update key attributes.
template <class Entity, detail::fixed_string Member>
struct update_changes_a_member_of_the_items_key;
// An update of the version member of a versioned entity (Entity<T>::version): every write of
// the entity sets it to the version read plus one, which an action of the caller's would
// contradict.
template <class Entity, detail::fixed_string Member>
struct update_changes_the_version_member_of_a_versioned_entity;
// A filter or a write condition compares a member of Entity (named Member, declared as Type)
// with a value of type Value that no stored value of the member can equal or be ordered with: a
// number with a string, a string with a number, a bool with anything but a bool, an enum with
// another type. attr(&Order::total) holds its member pointer at run time only, so Member names
// the members of Entity declared as Type ("total"), of its records' members too
// ("address.zip"), joined by '|' when several are.
template <class Entity, detail::fixed_string Member, class Type, class Value>
struct condition_compares_a_member_with_a_value_of_another_type;
// A filter or a write condition compares the size of a member of Entity, pksk::size(...), which
// is a number, with a value of type Value that is not a number.
template <class Entity, class Value>
struct condition_compares_a_size_with_a_value_that_is_not_a_number;
// An update action (set, if_not_exists, add) gives a member of Entity (declared as Member) a
// value of type Value that does not convert to the member's type.
template <class Entity, class Member, class Value>
struct update_gives_a_member_a_value_of_another_type;
}  // namespace diagnostics

namespace detail {

template <class M>
inline constexpr bool is_number_member_v =
    (std::is_arithmetic_v<M> && !std::is_same_v<M, bool> && !is_char_v<M>);

// Whether a value of type V may stand for a stored value of type M in a comparison. A number
// compares with any number and is stored as given, not converted to M: qty > 2.5 must not turn
// into qty > 2. A string takes anything that is a string (not a null pointer, nor a number by
// way of a converting constructor), a bool only a bool, an enum only itself; anything else what
// converts to M.
template <class M, class V>
consteval bool comparable_value() {
  if constexpr (is_number_member_v<M>) {
    return is_number_member_v<V>;
  } else if constexpr (std::is_same_v<M, std::string>) {
    return std::is_convertible_v<const V&, std::string_view> && !std::is_null_pointer_v<V>;
  } else if constexpr (std::is_same_v<M, bool> || std::is_enum_v<M>) {
    return std::is_same_v<M, V>;
  } else {
    return std::is_convertible_v<const V&, M>;
  }
}

// The operand a comparable value makes (see comparable_value).
template <class M, class V>
AttributeValue comparison_value(const V& v) {
  if constexpr (is_number_member_v<M>) {
    return to_attribute_value(v);
  } else if constexpr (std::is_same_v<M, std::string>) {
    return AttributeValue::from_string(std::string(std::string_view(v)));
  } else if constexpr (std::is_same_v<M, V>) {
    return to_attribute_value(v);
  } else {
    return to_attribute_value(static_cast<M>(v));
  }
}

// The names of T's members declared as M, and of its records' members so declared
// ("address.city"), joined by '|': how a diagnostic names the member an attr() path ends at,
// which compile time knows by its type only.
struct MemberNames {
  char chars[256]{};
  std::size_t size = 0;
  constexpr void add(std::string_view prefix, std::string_view name) {
    if (size != 0) push('|');
    for (const char c : prefix) push(c);
    if (!prefix.empty()) push('.');
    for (const char c : name) push(c);
  }
  constexpr void push(char c) {
    if (size < sizeof chars) chars[size++] = c;
  }
};
template <class T, class M, bool Nested>
constexpr void add_member_names(MemberNames& out, std::string_view prefix) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          using F = field_type_t<T, I>;
          if constexpr (std::is_same_v<F, M>) {
            out.add(prefix, field_names_v<T>[I]);
          } else if constexpr (!Nested && CodecRecord<unwrap_optional_t<F>>) {
            add_member_names<unwrap_optional_t<F>, M, true>(out, field_names_v<T>[I]);
          }
        }(),
        ...);
  }(std::make_index_sequence<field_count_v<T>>{});
}
template <class T, class M>
inline constexpr MemberNames member_names_of_type = [] {
  MemberNames names;
  add_member_names<T, M, false>(names, {});
  return names;
}();
template <class T, class M>
inline constexpr fixed_string<member_names_of_type<T, M>.size> member_names_of_type_v{
    std::string_view(member_names_of_type<T, M>.chars, member_names_of_type<T, M>.size)};

// Reports condition_compares_a_member_with_a_value_of_another_type; the members' names are
// only looked for then.
template <bool Ok, class T, class M, class V>
struct ComparableCheck {
  static constexpr bool ok = true;
};
template <class T, class M, class V>
struct ComparableCheck<false, T, M, V> {
  static constexpr bool ok =
      diagnose_v<false, diagnostics::condition_compares_a_member_with_a_value_of_another_type<
                            T, member_names_of_type_v<T, M>, M, V>>;
};

// comparable_value, reporting condition_compares_a_member_with_a_value_of_another_type when not.
template <class T, class M, class V>
inline constexpr bool comparable_value_v =
    ComparableCheck<comparable_value<unwrap_optional_t<M>, V>(), T, M, V>::ok;

// A number for size(attr) to be compared with, reporting
// condition_compares_a_size_with_a_value_that_is_not_a_number when not.
template <class T, class V>
inline constexpr bool size_comparable_v =
    diagnose_v<is_number_member_v<V>,
               diagnostics::condition_compares_a_size_with_a_value_that_is_not_a_number<T, V>>;

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
    throw Error(errc::misuse,
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
  static constexpr bool ok =
      diagnose_v<!is_key_member<T>(Index), diagnostics::update_changes_a_member_of_the_items_key<
                                               T, field_name_text_v<T, Index>>> &&
      diagnose_v<!is_version_member<T>(Index),
                 diagnostics::update_changes_the_version_member_of_a_versioned_entity<
                     T, field_name_text_v<T, Index>>>;
};

// A member an entity keeps only in its keys (store_key_members = false) is no attribute: a
// condition on it would never hold, so naming it is refused (throw_member_not_stored).
template <class T, class M>
backend::AttributePath::Step member_step(M T::*member) {
  const std::size_t index = member_index(member);
  if constexpr (!stores_key_members_v<T>) {
    if (omits_member<T>(index)) throw_member_not_stored(type_name_v<T>, field_names_v<T>[index]);
  }
  return {std::string(stored_names_v<T>[index]), 0, false};
}

}  // namespace detail

// The value type an operand of member type M takes: the optional's value type.
template <class M>
using member_value_t = detail::unwrap_optional_t<M>;

// A condition on items of entity T.
template <class T>
struct Expr {
  // The condition tree.
  backend::Condition node;

  // a && b && c is one AND of three, as a person would write it.
  friend Expr operator&&(Expr a, Expr b) {
    return join(backend::Condition::Op::all, std::move(a), std::move(b));
  }
  friend Expr operator||(Expr a, Expr b) {
    return join(backend::Condition::Op::any, std::move(a), std::move(b));
  }
  friend Expr operator!(Expr a) {
    Expr out{{backend::Condition::Op::negate, {}, {}}};
    out.node.children.push_back(std::move(a.node));
    return out;
  }

 private:
  static Expr join(backend::Condition::Op op, Expr a, Expr b) {
    Expr out{{op, {}, {}}};
    for (Expr* part : {&a, &b}) {
      if (part->node.op == op) {
        for (backend::Condition& c : part->node.children) out.node.children.push_back(std::move(c));
      } else {
        out.node.children.push_back(std::move(part->node));
      }
    }
    return out;
  }
};

namespace detail {

inline backend::Operand path_operand(backend::AttributePath path) {
  return {backend::Operand::Kind::path, std::move(path), {}};
}
inline backend::Operand value_operand(AttributeValue value) {
  return {backend::Operand::Kind::value, {}, std::move(value)};
}
template <class T>
Expr<T> binary(backend::Condition::Op op, backend::Operand a, backend::Operand b) {
  Expr<T> out{{op, {}, {}}};
  out.node.operands.push_back(std::move(a));
  out.node.operands.push_back(std::move(b));
  return out;
}

}  // namespace detail

namespace detail {

// The six comparisons of an operand of a condition on T (Attr, SizeOf), each handing its
// operator to Left::compare, which checks the value: one error naming the rule for a value of
// the wrong type, rather than a list of every operator in scope.
template <class Left, class T>
struct Comparisons {
  template <class V>
  friend Expr<T> operator==(const Left& left, const V& v) {
    return compare(left, backend::Condition::Op::eq, v);
  }
  template <class V>
  friend Expr<T> operator!=(const Left& left, const V& v) {
    return compare(left, backend::Condition::Op::ne, v);
  }
  template <class V>
  friend Expr<T> operator<(const Left& left, const V& v) {
    return compare(left, backend::Condition::Op::lt, v);
  }
  template <class V>
  friend Expr<T> operator<=(const Left& left, const V& v) {
    return compare(left, backend::Condition::Op::le, v);
  }
  template <class V>
  friend Expr<T> operator>(const Left& left, const V& v) {
    return compare(left, backend::Condition::Op::gt, v);
  }
  template <class V>
  friend Expr<T> operator>=(const Left& left, const V& v) {
    return compare(left, backend::Condition::Op::ge, v);
  }

 private:
  // Left::compare is private to Left, which befriends this class (not its friend functions).
  template <class V>
  static Expr<T> compare(const Left& left, backend::Condition::Op op, const V& v) {
    return left.compare(op, v);
  }
};

}  // namespace detail

// size(attr): a number compared with sizes (string bytes, elements of a list, map or set). The
// number is stored as given, as a member's comparison stores it: size(a) > -1 holds for every
// sized value, where a conversion to std::size_t would have made it false for all.
template <class T>
struct SizeOf : detail::Comparisons<SizeOf<T>, T> {
  // The attribute whose size is compared.
  backend::AttributePath path{};

  // The operand size(path).
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  backend::Operand operand() const { return {backend::Operand::Kind::size, path, {}}; }

 private:
  friend struct detail::Comparisons<SizeOf, T>;
  // Any type, checked here, for the reason Attr's comparisons are (one error naming the rule).
  template <class V>
  Expr<T> compare(backend::Condition::Op op, const V& n) const {
    if constexpr (detail::size_comparable_v<T, V>) {
      return detail::binary<T>(op, operand(), detail::value_operand(to_attribute_value(n)));
    } else {
      return {};
    }
  }
};

// A typed path into entity T that ends at a value of type M.
template <class T, class M>
class Attr : public detail::Comparisons<Attr<T, M>, T> {
 public:
  // The entity the path starts at.
  using entity_type = T;
  // The member's type as declared (an optional included).
  using member_type = M;
  // The type a value compared with it takes (an optional's value type).
  using value_type = member_value_t<M>;

  // The path, unchecked: attr() makes checked ones.
  // Throws: nothing (the path is moved).
  // Exception safety: nothrow.
  explicit Attr(backend::AttributePath path) : path_(std::move(path)) {}

  // The path.
  // Throws: nothing.
  // Exception safety: nothrow.
  const backend::AttributePath& path() const& noexcept { return path_; }
  // The path, moved out.
  // Throws: nothing.
  // Exception safety: nothrow.
  backend::AttributePath path() && noexcept { return std::move(path_); }

  // An element of a vector member: attr(&Order::items)[0].
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  auto operator[](std::size_t index) const
    requires(detail::is_vector_v<value_type> && !detail::is_binary_v<value_type>)
  {
    backend::AttributePath p = path_;
    p.steps.push_back({{}, index, true});
    return Attr<T, typename value_type::value_type>(std::move(p));
  }

  // A member of a nested record: attr(&Order::shipping)->*&Address::city.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  template <class N, class R>
    requires std::same_as<R, value_type> && Reflectable<R>
  Attr<T, N> operator->*(N R::*member) const {
    backend::AttributePath p = path_;
    p.steps.push_back(detail::member_step(member));
    return Attr<T, N>(std::move(p));
  }

  // The path as an operand.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  backend::Operand operand() const { return detail::path_operand(path_); }
  // A value compared with this member; V must be comparable with it (detail::comparable_value).
  // A time compared with T's ttl member is epoch seconds, as that member is stored
  // (codec/ttl.hpp).
  // Throws: EncodeError for a value that cannot be stored (NaN); std::bad_alloc.
  // Exception safety: strong.
  template <class V>
  backend::Operand value(const V& v) const {
    if constexpr (detail::has_ttl_v<T> && std::is_same_v<value_type, detail::TimePoint>) {
      if constexpr (detail::ttl_field_v<T> < field_count_v<T>) {
        if (path_.steps.size() == 1 && !path_.steps[0].is_index &&
            stored_names_v<T>[detail::ttl_field_v<T>] == path_.steps[0].name) {
          return detail::value_operand(AttributeValue::from_number(
              std::to_string(detail::epoch_seconds(static_cast<detail::TimePoint>(v)))));
        }
      }
    }
    return detail::value_operand(detail::comparison_value<value_type>(v));
  }

 private:
  friend struct detail::Comparisons<Attr, T>;
  // Values are any type, checked here rather than by overload resolution, so that a value of
  // the wrong type is one error naming the entity, the member's type and the value's, not a
  // list of every operator== in scope.
  template <class V>
  Expr<T> compare(backend::Condition::Op op, const V& v) const {
    if constexpr (detail::comparable_value_v<T, M, V>) {
      return detail::binary<T>(op, operand(), value(v));
    } else {
      return {};
    }
  }
  backend::AttributePath path_;
};

namespace diagnostics {
// A condition or a filter on a compressed member (Entity<T>::compressed): its stored value is
// zstd-compressed bytes, which no comparison, begins_with, contains, size or exists can see
// into. A function, checked where attr() is written as update actions' members are
// (update.hpp): g++ names it in the error line, clang in the note under it.
// Throws: nothing (it is never called: its name is the diagnostic).
// Exception safety: nothrow.
template <class Entity, detail::fixed_string Member>
void condition_names_a_compressed_member() {}
// A condition, filter or update path on a key member an entity keeps only in its keys
// (store_key_members = false): it is no attribute, so a condition on it would never hold.
// Reach it through the key: a sort-key condition, or the partition key itself.
// Throws: nothing (it is never called: its name is the diagnostic).
// Exception safety: nothrow.
template <class Entity, detail::fixed_string Member>
void condition_names_a_member_kept_only_in_the_keys() {}
}  // namespace diagnostics

namespace detail {

// The path to a member, unchecked: what attr() makes, and what update actions act on.
template <class T, class M>
Attr<T, M> attr_of(M T::*member) {
  // The step moved in: a braced list would copy it out of its initializer_list.
  backend::AttributePath path;
  path.steps.push_back(member_step(member));
  return Attr<T, M>(std::move(path));
}

template <class T, class M, std::size_t... I>
consteval void refuse_compressed_members(M T::*member, std::index_sequence<I...>) {
  ((compressed_fields_v<T>[I] && names_field<I>(member)
        ? diagnostics::condition_names_a_compressed_member<T, field_name_text_v<T, I>>()
        : void()),
   ...);
}

template <class T, class M, std::size_t... I>
consteval void refuse_members_kept_in_keys(M T::*member, std::index_sequence<I...>) {
  ((omits_member<T>(I) && names_field<I>(member)
        ? diagnostics::condition_names_a_member_kept_only_in_the_keys<T, field_name_text_v<T, I>>()
        : void()),
   ...);
}

// The member attr() is given, converted at compile time (consteval) where the call is, as
// NonKeyMember is (update.hpp): a compressed member, and a key member the entity keeps only in
// its keys, are refused there, one error naming the entity and the member. Only an entity with
// such members checks anything; a Hana-adapted struct's members are checked at run time
// (member_step).
template <class T, class M>
struct ConditionMember {
  M T::*member;

  consteval ConditionMember(M T::*m) : member(m) {  // NOLINT: implicit on purpose
    if constexpr (has_compressed_v<T> && compressible_member_v<M> && !HanaStruct<T>) {
      refuse_compressed_members(m, std::make_index_sequence<field_count_v<T>>{});
    }
    if constexpr (!stores_key_members_v<T> && !HanaStruct<T>) {
      refuse_members_kept_in_keys(m, std::make_index_sequence<field_count_v<T>>{});
    }
  }
};

}  // namespace detail

// attr(&Order::total); attr(&Order::shipping, &Address::city) for a nested member. A class
// template, not a function, for the reason the update actions are (update.hpp): deduction finds
// T and M, then the member is checked at compile time. What it makes is an Attr<T, M>, which
// every operator and function of conditions takes.
template <auto... Members>
struct attr;
// attr(&T::m): a member of T, checked (compressed members and members kept only in the keys are
// compile errors).
template <class T, class M, M T::*Member>
struct attr<Member> : Attr<T, M> {
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  attr(detail::ConditionMember<T, M> target)  // NOLINT: implicit on purpose
      : Attr<T, M>(detail::attr_of(target.member)) {}
};
// attr(&T::m, &R::n): member n of the record member m.
template <class T, class M, M T::*Member, class R, class N, N R::*Nested>
struct attr<Member, Nested> : Attr<T, N> {
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  attr(detail::ConditionMember<T, M> target, N R::*nested)
    requires std::same_as<R, member_value_t<M>>
      : Attr<T, N>(detail::attr_of(target.member)->*nested) {}
};
// Deduces T and M from &T::m.
template <class T, class M>
attr(M T::*) -> attr<static_cast<M T::*>(nullptr)>;
// Deduces T, M, R and N from &T::m, &R::n.
template <class T, class M, class N, class R>
attr(M T::*, N R::*) -> attr<static_cast<M T::*>(nullptr), static_cast<N R::*>(nullptr)>;

namespace detail {

template <class T, class M>
Expr<T> between_values(const Attr<T, M>& a, backend::Operand lo, backend::Operand hi) {
  // DynamoDB refuses an empty range with a ValidationException rather than matching nothing.
  bool inverted = false;
  if (lo.value.kind == AttributeValue::Kind::number &&
      hi.value.kind == AttributeValue::Kind::number) {
    inverted = compare(*backend::Decimal::parse(lo.value.text),
                       *backend::Decimal::parse(hi.value.text)) > 0;
  } else if (lo.value.kind == AttributeValue::Kind::string &&
             hi.value.kind == AttributeValue::Kind::string) {
    inverted = lo.value.text > hi.value.text;
  }
  if (inverted) {
    throw ValidationError("pksk: between on " + a.path().to_string() +
                          ": the lower bound is greater than the upper bound");
  }
  Expr<T> out{{backend::Condition::Op::between, {}, {}}};
  out.node.operands = {a.operand(), std::move(lo), std::move(hi)};
  return out;
}

}  // namespace detail

// BETWEEN: low <= a <= high, both bounds included.
// Throws: ValidationError when low is greater than high (DynamoDB refuses the range), EncodeError
// for a value that cannot be stored.
// Exception safety: strong.
template <class T, class M, class Low, class High>
Expr<T> between(const Attr<T, M>& a, const Low& low, const High& high) {
  if constexpr (!detail::comparable_value_v<T, M, Low> || !detail::comparable_value_v<T, M, High>) {
    return {};
  } else {
    return detail::between_values(a, a.value(low), a.value(high));
  }
}

// IN: a equals one of the candidates.
// Throws: ValidationError for no candidate or more than 100, EncodeError for one that cannot be
// stored.
// Exception safety: strong.
template <class T, class M>
Expr<T> in(const Attr<T, M>& a, std::initializer_list<member_value_t<M>> candidates) {
  // DynamoDB's IN takes 1 to 100 values.
  if (candidates.size() == 0 || candidates.size() > 100) {
    throw ValidationError("pksk: in() on " + a.path().to_string() + " takes 1 to 100 values, not " +
                          std::to_string(candidates.size()));
  }
  Expr<T> out{{backend::Condition::Op::in, {}, {}}};
  out.node.operands.push_back(a.operand());
  for (const auto& c : candidates) out.node.operands.push_back(a.value(c));
  return out;
}
// in() with values none of which the member can hold: {1, 2} for a string. Chosen only then, so
// that the error is the one rule naming the entity, the member's type and the values'.
// Throws: nothing.
// Exception safety: nothrow.
template <class T, class M, class V>
  requires(!detail::comparable_value<member_value_t<M>, V>())
Expr<T> in(const Attr<T, M>&, std::initializer_list<V>) {
  (void)detail::comparable_value_v<T, M, V>;
  return {};
}

// begins_with on a string member.
// Throws: only std::bad_alloc.
// Exception safety: strong.
template <class T, class M>
  requires std::same_as<member_value_t<M>, std::string>
Expr<T> begins_with(const Attr<T, M>& a, const std::string& prefix) {
  return detail::binary<T>(backend::Condition::Op::begins_with, a.operand(),
                           detail::value_operand(AttributeValue::from_string(prefix)));
}
// begins_with on a binary member: its first bytes are these.
// Throws: only std::bad_alloc.
// Exception safety: strong.
template <class T, class M>
  requires detail::is_binary_v<member_value_t<M>>
Expr<T> begins_with(const Attr<T, M>& a, const member_value_t<M>& prefix) {
  return detail::binary<T>(backend::Condition::Op::begins_with, a.operand(),
                           detail::value_operand(to_attribute_value(prefix)));
}

// contains: a substring of a string, a member of a set, an element of a list.
// Throws: only std::bad_alloc.
// Exception safety: strong.
template <class T, class M>
  requires std::same_as<member_value_t<M>, std::string> ||
           detail::is_string_set_v<member_value_t<M>>
Expr<T> contains(const Attr<T, M>& a, const std::string& operand) {
  return detail::binary<T>(backend::Condition::Op::contains, a.operand(),
                           detail::value_operand(AttributeValue::from_string(operand)));
}
// contains on a list or set member: an element equal to `element`.
// Throws: EncodeError for a value that cannot be stored (NaN); std::bad_alloc.
// Exception safety: strong.
template <class T, class M>
  requires((detail::is_vector_v<member_value_t<M>> && !detail::is_binary_v<member_value_t<M>>) ||
           detail::is_number_set_v<member_value_t<M>> || detail::is_binary_set_v<member_value_t<M>>)
Expr<T> contains(const Attr<T, M>& a, const typename member_value_t<M>::value_type& element) {
  return detail::binary<T>(backend::Condition::Op::contains, a.operand(),
                           detail::value_operand(to_attribute_value(element)));
}
// contains on a binary member: the bytes appear in it, in this order.
// Throws: only std::bad_alloc.
// Exception safety: strong.
template <class T, class M>
  requires detail::is_binary_v<member_value_t<M>>
Expr<T> contains(const Attr<T, M>& a, const member_value_t<M>& bytes) {
  return detail::binary<T>(backend::Condition::Op::contains, a.operand(),
                           detail::value_operand(to_attribute_value(bytes)));
}

// size(a), to compare: string bytes, elements of a list, map or set.
// Throws: only std::bad_alloc.
// Exception safety: strong.
template <class T, class M>
SizeOf<T> size(const Attr<T, M>& a) {
  return {{}, a.path()};
}

// exists / not_exists: of an attribute, exists(attr(&Order::note)); `exists` alone is also
// the condition "the item exists" for writes and transaction checks.
struct ExistsTag {
  // attribute_exists(a).
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  template <class T, class M>
  Expr<T> operator()(const Attr<T, M>& a) const {
    Expr<T> out{{backend::Condition::Op::exists, {}, {}}};
    out.node.operands.push_back(a.operand());
    return out;
  }
};
// not_exists(attr): attribute_not_exists.
struct NotExistsTag {
  // attribute_not_exists(a).
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  template <class T, class M>
  Expr<T> operator()(const Attr<T, M>& a) const {
    Expr<T> out{{backend::Condition::Op::not_exists, {}, {}}};
    out.node.operands.push_back(a.operand());
    return out;
  }
};
// exists(attr), and alone: the item exists.
inline constexpr ExistsTag exists{};
// not_exists(attr).
inline constexpr NotExistsTag not_exists{};

// The item must not exist yet (a put that never overwrites).
struct IfAbsentTag {};
// A put's condition: no item has the key.
inline constexpr IfAbsentTag if_absent{};
// The item must exist already (a put that only replaces, an update that never creates): the
// pair of if_absent, the same condition as `exists` alone.
inline constexpr ExistsTag if_exists{};

// What a write may ask back, given after the item with its conditions (DynamoDB's ReturnValues):
// return_old makes put and erase return the item they replaced or removed, std::optional<T>;
// return_stored_on_failure makes the ConditionFailed of a put, update or erase whose condition
// is false carry the stored item it was evaluated on (ConditionFailed::stored()).
struct ReturnOldTag {};
// put and erase return the item replaced or removed.
inline constexpr ReturnOldTag return_old{};
struct ReturnStoredOnFailureTag {};
// A ConditionFailed carries the stored item.
inline constexpr ReturnStoredOnFailureTag return_stored_on_failure{};

// A condition of a write on entity T: when(attr(&Order::status) == "pending").
template <class T>
struct When {
  // The condition tree.
  backend::Condition node;
};
// The condition of a write: when(attr(&Order::status) == "pending").
// Throws: nothing (the condition is moved).
// Exception safety: nothrow.
template <class T>
When<T> when(Expr<T> condition) {
  return {std::move(condition.node)};
}

}  // namespace pksk
