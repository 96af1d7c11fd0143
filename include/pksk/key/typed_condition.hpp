// SPDX-License-Identifier: BSL-1.0
#pragma once
// Typed sort-key conditions: a query's KeyCondition stated from an entity's own members and
// formatted by its sort-key template, so that no one writes a template's literal text by hand.
//
//   // Order's sort key is "#ORDER#{order_id}", Shipment's "#SHIP#{date}#{seq}" (seq: uint32_t)
//   using OrderKey = pksk::sort_key_of<Order>;
//   using ShipKey = pksk::sort_key_of<Shipment>;
//   OrderKey::between<&Order::order_id>("2020-01", "2020-12")  // between("#ORDER#2020-01",
//                                                              //         "#ORDER#2020-12")
//   OrderKey::begins_with<&Order::order_id>("2021-")           // begins_with("#ORDER#2021-")
//   ShipKey::eq<&Shipment::date>("2020-01-02")                 // every shipment of that day
//   ShipKey::between<&Shipment::date, &Shipment::seq>({"2020-01-02", 5}, {"2020-01-02", 200})
//   ShipKey::gt(shipment)                                      // after that item's whole key
//
// The members, template arguments, are the template's first fields in its order: a condition
// on a later field is given the values of every field before it. A member of another entity,
// one that is no field of the template, or fields skipped or out of order are a compile error
// naming the entity, the template and the member (pksk/detail/diagnose.hpp); so are begins_with on
// a field that is not a string and lt/le/gt/ge/between on an enum field (their keys order by
// enumerator name, not value). Which members of a Hana-adapted struct are named, compile time
// cannot see (how many, it can): they are checked when the condition is made (pksk::Error).
//
// Values are formatted by the template's own rules (key.hpp): integers padded, enums by name,
// strings checked, so that a value containing the delimiter '#', NUL or invalid UTF-8 is a
// KeyError naming the entity, the member and the value. begins_with's last value may be any
// prefix of a value (the empty one too); its other values are whole values.
//
// Meaning. A condition on the first k fields compares, item by item, those k fields with the
// values; items whose first k fields equal the values are equal to them, whatever their later
// fields. eq: equal; lt, le, gt, ge: before or after; between: inclusive at both ends;
// begins_with: the earlier fields equal and the k-th begins with the value. Before and after
// are the order of the keys: numeric for integers, byte order (UTF-8) for strings and enum
// names. That is the values' own order, but for one case: a string field followed by a literal
// L in the template (the '#' of "{date}#{seq}"), a value extending another ("a!" extends
// "a") sorts before it when its next character is below L's first ('!' < '#').
//
// The KeyCondition made, with A the key text through field k (values formatted, literals
// included), L the literal after field k and L+ L with its last character's code point plus
// one (so A L+ is the first text after every key beginning with A L), and A' the A of
// between's high bound:
//   - k is every field: eq, lt, le, gt, ge of the whole key A L; between(A L, A' L).
//   - otherwise: eq begins_with(A L); lt lt(A L); ge ge(A L); le lt(A L+); gt ge(A L+);
//     between(A L, A' L+).
//   - begins_with: begins_with(A), and no condition when A is empty.
// lt, le, gt and ge are one-sided like DynamoDB's: on the other side of the partition they
// also read the items of other entities, which query<T> skips; between reads only the range.
//
// sort_key_of<T> is KeyConditions over T's sort-key template; sort_key_of<T, "gsi1"> over its
// sort-key template in that secondary index.
// What each returns is a TypedKeyCondition<T, ...> (typed_key_condition.hpp): the KeyCondition
// above, naming T and the template it was formatted by, so that a query that does not read T
// in that key space refuses it (at compile time from typed query options, else when it runs).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../detail/diagnose.hpp"
#include "../detail/fixed_string.hpp"
#include "../error.hpp"
#include "../reflect/member_pointer.hpp"
#include "../reflect/reflect.hpp"
#include "condition.hpp"
#include "detail/successor_text.hpp"
#include "detail/template.hpp"
#include "entity.hpp"
#include "index.hpp"
#include "key.hpp"
#include "typed_key_condition.hpp"

