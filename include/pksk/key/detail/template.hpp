// SPDX-License-Identifier: BSL-1.0
#pragma once
// A key template compiled for an entity: its segments, literal prefix, language and formatter.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "../../detail/fixed_string.hpp"
#include "../../reflect/reflect.hpp"
#include "../entity.hpp"
#include "collision.hpp"
#include "diagnostics.hpp"
#include "format.hpp"
#include "parse.hpp"

namespace pksk::detail {

// A key template compiled for an entity. Also usable for other templates of T, such as a
// secondary index's keys: KeyTemplate<T, fixed_string<N>{text}, KeyRole::partition, true>.
// Sparse (an index's templates): a field may be an std::optional member, and an item whose
// member is empty has no such key (present() is false).

struct CompiledSegment {
  SegmentKind kind = SegmentKind::literal;
  std::size_t pos = 0;  // literal text, or field name, in the template
  std::size_t len = 0;
  std::size_t field = 0;  // index of the member in T
  int next = -1;          // first byte of the following literal, or -1
  ParsedSpec spec{};      // the field's format spec ("{at:month}")
};

template <class T, fixed_string Template, KeyRole Role, bool Sparse = false>
struct KeyTemplate {
  using entity_type = T;
  static constexpr KeyRole role = Role;
  static constexpr std::string_view text = Template.view();
  static constexpr auto fixed_text = Template;  // as a template argument, for diagnostics
  // A partition key is a string: "{id:number}" has no place in one.
  static constexpr bool number_placed = Role == KeyRole::sort || !has_number_spec<Template>();
  static constexpr bool valid = key_template_ok<T, Template, Sparse>() && number_placed;
  static constexpr bool diagnosed =
      key_template_diagnosed_v<T, Template, Sparse> &&
      diagnose_v<number_placed,
                 diagnostics::number_key_spec_must_be_the_whole_sort_key_template<T, Template>>;

  // Empty when invalid, so that a diagnosed template adds no follow-on errors.
  static constexpr auto segments = [] {
    if constexpr (valid) {
      constexpr auto parsed = parse_key_template<Template>();
      std::array<CompiledSegment, parsed.size()> out{};
      for (std::size_t i = 0; i < parsed.size(); ++i) {
        out[i].kind = parsed[i].kind;
        out[i].pos = parsed[i].pos;
        out[i].len = parsed[i].len;
        out[i].spec = parse_key_spec(text.substr(parsed[i].spec_pos, parsed[i].spec_len));
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
      using F = key_field_value_t<field_type_t<T, s.field>>;
      if constexpr (s.spec.spec == KeySpec::shard) {
        if constexpr (Role == KeyRole::sort) {
          for (int i = 0; i < shard_width(s.spec.shards); ++i) {
            lang.push({ElemKind::one, 0, CharClass::digit, -1});
          }
        } else {
          lang.push({ElemKind::one, 0, CharClass::integer, s.next});
          lang.push({ElemKind::star, 0, CharClass::integer, s.next});
        }
      } else if constexpr (s.spec.spec == KeySpec::number) {
        lang.push({ElemKind::one, 0, CharClass::integer, -1});
        lang.push({ElemKind::star, 0, CharClass::integer, -1});
      } else if constexpr (KeyInteger<F> && Role == KeyRole::sort) {
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

  // Whether the record has this key: false when an optional member it is formatted from is
  // empty (only in a sparse template).
  static bool present(const T& record) noexcept {
    bool all = true;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((all = all && field_present<I>(record)), ...);
    }(std::make_index_sequence<segments.size()>{});
    return all;
  }

  // KeyError when the record has no such key (present() is false).
  static void format(const T& record, std::string& out) {
    // Reading it instantiates the checks: a bad template is reported where it is first used.
    (void)diagnosed;
    out.clear();
    out.reserve(literal_size);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (append_segment<I>(record, out), ...);
    }(std::make_index_sequence<segments.size()>{});
    check_size(out);
  }

  // The pieces format() is made of, for the typed key conditions (typed_condition.hpp), which
  // format keys, or their first fields, from values rather than from a record.

  // Appends literal segment I.
  template <std::size_t I>
  static void append_literal(std::string& out) {
    constexpr CompiledSegment s = segments[I];
    static_assert(s.kind == SegmentKind::literal);
    out.append(text.substr(s.pos, s.len));
  }

  // Appends value as field segment I, by the rules above (KeyError when it breaks one).
  template <std::size_t I, class V>
  static void append_field(std::string& out, const V& value) {
    constexpr CompiledSegment s = segments[I];
    static_assert(s.kind == SegmentKind::field);
    static constexpr ComponentContext ctx{Entity<T>::type, text.substr(s.pos, s.len), text, Role,
                                          s.next};
    if constexpr (s.spec.spec == KeySpec::none) {
      append_component(out, value, ctx);
    } else if constexpr (s.spec.spec == KeySpec::number) {
      append_number(out, value, ctx);
    } else if constexpr (s.spec.spec == KeySpec::shard) {
      append_shard(out, value, s.spec.shards, ctx);
    } else if constexpr (s.spec.spec == KeySpec::lower || s.spec.spec == KeySpec::upper) {
      append_cased(out, value, s.spec.spec == KeySpec::upper, ctx);
    } else {
      append_time_bucket(out, value, s.spec.spec, ctx);
    }
  }

  // KeyError when out is longer than DynamoDB allows a key of this role.
  static void check_size(const std::string& out) {
    if (out.size() > max_key_size(Role)) [[unlikely]] {
      throw_key_too_long(Entity<T>::type, text, Role, out.size());
    }
  }

 private:
  template <std::size_t I>
  static bool field_present(const T& record) noexcept {
    if constexpr (segments[I].kind == SegmentKind::literal) {
      return true;
    } else if constexpr (KeyFieldValue<field_type_t<T, segments[I].field>>::optional) {
      return get_field<segments[I].field>(record).has_value();
    } else {
      return true;
    }
  }

  template <std::size_t I>
  static void append_segment(const T& record, std::string& out) {
    if constexpr (segments[I].kind == SegmentKind::literal) {
      append_literal<I>(out);
    } else if constexpr (KeyFieldValue<field_type_t<T, segments[I].field>>::optional) {
      const auto& member = get_field<segments[I].field>(record);
      if (!member) [[unlikely]] {
        constexpr CompiledSegment s = segments[I];
        static constexpr ComponentContext ctx{Entity<T>::type, text.substr(s.pos, s.len), text,
                                              Role, s.next};
        throw_key_error(ctx, {}, ComponentError::absent);
      }
      append_field<I>(out, *member);
    } else {
      append_field<I>(out, get_field<segments[I].field>(record));
    }
  }
};

}  // namespace pksk::detail
