#pragma once
// Key templates such as "CUSTOMER#{customer_id}": parsed at compile time into literal and field
// segments, checked against the entity (diagnostics below), and formatted at run time by
// appending straight into the caller's string.

#include <algorithm>
#include <array>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../entity.hpp"
#include "../enum_name.hpp"
#include "../error.hpp"
#include "../reflect.hpp"
#include "fixed_string.hpp"

namespace pksk::detail {

// Every key template uses this delimiter between components; no key value may contain it.
inline constexpr char key_delimiter = '#';

enum class KeyRole : unsigned char { partition, sort };

// ---------------------------------------------------------------------------------------------
// Parsing (pure text, no entity involved)

enum class TemplateError : unsigned char {
  none,
  unclosed_brace,   // "{id" or "{a{b}"
  unopened_brace,   // "id}"
  empty_field,      // "{}"
  adjacent_fields,  // "{a}{b}": nothing tells where a ends, so keys would be ambiguous
};

struct TemplateScan {
  TemplateError error = TemplateError::none;
  std::size_t bad_pos = 0;  // the offending text, for diagnostics
  std::size_t bad_len = 0;
  std::size_t segments = 0;
  std::size_t fields = 0;
};

enum class SegmentKind : unsigned char { literal, field };

// pos/len locate the literal text, or the field name without its braces, in the template.
struct Segment {
  SegmentKind kind = SegmentKind::literal;
  std::size_t pos = 0;
  std::size_t len = 0;
};

// Plain index loops, not std::string_view::find: g++ 12 with -fsanitize=undefined instruments
// find's null-pointer test and then refuses it in a constant expression, which would break
// every user build under UBSan.
constexpr std::size_t find_char(std::string_view text, char c, std::size_t from = 0) noexcept {
  for (std::size_t i = from; i < text.size(); ++i) {
    if (text[i] == c) return i;
  }
  return std::string_view::npos;
}

constexpr bool is_brace(char c) noexcept {
  return c == '{' || c == '}';
}

constexpr std::size_t find_brace(std::string_view text, std::size_t from) noexcept {
  for (std::size_t i = from; i < text.size(); ++i) {
    if (is_brace(text[i])) return i;
  }
  return std::string_view::npos;
}

// The last brace at or before `at`.
constexpr std::size_t find_last_brace(std::string_view text, std::size_t at) noexcept {
  for (std::size_t i = std::min(at + 1, text.size()); i > 0; --i) {
    if (is_brace(text[i - 1])) return i - 1;
  }
  return std::string_view::npos;
}

consteval TemplateScan scan_key_template(std::string_view text) {
  TemplateScan scan;
  std::size_t i = 0;
  std::size_t previous_field = std::string_view::npos;  // start of the field just before i
  while (i < text.size()) {
    if (text[i] == '{') {
      const std::size_t close = find_char(text, '}', i + 1);
      const std::size_t nested = find_char(text, '{', i + 1);
      if (close == std::string_view::npos || nested < close) {
        const std::size_t end = nested < close ? nested : text.size();
        return {TemplateError::unclosed_brace, i, end - i, 0, 0};
      }
      if (close == i + 1) return {TemplateError::empty_field, i, 2, 0, 0};
      if (previous_field != std::string_view::npos) {
        return {TemplateError::adjacent_fields, previous_field, close + 1 - previous_field, 0, 0};
      }
      previous_field = i;
      ++scan.segments;
      ++scan.fields;
      i = close + 1;
    } else if (text[i] == '}') {
      // The literal run that the stray brace ends says where it is.
      const std::size_t start = find_last_brace(text, i == 0 ? 0 : i - 1);
      const std::size_t from = (i == 0 || start == std::string_view::npos) ? 0 : start + 1;
      return {TemplateError::unopened_brace, from, i + 1 - from, 0, 0};
    } else {
      const std::size_t end = std::min(find_brace(text, i), text.size());
      previous_field = std::string_view::npos;
      ++scan.segments;
      i = end;
    }
  }
  return scan;
}

template <fixed_string Template>
inline constexpr TemplateScan scan_v = scan_key_template(Template.view());

// Only meaningful for a well-formed template.
template <fixed_string Template>
consteval auto parse_key_template() {
  constexpr std::string_view text = Template.view();
  std::array<Segment, scan_v<Template>.segments> segments{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < text.size() && n < segments.size(); ++n) {
    if (text[i] == '{') {
      const std::size_t close = find_char(text, '}', i);
      segments[n] = {SegmentKind::field, i + 1, close - i - 1};
      i = close + 1;
    } else {
      const std::size_t end = std::min(find_char(text, '{', i), text.size());
      segments[n] = {SegmentKind::literal, i, end - i};
      i = end;
    }
  }
  return segments;
}

// ---------------------------------------------------------------------------------------------
// Key field types

template <class F>
concept KeyString = std::same_as<F, std::string> || std::same_as<F, std::string_view>;

// Character types are excluded: whether 'A' means "A" or "65" would be a guess.
template <class F>
concept KeyInteger = std::integral<F> && !std::same_as<F, bool> && !std::same_as<F, char> &&
                     !std::same_as<F, wchar_t> && !std::same_as<F, char8_t> &&
                     !std::same_as<F, char16_t> && !std::same_as<F, char32_t>;

template <class F>
concept KeyEnum = std::is_enum_v<F>;

template <class F>
concept KeyField = KeyString<F> || KeyInteger<F> || KeyEnum<F>;

// ---------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------
// Run-time validation of a component (the cold path builds the message)

enum class ComponentError : unsigned char {
  none,
  empty,
  delimiter,
  next_literal,
  nul,
  invalid_utf8,
  unnamed_enum,
};

// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
// Returns the offset of the first byte of the first invalid sequence, or npos.
constexpr std::size_t find_invalid_utf8(std::string_view s) noexcept {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const auto cont = [&](std::size_t i, unsigned lo = 0x80, unsigned hi = 0xBF) {
    return i < s.size() && byte(i) >= lo && byte(i) <= hi;
  };
  std::size_t i = 0;
  while (i < s.size()) {
    const unsigned b = byte(i);
    std::size_t n = 0;
    if (b < 0x80) {
      n = 1;
    } else if (b >= 0xC2 && b <= 0xDF) {
      n = cont(i + 1) ? 2 : 0;
    } else if (b == 0xE0) {
      n = cont(i + 1, 0xA0, 0xBF) && cont(i + 2) ? 3 : 0;  // A0: no overlong
    } else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) {
      n = cont(i + 1) && cont(i + 2) ? 3 : 0;
    } else if (b == 0xED) {
      n = cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;  // 9F: no surrogates
    } else if (b == 0xF0) {
      n = cont(i + 1, 0x90, 0xBF) && cont(i + 2) && cont(i + 3) ? 4 : 0;  // 90: no overlong
    } else if (b >= 0xF1 && b <= 0xF3) {
      n = cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    } else if (b == 0xF4) {
      n = cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;  // 8F: <= U+10FFFF
    }
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

// A component must be non-empty: DynamoDB rejects an empty key attribute, and an empty
// component would let "A#{x}#{y}" with x="" collide with other shapes. It must not contain the
// delimiter, nor the first character of the literal that follows it in the template: that
// character is where a reader of the key finds the component's end, so a value holding it could
// forge another item's key. NUL and invalid UTF-8 are rejected because DynamoDB's string keys
// are UTF-8 and a NUL truncates keys in C APIs.
constexpr ComponentError check_component(std::string_view value, int next) noexcept {
  if (value.empty()) return ComponentError::empty;
  for (const char c : value) {
    if (c == '\0') return ComponentError::nul;
    if (c == key_delimiter) return ComponentError::delimiter;
    if (static_cast<unsigned char>(c) == next) return ComponentError::next_literal;
  }
  if (find_invalid_utf8(value) != std::string_view::npos) return ComponentError::invalid_utf8;
  return ComponentError::none;
}

// Printable ASCII as is, other bytes as \xNN (valid multibyte text as is), quotes escaped.
inline void append_escaped(std::string& out, std::string_view value) {
  const bool utf8 = find_invalid_utf8(value) == std::string_view::npos;
  constexpr char hex[] = "0123456789ABCDEF";
  for (const char c : value) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if ((b >= 0x20 && b < 0x7F) || (b >= 0x80 && utf8)) {
      out += c;
    } else {
      out += "\\x";
      out += hex[b >> 4];
      out += hex[b & 0xF];
    }
  }
}

struct ComponentContext {
  std::string_view entity;  // the entity's type discriminator
  std::string_view field;   // the member's name
  std::string_view key_template;
  KeyRole role;
  int next;  // the byte after the field in the template, or -1
};

[[noreturn]] inline void throw_key_error(const ComponentContext& ctx, std::string_view value,
                                         ComponentError error) {
  std::string msg = "pksk: invalid key field ";
  msg.append(ctx.entity).append(".").append(ctx.field).append(" = \"");
  append_escaped(msg, value);
  msg.append("\" (").append(ctx.role == KeyRole::partition ? "partition" : "sort");
  msg.append(" key template \"").append(ctx.key_template).append("\"): ");
  switch (error) {
    case ComponentError::empty:
      msg += "a key field must not be empty";
      break;
    case ComponentError::delimiter:
      msg.append("contains '").append(1, key_delimiter).append("', the key delimiter");
      break;
    case ComponentError::next_literal:
      msg += "contains '";
      {
        const char c = static_cast<char>(ctx.next);
        append_escaped(msg, std::string_view(&c, 1));
      }
      msg += "', the character that follows the field in the key template";
      break;
    case ComponentError::nul:
      msg += "contains a NUL byte";
      break;
    case ComponentError::invalid_utf8:
      msg += "is not valid UTF-8 (at byte ";
      msg += std::to_string(find_invalid_utf8(value));
      msg += ')';
      break;
    case ComponentError::unnamed_enum:
      msg += "the enum value has no enumerator name";
      break;
    case ComponentError::none:
      break;
  }
  throw KeyError(msg);
}

inline void append_checked(std::string& out, std::string_view value, const ComponentContext& ctx) {
  const ComponentError error = check_component(value, ctx.next);
  if (error != ComponentError::none) throw_key_error(ctx, value, error);
  out.append(value);
}

// Digits of the largest value of the unsigned type: 3, 5, 10, 20 for 8, 16, 32, 64 bits.
template <class U>
inline constexpr int sortable_width_v = std::numeric_limits<U>::digits10 + 1;

// Sort-key integers are fixed width so that byte order is numeric order; signed values are
// offset binary (value - min, which flips the sign bit) so that negatives sort first.
template <KeyInteger I>
void append_sortable_integer(std::string& out, I value) {
  using U = std::make_unsigned_t<I>;
  auto bits = static_cast<U>(value);
  if constexpr (std::is_signed_v<I>) {
    bits = static_cast<U>(bits ^ static_cast<U>(U{1} << (std::numeric_limits<U>::digits - 1)));
  }
  constexpr int width = sortable_width_v<U>;
  char buf[width];
  const auto end = std::to_chars(buf, buf + width, bits).ptr;
  out.append(static_cast<std::size_t>(width - (end - buf)), '0');
  out.append(buf, end);
}

template <class F>
void append_component(std::string& out, const F& value, const ComponentContext& ctx) {
  if constexpr (KeyString<F>) {
    append_checked(out, value, ctx);
  } else if constexpr (KeyInteger<F>) {
    if (ctx.role == KeyRole::sort) {
      // Fixed width: the component's end is known without looking for a delimiter.
      append_sortable_integer(out, value);
    } else {
      char buf[std::numeric_limits<F>::digits10 + 3];
      const auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
      // Variable width: a following literal that starts with a digit or '-' must be checked.
      append_checked(out, std::string_view(buf, static_cast<std::size_t>(end - buf)), ctx);
    }
  } else {
    static_assert(KeyEnum<F>);
    const std::string_view name = enum_name(value);
    if (name.empty()) {
      char buf[std::numeric_limits<long long>::digits10 + 3];
      const auto end =
          std::to_chars(buf, buf + sizeof buf,
                        static_cast<long long>(static_cast<std::underlying_type_t<F>>(value)))
              .ptr;
      throw_key_error(ctx, std::string_view(buf, static_cast<std::size_t>(end - buf)),
                      ComponentError::unnamed_enum);
    }
    append_checked(out, name, ctx);
  }
}

// True when both templates have the same literal segments and the same number and order of
// field segments; field names do not matter ("CUSTOMER#{id}" and "CUSTOMER#{customer_id}").
template <fixed_string A, fixed_string B>
consteval bool same_key_shape() {
  if constexpr (scan_v<A>.error != TemplateError::none || scan_v<B>.error != TemplateError::none) {
    return A.view() == B.view();
  } else {
    constexpr auto a = parse_key_template<A>();
    constexpr auto b = parse_key_template<B>();
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i].kind != b[i].kind) return false;
      if (a[i].kind == SegmentKind::literal &&
          A.view().substr(a[i].pos, a[i].len) != B.view().substr(b[i].pos, b[i].len)) {
        return false;
      }
    }
    return true;
  }
}