namespace pksk {

namespace diagnostics {

// The rules a typed key condition is checked against (see pksk/detail/diagnose.hpp).

// sort_key_of<Order>::eq<&Customer::id>(...)
template <class Entity, class MemberOf>
struct key_condition_names_a_member_of_another_entity;

// sort_key_of<Order>::eq<&Order::status>(...) for "#ORDER#{order_id}"
template <class Entity, detail::fixed_string KeyTemplate, detail::fixed_string Member>
struct key_condition_names_a_member_that_is_not_a_field_of_the_key_template;

// sort_key_of<Shipment>::lt<&Shipment::seq>(...) for "#SHIP#{date}#{seq}": a condition on a
// field needs the values of the fields before it. Expected is the field due at that place.
template <class Entity, detail::fixed_string KeyTemplate, detail::fixed_string Expected,
          detail::fixed_string Given>
struct key_condition_members_are_not_the_key_templates_first_fields_in_order;

// begins_with of a part of an integer (zero-padded in sort keys) or of an enum's name.
template <class Entity, detail::fixed_string KeyTemplate, detail::fixed_string Member,
          class FieldType>
struct key_condition_begins_with_on_a_field_that_is_not_a_string;

// Keys hold enumerator names, so a range would follow the names' byte order, not the values'.
template <class Entity, detail::fixed_string KeyTemplate, detail::fixed_string Member,
          class FieldType>
struct key_condition_orders_an_enum_field_whose_keys_sort_by_enumerator_name;

}  // namespace diagnostics

namespace detail {

// The value a condition takes for a member of type M: text as a view, integers and enums as
// themselves (the field's own type, so that it is padded to the field's width); an optional
// member of a sparse index's key as what it holds.
template <class M>
using key_value_t =
    std::conditional_t<KeyString<key_field_value_t<M>>, std::string_view, key_field_value_t<M>>;

template <auto Member>
using member_key_value_t = key_value_t<typename member_pointer_traits<Member>::type>;

// A bound of between: one value for one member, a tuple of values for several.
template <auto... Members>
struct KeyBound {
  using type = std::tuple<member_key_value_t<Members>...>;
};
template <auto Member>
struct KeyBound<Member> {
  using type = member_key_value_t<Member>;
};
template <auto... Members>
using key_bound_t = typename KeyBound<Members...>::type;

template <auto Value>
struct Constant {
  static constexpr auto value = Value;
};

enum class ConditionShape : unsigned char {
  compare,  // eq: any key field
  range,    // lt, le, gt, ge, between: not an enum
  prefix,   // begins_with: a string
};

enum class MemberFinding : unsigned char { ok, other_entity, not_a_field, out_of_order };

struct MembersFinding {
  std::size_t position = 0;  // of the first member not ok
  MemberFinding finding = MemberFinding::ok;
};

inline constexpr fixed_string no_more_fields_text{"(no more fields)"};

// The name of field Index of T, or what stands in its place past the last field.
template <class T, std::size_t Index>
constexpr const auto& field_or_end_text() noexcept {
  if constexpr (Index < field_count_v<T>) {
    return field_name_text_v<T, Index>;
  } else {
    return no_more_fields_text;
  }
}

// The report of the first member that is not ok (one error) or of the last field's type.
template <class T, class Template, auto Member, std::size_t Expected, MemberFinding Finding>
struct ConditionMemberReport;

template <class T, class Template, auto Member, std::size_t Expected>
struct ConditionMemberReport<T, Template, Member, Expected, MemberFinding::other_entity> {
  static constexpr bool ok =
      diagnose_v<false, diagnostics::key_condition_names_a_member_of_another_entity<
                            T, typename member_pointer_traits<Member>::entity>>;
};
template <class T, class Template, auto Member, std::size_t Expected>
struct ConditionMemberReport<T, Template, Member, Expected, MemberFinding::not_a_field> {
  static constexpr bool ok =
      diagnose_v<false,
                 diagnostics::key_condition_names_a_member_that_is_not_a_field_of_the_key_template<
                     T, Template::fixed_text, field_or_end_text<T, member_index_of<Member>()>()>>;
};
template <class T, class Template, auto Member, std::size_t Expected>
struct ConditionMemberReport<T, Template, Member, Expected, MemberFinding::out_of_order> {
  static constexpr bool ok =
      diagnose_v<false,
                 diagnostics::key_condition_members_are_not_the_key_templates_first_fields_in_order<
                     T, Template::fixed_text, field_or_end_text<T, Expected>(),
                     field_or_end_text<T, member_index_of<Member>()>()>>;
};

template <class T, class Template, std::size_t Index, ConditionShape Shape>
struct ConditionFieldReport {
  static constexpr bool ok = true;
};
template <class T, class Template, std::size_t Index>
struct ConditionFieldReport<T, Template, Index, ConditionShape::prefix> {
  using F = key_field_value_t<field_type_t<T, Index>>;
  static constexpr bool ok =
      diagnose_v<KeyString<F>,
                 diagnostics::key_condition_begins_with_on_a_field_that_is_not_a_string<
                     T, Template::fixed_text, field_name_text_v<T, Index>, F>>;
};
template <class T, class Template, std::size_t Index>
struct ConditionFieldReport<T, Template, Index, ConditionShape::range> {
  using F = key_field_value_t<field_type_t<T, Index>>;
  static constexpr bool ok =
      diagnose_v<!KeyEnum<F>,
                 diagnostics::key_condition_orders_an_enum_field_whose_keys_sort_by_enumerator_name<
                     T, Template::fixed_text, field_name_text_v<T, Index>, F>>;
};

}  // namespace detail

namespace detail {

// Conditions on the fields of Template, a sort-key template of T (see the top of this file); what
// they return is Result, a TypedKeyCondition.
template <class T, class Template, class Result>
struct KeyConditions {
 private:
  using Op = KeyCondition::Op;
  static constexpr auto& segments = Template::segments;

