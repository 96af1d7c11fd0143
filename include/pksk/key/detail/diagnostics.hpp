// SPDX-License-Identifier: BSL-1.0
#pragma once
// Compile-time diagnostics of a key template against its entity: one error per mistake, naming
// the entity, the template and the offending text (pksk/detail/diagnose.hpp).

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../../detail/diagnose.hpp"
#include "../../detail/fixed_string.hpp"
#include "../../reflect/reflect.hpp"
#include "parse.hpp"

namespace pksk::diagnostics {

// The rules a key template is checked against (see pksk/detail/diagnose.hpp): each names the
// entity, its template and the offending text.

template <class Entity, detail::fixed_string KeyTemplate, detail::fixed_string Offending>
struct malformed_key_template_brace_without_closing_brace;

template <class Entity, detail::fixed_string KeyTemplate, detail::fixed_string Offending>
struct malformed_key_template_brace_without_opening_brace;

template <class Entity, detail::fixed_string KeyTemplate, detail::fixed_string Offending>
struct malformed_key_template_empty_field;

// "{a}{b}": nothing would tell where a ends, so keys would be ambiguous.
template <class Entity, detail::fixed_string KeyTemplate, detail::fixed_string Offending>
struct malformed_key_template_two_fields_with_no_literal_text_between_them;

template <class Entity, detail::fixed_string KeyTemplate, detail::fixed_string Field>
struct key_template_names_no_member_of_the_entity;

// A format spec after ':' that is none of year, month, day, hour, shard(N) with N 1 to 65536,
// lower, upper, number.
template <class Entity, detail::fixed_string KeyTemplate, detail::fixed_string Offending>
struct malformed_key_template_unknown_format_spec;

// bool, character and floating-point members cannot be key fields.
template <class Entity, detail::fixed_string KeyTemplate, detail::fixed_string Field,
          class FieldType>
struct key_field_must_be_a_string_an_integer_or_an_enum;

// {at:month} on a member that is not a time_point; {id:shard(8)} on a time_point; {n:lower} on
// an integer or a time; {id:number} on anything but an integer.
template <class Entity, detail::fixed_string KeyTemplate, detail::fixed_string Field,
          detail::fixed_string Spec, class FieldType>
struct key_format_spec_does_not_apply_to_the_member_type;

// {seq:number} makes the member the table's numeric sort key: it must be the whole template
// ("{seq:number}", not "#SEQ#{seq:number}"), in the entity's sk, not in a partition key or an
// index's key, which are strings.
template <class Entity, detail::fixed_string KeyTemplate>
struct number_key_spec_must_be_the_whole_sort_key_template;

}  // namespace pksk::diagnostics