// ---------------------------------------------------------------------------------------------
// The set of keys a template can produce, as a small automaton over bytes, so that two members
// of a collection can be proven never to produce the same sort key. A field stands for the
// values the formatting rules let through (a superset for enums: any name-like text).

enum class ElemKind : unsigned char { literal, one, star };     // star: zero or more, after a one
enum class CharClass : unsigned char { text, digit, integer };  // integer: digits and '-'

struct LanguageElem {
  ElemKind kind = ElemKind::literal;
  unsigned char c = 0;  // the literal byte
  CharClass cls = CharClass::text;
  int next = -1;  // a byte the field may not hold: the first of the following literal
};

constexpr bool accepts(const LanguageElem& e, unsigned char x) noexcept {
  if (e.kind == ElemKind::literal) return x == e.c;
  if (x == e.next) return false;
  const bool digit = x >= '0' && x <= '9';
  switch (e.cls) {
    case CharClass::digit:
      return digit;
    case CharClass::integer:
      return digit || x == '-';
    case CharClass::text:
      break;
  }
  return x != static_cast<unsigned char>(key_delimiter) && x != 0;
}

template <std::size_t Max>
struct KeyLanguage {
  std::array<LanguageElem, Max> elems{};
  std::size_t size = 0;

  constexpr void push(LanguageElem e) { elems[size++] = e; }
};