  static constexpr std::size_t field_count = [] {
    std::size_t n = 0;
    for (const auto& s : segments) n += s.kind == SegmentKind::field ? 1 : 0;
    return n;
  }();

  // The segment of each field, in the template's order.
  static constexpr std::array<std::size_t, field_count> field_segment = [] {
    std::array<std::size_t, field_count> out{};
    std::size_t n = 0;
    for (std::size_t i = 0; i < segments.size(); ++i) {
      if (segments[i].kind == SegmentKind::field) out[n++] = i;
    }
    return out;
  }();

  // The place among the fields of the field at this segment.
  static constexpr std::size_t field_ordinal(std::size_t segment) noexcept {
    std::size_t n = 0;
    for (std::size_t i = 0; i < segment; ++i) n += segments[i].kind == SegmentKind::field ? 1 : 0;
    return n;
  }

  static constexpr std::size_t expected_field(std::size_t position) noexcept {
    return position < field_count ? segments[field_segment[position]].field : field_count_v<T>;
  }

  template <std::size_t Position, auto Member>
  static consteval MemberFinding finding_of() {
    if constexpr (!std::is_same_v<typename member_pointer_traits<Member>::entity, T>) {
      return MemberFinding::other_entity;
    } else if constexpr (HanaStruct<T>) {
      // Compile time cannot see which member it is (checked when made), only how many there are.
      return Position < field_count ? MemberFinding::ok : MemberFinding::out_of_order;
    } else {
      constexpr std::size_t index = member_index_of<Member>();
      if (index == expected_field(Position)) return MemberFinding::ok;
      for (const auto& s : segments) {
        if (s.kind == SegmentKind::field && s.field == index) return MemberFinding::out_of_order;
      }
      return MemberFinding::not_a_field;
    }
  }

