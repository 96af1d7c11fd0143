#pragma once
// Compile-time diagnostics of a key template against its entity: one static_assert per rule,
// whose instantiation context names the entity and the offending text.

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../../reflect/reflect.hpp"
#include "fixed_string.hpp"
#include "parse.hpp"

namespace pksk::detail {

// Diagnostics. A C++20 static_assert message must be a literal, so the entity and the offending
// text travel as template arguments of these checks: g++ and clang print them in the
// "required from" / "in instantiation of" note of the failed assertion. Each check is
// instantiated with Ok computed and fails only when Ok is false; its value is read from static
// data member initializers, never inside a consteval function, because clang then reports the
// whole function as non-constant and buries the message under follow-on errors.

template <class Entity, fixed_string KeyTemplate, fixed_string Offending, bool Ok>
struct key_template_has_brace_without_closing_brace {
  static_assert(Ok, "pksk: malformed key template: '{' without '}'");
  static constexpr bool value = Ok;
};

template <class Entity, fixed_string KeyTemplate, fixed_string Offending, bool Ok>
struct key_template_has_brace_without_opening_brace {
  static_assert(Ok, "pksk: malformed key template: '}' without '{'");
  static constexpr bool value = Ok;
};

template <class Entity, fixed_string KeyTemplate, fixed_string Offending, bool Ok>
struct key_template_has_empty_field {
  static_assert(Ok, "pksk: malformed key template: empty '{}'");
  static constexpr bool value = Ok;
};

template <class Entity, fixed_string KeyTemplate, fixed_string Offending, bool Ok>
struct key_template_has_adjacent_fields {
  static_assert(Ok,
                "pksk: malformed key template: two fields with no literal text between them "
                "would make keys ambiguous");
  static constexpr bool value = Ok;
};

template <class Entity, fixed_string KeyTemplate, fixed_string Field, bool Ok>
struct key_template_field_not_found {
  static_assert(Ok, "pksk: key template names no member of the entity");
  static constexpr bool value = Ok;
};

template <class Entity, fixed_string KeyTemplate, fixed_string Field, class FieldType, bool Ok>
struct key_field_type_not_supported {
  static_assert(Ok,
                "pksk: key field must be a std::string, an integer or an enum "
                "(bool, character and floating-point members cannot be key fields)");
  static constexpr bool value = Ok;
};

template <fixed_string Template, std::size_t Pos, std::size_t Len>
inline constexpr fixed_string<Len> excerpt_v{Template.view().substr(Pos, Len)};

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

template <class T, fixed_string Template, fixed_string Name, std::size_t Index, bool Found>
struct KeyFieldTypeCheck {
  static constexpr bool ok = false;
};

template <class T, fixed_string Template, fixed_string Name, std::size_t Index>
struct KeyFieldTypeCheck<T, Template, Name, Index, true> {
  using F = field_type_t<T, Index>;
  static constexpr bool ok = key_field_type_not_supported<T, Template, Name, F, KeyField<F>>::value;
};

template <class T, fixed_string Template, std::size_t Field>
struct KeyFieldCheck {
  static constexpr Segment segment = field_segment_v<Template, Field>;
  static constexpr auto& name = excerpt_v<Template, segment.pos, segment.len>;
  static constexpr std::size_t index = field_index<T>(name.view());
  static constexpr bool found =
      key_template_field_not_found<T, Template, name, (index < field_count_v<T>)>::value;
  static constexpr bool ok = KeyFieldTypeCheck<T, Template, name, index, found>::ok;
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
      key_template_has_brace_without_closing_brace<T, Template, bad_text_v<Template>, false>::value;
};
template <class T, fixed_string Template>
struct KeySyntaxCheck<T, Template, TemplateError::unopened_brace> {
  static constexpr bool ok =
      key_template_has_brace_without_opening_brace<T, Template, bad_text_v<Template>, false>::value;
};
template <class T, fixed_string Template>
struct KeySyntaxCheck<T, Template, TemplateError::empty_field> {
  static constexpr bool ok =
      key_template_has_empty_field<T, Template, bad_text_v<Template>, false>::value;
};
template <class T, fixed_string Template>
struct KeySyntaxCheck<T, Template, TemplateError::adjacent_fields> {
  static constexpr bool ok =
      key_template_has_adjacent_fields<T, Template, bad_text_v<Template>, false>::value;
};

// Fields are only looked up in a well-formed template, so that one mistake gives one error.
template <class T, fixed_string Template, bool SyntaxOk,
          class Fields = std::make_index_sequence<scan_v<Template>.fields>>
struct KeyFieldsCheck {
  static constexpr bool ok = false;
};

template <class T, fixed_string Template, std::size_t... I>
struct KeyFieldsCheck<T, Template, true, std::index_sequence<I...>> {
  static constexpr bool ok = (KeyFieldCheck<T, Template, I>::ok && ... && true);
};

// Reading this instantiates the checks, so a bad template is diagnosed.
template <class T, fixed_string Template>
inline constexpr bool key_template_diagnosed_v =
    KeyFieldsCheck<T, Template, KeySyntaxCheck<T, Template>::ok>::ok;

// The same answer without the diagnostics: what code that must stay a clean constant
// expression branches on (clang treats a value computed from a failed check as non-constant).
template <class T, fixed_string Template>
consteval bool key_template_ok() {
  if constexpr (scan_v<Template>.error != TemplateError::none) {
    return false;
  } else {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      [[maybe_unused]] const auto field_ok =
          []<std::size_t Field>(std::integral_constant<std::size_t, Field>) {
            constexpr Segment segment = field_segment_v<Template, Field>;
            constexpr std::size_t index =
                field_index<T>(Template.view().substr(segment.pos, segment.len));
            if constexpr (index < field_count_v<T>) {
              return KeyField<field_type_t<T, index>>;
            } else {
              return false;
            }
          };
      return (field_ok(std::integral_constant<std::size_t, I>{}) && ... && true);
    }(std::make_index_sequence<scan_v<Template>.fields>{});
  }
}

}  // namespace pksk::detail