// Whether some byte string is in both languages: a search over pairs of positions.
template <std::size_t MaxA, std::size_t MaxB>
consteval bool languages_intersect(const KeyLanguage<MaxA>& a, const KeyLanguage<MaxB>& b) {
  constexpr std::size_t width = MaxB + 1;
  std::array<bool, (MaxA + 1) * (MaxB + 1)> seen{};
  std::array<std::size_t, (MaxA + 1) * (MaxB + 1)> work{};
  std::size_t pending = 0;
  const auto visit = [&](std::size_t p, std::size_t q) {
    if (!seen[p * width + q]) {
      seen[p * width + q] = true;
      work[pending++] = p * width + q;
    }
  };
  const auto step = [](const LanguageElem& e, std::size_t at) {
    return e.kind == ElemKind::star ? at : at + 1;
  };
  visit(0, 0);
  while (pending > 0) {
    const std::size_t state = work[--pending];
    const std::size_t p = state / width;
    const std::size_t q = state % width;
    if (p == a.size && q == b.size) return true;
    if (p < a.size && a.elems[p].kind == ElemKind::star) visit(p + 1, q);
    if (q < b.size && b.elems[q].kind == ElemKind::star) visit(p, q + 1);
    if (p == a.size || q == b.size) continue;
    const LanguageElem& ea = a.elems[p];
    const LanguageElem& eb = b.elems[q];
    // Bytes that no element singles out behave alike, so one of each kind stands for all.
    const int candidates[] = {ea.kind == ElemKind::literal ? ea.c : -1,
                              eb.kind == ElemKind::literal ? eb.c : -1,
                              ea.next,
                              eb.next,
                              key_delimiter,
                              '-',
                              '0',
                              '1',
                              '2',
                              'a',
                              'b',
                              'c'};
    for (const int x : candidates) {
      if (x < 0) continue;
      const auto byte = static_cast<unsigned char>(x);
      if (accepts(ea, byte) && accepts(eb, byte)) visit(step(ea, p), step(eb, q));
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// A key template compiled for an entity. Also usable for other templates of T, such as a
// secondary index's keys: KeyTemplate<T, fixed_string<N>{text}, KeyRole::partition>.

struct CompiledSegment {
  SegmentKind kind = SegmentKind::literal;
  std::size_t pos = 0;  // literal text, or field name, in the template
  std::size_t len = 0;
  std::size_t field = 0;  // index of the member in T
  int next = -1;          // first byte of the following literal, or -1
};

template <class T, fixed_string Template, KeyRole Role>
struct KeyTemplate {
  static constexpr std::string_view text = Template.view();
  static constexpr bool valid = key_template_ok<T, Template>();
  static constexpr bool diagnosed = key_template_diagnosed_v<T, Template>;

  // Empty when invalid, so that a diagnosed template adds no follow-on errors.
  static constexpr auto segments = [] {
    if constexpr (valid) {
      constexpr auto parsed = parse_key_template<Template>();
      std::array<CompiledSegment, parsed.size()> out{};
      for (std::size_t i = 0; i < parsed.size(); ++i) {
        out[i].kind = parsed[i].kind;
        out[i].pos = parsed[i].pos;
        out[i].len = parsed[i].len;
        if (parsed[i].kind == SegmentKind::field) {
          out[i].field = field_index<T>(text.substr(parsed[i].pos, parsed[i].len));
          if (i + 1 < parsed.size())
            out[i].next = static_cast<unsigned char>(text[parsed[i + 1].pos]);
        }
      }
      return out;
    } else {
      return std::array<CompiledSegment, 0>{};
    }
  }();

  // The literal text before the first field (the whole template when it has no field).
  static constexpr std::string_view prefix = text.substr(0, find_char(text, '{'));

  static constexpr std::size_t literal_size = [] {
    std::size_t n = 0;
    for (const auto& s : segments) n += s.kind == SegmentKind::literal ? s.len : 0;
    return n;
  }();

  template <std::size_t I, class Language>
  static constexpr void add_to_language(Language& lang) {
    constexpr CompiledSegment s = segments[I];
    if constexpr (s.kind == SegmentKind::literal) {
      for (const char c : text.substr(s.pos, s.len)) {
        lang.push({ElemKind::literal, static_cast<unsigned char>(c), CharClass::text, -1});
      }
    } else {
      using F = field_type_t<T, s.field>;
      if constexpr (KeyInteger<F> && Role == KeyRole::sort) {
        for (int i = 0; i < sortable_width_v<std::make_unsigned_t<F>>; ++i) {
          lang.push({ElemKind::one, 0, CharClass::digit, -1});
        }
      } else {
        const CharClass cls = KeyInteger<F> ? CharClass::integer : CharClass::text;
        lang.push({ElemKind::one, 0, cls, s.next});
        lang.push({ElemKind::star, 0, cls, s.next});
      }
    }
  }

  // The keys this template can produce (empty when invalid).
  static constexpr auto language = [] {
    KeyLanguage<text.size() + 2 * sortable_width_v<std::uint64_t> * scan_v<Template>.fields + 1>
        lang;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (add_to_language<I>(lang), ...);
    }(std::make_index_sequence<segments.size()>{});
    return lang;
  }();

  static void format(const T& record, std::string& out) {
    // Reading it instantiates the checks: a bad template is reported where it is first used.
    (void)diagnosed;
    out.clear();
    out.reserve(literal_size);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (append_segment<I>(record, out), ...);
    }(std::make_index_sequence<segments.size()>{});
  }

 private:
  template <std::size_t I>
  static void append_segment(const T& record, std::string& out) {
    constexpr CompiledSegment s = segments[I];
    if constexpr (s.kind == SegmentKind::literal) {
      out.append(text.substr(s.pos, s.len));
    } else {
      static constexpr ComponentContext ctx{Entity<T>::type, text.substr(s.pos, s.len), text, Role,
                                            s.next};
      append_component(out, get_field<s.field>(record), ctx);
    }
  }
};

}  // namespace pksk::detail