  template <auto... Members>
  static constexpr MembersFinding members_finding =
      []<std::size_t... P>(std::index_sequence<P...>) {
        const std::array<MemberFinding, sizeof...(Members)> found{finding_of<P, Members>()...};
        for (std::size_t i = 0; i < found.size(); ++i) {
          if (found[i] != MemberFinding::ok) return MembersFinding{i, found[i]};
        }
        return MembersFinding{};
      }(std::make_index_sequence<sizeof...(Members)>{});

  // Whether a condition of this shape on the first K fields may be made, computed apart from
  // its diagnosis (pksk/detail/diagnose.hpp).
  template <ConditionShape Shape, std::size_t K>
  static consteval bool field_allows() {
    if constexpr (K == 0 || Shape == ConditionShape::compare) {
      return true;
    } else {
      using F = key_field_value_t<field_type_t<T, expected_field(K - 1)>>;
      return Shape == ConditionShape::prefix ? KeyString<F> : !KeyEnum<F>;
    }
  }

  template <ConditionShape Shape, auto... Members>
  static consteval bool allows() {
    if constexpr (!Template::valid) {
      return false;
    } else if constexpr (members_finding<Members...>.finding != MemberFinding::ok) {
      return false;
    } else {
      return field_allows<Shape, sizeof...(Members)>();
    }
  }

  // Reports the first reason allows() is false: one error.
  template <ConditionShape Shape, auto... Members>
  static consteval bool report() {
    if constexpr (!Template::valid) {
      return Template::diagnosed;
    } else if constexpr (constexpr MembersFinding found = members_finding<Members...>;
                         found.finding != MemberFinding::ok) {
      constexpr auto member =
          std::tuple_element_t<found.position, std::tuple<Constant<Members>...>>::value;
      return ConditionMemberReport<T, Template, member, expected_field(found.position),
                                   found.finding>::ok;
    } else if constexpr (sizeof...(Members) > 0) {
      return ConditionFieldReport<T, Template, expected_field(sizeof...(Members) - 1), Shape>::ok;
    } else {
      return true;
    }
  }

  // A Hana struct's members, unseen at compile time, must be the fields in order.
  template <std::size_t Position, auto Member>
  static bool is_field_at(const T& probe) {
    return static_cast<const void*>(&(probe.*Member)) ==
           static_cast<const void*>(&get_field<expected_field(Position)>(probe));
  }

  template <auto... Members>
  static void check_members_when_made() {
    if constexpr (HanaStruct<T>) {
      static const T probe{};
      [&]<std::size_t... P>(std::index_sequence<P...>) {
        const bool same[] = {is_field_at<P, Members>(probe)...};
        for (std::size_t i = 0; i < sizeof...(P); ++i) {
          if (same[i]) continue;
          throw Error(errc::misuse,
                      "pksk: a key condition on " + std::string(Entity<T>::type) +
                          " names members that are not the first fields of its key template \"" +
                          std::string(Template::text) + "\" in order (member " +
                          std::to_string(i + 1) + " is not " +
                          std::string(field_names_v<T>[expected_field(i)]) + ")");
        }
      }(std::index_sequence_for<decltype(Members)...>{});
    }
  }

  // Appends A, the key text through field K, from values (a tuple); with Partial, the last
  // value may be any prefix of a value, the empty one too.
  template <std::size_t K, bool Partial, class Values>
  static void append_fields(std::string& out, const Values& values) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (append_piece<I, K, Partial>(out, values), ...);
    }(std::make_index_sequence<field_segment[K - 1] + 1>{});
  }

  template <std::size_t I, std::size_t K, bool Partial, class Values>
  static void append_piece(std::string& out, const Values& values) {
    if constexpr (segments[I].kind == SegmentKind::literal) {
      Template::template append_literal<I>(out);
    } else {
      constexpr std::size_t j = field_ordinal(I);
      const auto& value = std::get<j>(values);
      if constexpr (Partial && j + 1 == K) {
        if (value.empty()) return;
      }
      Template::template append_field<I>(out, value);
    }
  }