namespace pksk::detail {

template <fixed_string Template, std::size_t Pos, std::size_t Len>
inline constexpr fixed_string<Len> excerpt_v{Template.view().substr(Pos, Len)};

// Where a field's spec may stand: ":number" only as the whole template of a table's sort key
// (not sparse: an index's keys are strings; the role is checked by KeyTemplate).
template <fixed_string Template, bool Sparse>
constexpr bool spec_placed(ParsedSpec spec) noexcept {
  if (spec.spec != KeySpec::number) return true;
  return !Sparse && Template.view().front() == '{' && Template.view().back() == '}' &&
         find_char(Template.view(), '}') == Template.view().size() - 1;
}

template <fixed_string Template>
inline constexpr auto& bad_text_v =
    excerpt_v<Template, scan_v<Template>.bad_pos, scan_v<Template>.bad_len>;

// The Field-th field segment of a well-formed template.
template <fixed_string Template, std::size_t Field>
inline constexpr Segment field_segment_v = [] {
  std::size_t seen = 0;
  for (const Segment& s : parse_key_template<Template>()) {
    if (s.kind == SegmentKind::field && seen++ == Field) return s;
  }
  return Segment{};
}();

template <class T, fixed_string Template, fixed_string Name, std::size_t Index, bool Found,
          bool Sparse, fixed_string Spec>
struct KeyFieldTypeCheck {
  static constexpr bool ok = false;
};

template <class T, fixed_string Template, fixed_string Name, fixed_string Spec, class F,
          bool TypeOk, bool Sparse>
struct KeySpecCheck {
  static constexpr bool ok = true;  // a type that is no key field is reported by itself
};
template <class T, fixed_string Template, fixed_string Name, fixed_string Spec, class F,
          bool Sparse>
struct KeySpecCheck<T, Template, Name, Spec, F, true, Sparse> {
  static constexpr ParsedSpec spec = parse_key_spec(Spec.view());
  static constexpr bool applies = spec_applies<key_field_value_t<F>>(spec);
  // Where a spec that does not apply is reported, not also where it stands.
  static constexpr bool placed = !applies || spec_placed<Template, Sparse>(spec);
  static constexpr bool ok =
      diagnose_v<applies, diagnostics::key_format_spec_does_not_apply_to_the_member_type<
                              T, Template, Name, Spec, F>> &&
      diagnose_v<placed,
                 diagnostics::number_key_spec_must_be_the_whole_sort_key_template<T, Template>>;
};

template <class T, fixed_string Template, fixed_string Name, std::size_t Index, bool Sparse,
          fixed_string Spec>
struct KeyFieldTypeCheck<T, Template, Name, Index, true, Sparse, Spec> {
  using F = field_type_t<T, Index>;
  static constexpr bool ok =
      diagnose_v<
          KeyFieldOf<F, Sparse>,
          diagnostics::key_field_must_be_a_string_an_integer_or_an_enum<T, Template, Name, F>> &&
      KeySpecCheck<T, Template, Name, Spec, F, KeyFieldOf<F, Sparse>, Sparse>::ok;
};

template <class T, fixed_string Template, std::size_t Field, bool Sparse>
struct KeyFieldCheck {
  static constexpr Segment segment = field_segment_v<Template, Field>;
  static constexpr auto& name = excerpt_v<Template, segment.pos, segment.len>;
  static constexpr std::size_t index = field_index<T>(name.view());
  // Computed apart from its diagnosis, so that the type is only checked for a member found.
  static constexpr bool found = index < field_count_v<T>;
  static constexpr bool ok =
      diagnose_v<found,
                 diagnostics::key_template_names_no_member_of_the_entity<T, Template, name>> &&
      KeyFieldTypeCheck<T, Template, name, index, found, Sparse,
                        excerpt_v<Template, segment.spec_pos, segment.spec_len>>::ok;
};

template <class T, fixed_string Template, TemplateError Error = scan_v<Template>.error>
struct KeySyntaxCheck;

template <class T, fixed_string Template>
struct KeySyntaxCheck<T, Template, TemplateError::none> {
  static constexpr bool ok = true;
};
template <class T, fixed_string Template>
struct KeySyntaxCheck<T, Template, TemplateError::unclosed_brace> {
  static constexpr bool ok =
      diagnose_v<false, diagnostics::malformed_key_template_brace_without_closing_brace<
                            T, Template, bad_text_v<Template>>>;
};
template <class T, fixed_string Template>
struct KeySyntaxCheck<T, Template, TemplateError::unopened_brace> {
  static constexpr bool ok =
      diagnose_v<false, diagnostics::malformed_key_template_brace_without_opening_brace<
                            T, Template, bad_text_v<Template>>>;
};
template <class T, fixed_string Template>
struct KeySyntaxCheck<T, Template, TemplateError::empty_field> {
  static constexpr bool ok = diagnose_v<
      false, diagnostics::malformed_key_template_empty_field<T, Template, bad_text_v<Template>>>;
};
template <class T, fixed_string Template>
struct KeySyntaxCheck<T, Template, TemplateError::unknown_format_spec> {
  static constexpr bool ok = diagnose_v<
      false,
      diagnostics::malformed_key_template_unknown_format_spec<T, Template, bad_text_v<Template>>>;
};
template <class T, fixed_string Template>
struct KeySyntaxCheck<T, Template, TemplateError::adjacent_fields> {
  static constexpr bool ok =
      diagnose_v<false,
                 diagnostics::malformed_key_template_two_fields_with_no_literal_text_between_them<
                     T, Template, bad_text_v<Template>>>;
};

// Fields are only looked up in a well-formed template, so that one mistake gives one error.
template <class T, fixed_string Template, bool Sparse,
          bool SyntaxOk = scan_v<Template>.error == TemplateError::none,
          class Fields = std::make_index_sequence<scan_v<Template>.fields>>
struct KeyFieldsCheck {
  static constexpr bool ok = KeySyntaxCheck<T, Template>::ok;
};

template <class T, fixed_string Template, bool Sparse, std::size_t... I>
struct KeyFieldsCheck<T, Template, Sparse, true, std::index_sequence<I...>> {
  static constexpr bool ok = (KeyFieldCheck<T, Template, I, Sparse>::ok && ... && true);
};

// Reading this instantiates the checks, so a bad template is diagnosed. Sparse: the template of
// a secondary index's key, whose fields may be optional members.
template <class T, fixed_string Template, bool Sparse = false>
inline constexpr bool key_template_diagnosed_v = KeyFieldsCheck<T, Template, Sparse>::ok;

// Whether a well-formed template has a "{member:number}" field.
template <fixed_string Template>
consteval bool has_number_spec() {
  if constexpr (scan_v<Template>.error != TemplateError::none) {
    return false;
  } else {
    for (const Segment& s : parse_key_template<Template>()) {
      if (s.kind == SegmentKind::field &&
          parse_key_spec(Template.view().substr(s.spec_pos, s.spec_len)).spec == KeySpec::number)
        return true;
    }
    return false;
  }
}

// The same answer without the diagnostics: what code that must stay a clean constant
// expression branches on, so that a failed check is the only error (a value computed from a
// failed check is erroneous itself).
template <class T, fixed_string Template, bool Sparse = false>
consteval bool key_template_ok() {
  if constexpr (scan_v<Template>.error != TemplateError::none) {
    return false;
  } else {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      [[maybe_unused]] const auto field_ok = []<std::size_t Field>(
                                                 std::integral_constant<std::size_t, Field>) {
        constexpr Segment segment = field_segment_v<Template, Field>;
        constexpr std::size_t index =
            field_index<T>(Template.view().substr(segment.pos, segment.len));
        if constexpr (index < field_count_v<T>) {
          using F = field_type_t<T, index>;
          if constexpr (KeyFieldOf<F, Sparse>) {
            constexpr ParsedSpec spec =
                parse_key_spec(Template.view().substr(segment.spec_pos, segment.spec_len));
            return spec_applies<key_field_value_t<F>>(spec) && spec_placed<Template, Sparse>(spec);
          } else {
            return false;
          }
        } else {
          return false;
        }
      };
      return (field_ok(std::integral_constant<std::size_t, I>{}) && ... && true);
    }(std::make_index_sequence<scan_v<Template>.fields>{});
  }
}

}  // namespace pksk::detail