  // The segment after field K: the literal L (when there is one).
  template <std::size_t K>
  static constexpr std::size_t after = field_segment[K - 1] + 1;

  // L+ for the literal segment I.
  template <std::size_t I>
  static constexpr auto successor =
      successor_text<segments[I].len>(Template::text.substr(segments[I].pos, segments[I].len));

  template <std::size_t K>
  static void append_successor(std::string& out) {
    static_assert(successor<after<K>>.ok,
                  "pksk: a range on the first fields of a sort key needs the literal after them "
                  "to end in valid UTF-8 below U+10FFFF");
    out.append(successor<after<K>>.view());
  }

  // The whole key, or A L, for K given fields.
  template <std::size_t K, class Values>
  static std::string block(const Values& values) {
    std::string key;
    append_fields<K, false>(key, values);
    if constexpr (after<K> < segments.size()) Template::template append_literal<after<K>>(key);
    return key;
  }

  template <std::size_t K, class Values>
  static KeyCondition compared(Op op, const Values& values) {
    std::string key;
    if constexpr (K == field_count) {
      key = block<K>(values);
    } else if (op == Op::le || op == Op::gt) {
      append_fields<K, false>(key, values);
      append_successor<K>(key);
      op = op == Op::le ? Op::lt : Op::ge;
    } else {
      key = block<K>(values);
      if (op == Op::eq) op = Op::begins_with;
    }
    Template::check_size(key);
    return {op, std::move(key), {}, nullptr};
  }

  template <std::size_t K, class Values>
  static KeyCondition ranged(const Values& low, const Values& high) {
    std::string first = block<K>(low);
    std::string second;
    if constexpr (K == field_count) {
      second = block<K>(high);
    } else {
      append_fields<K, false>(second, high);
      append_successor<K>(second);
    }
    Template::check_size(first);
    Template::check_size(second);
    return {Op::between, std::move(first), std::move(second), nullptr};
  }

  // What a misuse returns, after its one error: nothing else of the condition is instantiated.
  template <ConditionShape Shape, auto... Members>
  static KeyCondition rejected() {
    static_assert(report<Shape, Members...>() || true);
    return {};
  }

  template <ConditionShape Shape, auto... Members>
  static KeyCondition compare(Op op, const member_key_value_t<Members>&... values) {
    if constexpr (!allows<Shape, Members...>()) {
      return rejected<Shape, Members...>();
    } else {
      check_members_when_made<Members...>();
      return compared<sizeof...(Members)>(op, std::forward_as_tuple(values...));
    }
  }

  template <ConditionShape Shape>
  static constexpr bool record_allows = Template::valid && field_allows<Shape, field_count>();

  template <ConditionShape Shape>
  static KeyCondition compare_record(Op op, const T& record) {
    if constexpr (!record_allows<Shape>) {
      static_assert(report_record<Shape>() || true);
      return {};
    } else {
      KeyCondition condition{op, {}, {}, nullptr};
      Template::format(record, condition.first);
      return condition;
    }
  }

  template <ConditionShape Shape>
  static consteval bool report_record() {
    if constexpr (!Template::valid) {
      return Template::diagnosed;
    } else if constexpr (field_count > 0) {
      return ConditionFieldReport<T, Template, expected_field(field_count - 1), Shape>::ok;
    } else {
      return true;
    }
  }

 public:
  // Conditions on the first fields: the members name them in the template's order.

  template <auto... Members>
    requires(sizeof...(Members) > 0)
  static Result eq(const member_key_value_t<Members>&... values) {
    return compare<ConditionShape::compare, Members...>(Op::eq, values...);
  }
  template <auto... Members>
    requires(sizeof...(Members) > 0)
  static Result lt(const member_key_value_t<Members>&... values) {
    return compare<ConditionShape::range, Members...>(Op::lt, values...);
  }
  template <auto... Members>
    requires(sizeof...(Members) > 0)
  static Result le(const member_key_value_t<Members>&... values) {
    return compare<ConditionShape::range, Members...>(Op::le, values...);
  }
  template <auto... Members>
    requires(sizeof...(Members) > 0)
  static Result gt(const member_key_value_t<Members>&... values) {
    return compare<ConditionShape::range, Members...>(Op::gt, values...);
  }
  template <auto... Members>
    requires(sizeof...(Members) > 0)
  static Result ge(const member_key_value_t<Members>&... values) {
    return compare<ConditionShape::range, Members...>(Op::ge, values...);
  }

  // Inclusive; low and high are values for one member, tuples of values for several:
  // between<&Shipment::date, &Shipment::seq>({"2020-01-02", 5}, {"2020-01-02", 200}).
  template <auto... Members>
    requires(sizeof...(Members) > 0)
  static Result between(const key_bound_t<Members...>& low, const key_bound_t<Members...>& high) {
    if constexpr (!allows<ConditionShape::range, Members...>()) {
      return rejected<ConditionShape::range, Members...>();
    } else if constexpr (sizeof...(Members) == 1) {
      check_members_when_made<Members...>();
      return ranged<1>(std::forward_as_tuple(low), std::forward_as_tuple(high));
    } else {
      check_members_when_made<Members...>();
      return ranged<sizeof...(Members)>(low, high);
    }
  }

  // The earlier fields equal their values and the last one begins with its value (a string).
  template <auto... Members>
    requires(sizeof...(Members) > 0)
  static Result begins_with(const member_key_value_t<Members>&... values) {
    if constexpr (!allows<ConditionShape::prefix, Members...>()) {
      return rejected<ConditionShape::prefix, Members...>();
    } else {
      check_members_when_made<Members...>();
      std::string prefix;
      append_fields<sizeof...(Members), true>(prefix, std::forward_as_tuple(values...));
      Template::check_size(prefix);
      if (prefix.empty()) return KeyCondition{};
      return KeyCondition{Op::begins_with, std::move(prefix), {}, nullptr};
    }
  }

  // Conditions on the whole key of a record: every field of the template.

  static Result eq(const T& record) {
    return compare_record<ConditionShape::compare>(Op::eq, record);
  }
  static Result lt(const T& record) {
    return compare_record<ConditionShape::range>(Op::lt, record);
  }
  static Result le(const T& record) {
    return compare_record<ConditionShape::range>(Op::le, record);
  }
  static Result gt(const T& record) {
    return compare_record<ConditionShape::range>(Op::gt, record);
  }
  static Result ge(const T& record) {
    return compare_record<ConditionShape::range>(Op::ge, record);
  }
  static Result between(const T& low, const T& high) {
    if constexpr (!record_allows<ConditionShape::range>) {
      static_assert(report_record<ConditionShape::range>() || true);
      return {};
    } else {
      KeyCondition condition{Op::between, {}, {}, nullptr};
      Template::format(low, condition.first);
      Template::format(high, condition.second);
      return condition;
    }
  }
};

}  // namespace detail

// Conditions on T's sort key built from its members: sort_key_of<Order>::between<
// &Order::order_id>("2020-01", "2020-12"); sort_key_of<Order, "gsi1"> on its sort key in the
// index gsi1, for table.index("gsi1").query<Order>. See the top of this file.
template <EntityType T, detail::fixed_string... IndexName>
struct sort_key_of;
template <EntityType T>
struct sort_key_of<T>
    : detail::KeyConditions<T, detail::sort_key_template<T>, TypedKeyCondition<T>> {};
template <EntityType T, detail::fixed_string IndexName>
struct sort_key_of<T, IndexName>
    : detail::KeyConditions<T, typename detail::IndexSortKey<T, IndexName>::type,
                            TypedKeyCondition<T, IndexName>> {};

}  // namespace pksk
