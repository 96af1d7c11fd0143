// SPDX-License-Identifier: BSL-1.0
#pragma once
// Whether two key templates can produce the same key: same shape, or a byte automaton of each
// template's language and a search for a common word.

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string_view>

#include "../../detail/fixed_string.hpp"
#include "parse.hpp"

namespace pksk::detail {

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

// Two templates whose literal prefixes differ at a position both have ("E1#" and "E2#{id}")
// can never produce the same key. That is how collection members are usually told apart, and
// deciding it here spares building and searching both languages below: a few hundred
// microseconds of constant evaluation per pair, and a collection of n members has n(n-1)/2.
constexpr bool literal_prefixes_differ(std::string_view a, std::string_view b) noexcept {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) return true;
  }
  return false;
}

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

// Whether `key` is in the language (elems, a KeyLanguage's first `size`): the automaton run
// over the key's bytes, a set of positions at a time. A key it refuses is one the template
// cannot produce; one it accepts may still break a rule the language does not model (UTF-8).
constexpr bool language_accepts(std::span<const LanguageElem> elems,
                                std::string_view key) noexcept {
  constexpr std::size_t max_positions = 512;
  if (elems.size() >= max_positions) return true;  // not modelled: let the backend answer
  // Up to the first star one position is live, and each byte moves it on: the literal prefix
  // of "CUSTOMER#{id}" and a field's first byte are matched without the automaton's sets (a
  // partition key is checked on every query).
  std::size_t first = 0;
  while (first < elems.size() && elems[first].kind != ElemKind::star) {
    if (first == key.size() || !accepts(elems[first], static_cast<unsigned char>(key[first])))
      return false;
    ++first;
  }
  if (first == elems.size()) return first == key.size();
  elems = elems.subspan(first);
  key.remove_prefix(first);
  // Only the first elems.size() + 1 positions are used: each byte clears and swaps those, not
  // the whole arrays.
  const std::size_t positions = elems.size() + 1;
  std::array<bool, max_positions> a;  // NOLINT(cppcoreguidelines-pro-type-member-init): filled
  std::array<bool, max_positions> b;  // NOLINT(cppcoreguidelines-pro-type-member-init)
  std::fill_n(a.data(), positions, false);
  bool* now = a.data();
  bool* next = b.data();
  const auto skip_stars = [&](bool* at) {
    for (std::size_t p = 0; p < elems.size(); ++p) {
      if (at[p] && elems[p].kind == ElemKind::star) at[p + 1] = true;
    }
  };
  now[0] = true;
  skip_stars(now);
  for (const char ch : key) {
    const auto byte = static_cast<unsigned char>(ch);
    std::fill_n(next, positions, false);
    bool any = false;
    for (std::size_t p = 0; p < elems.size(); ++p) {
      if (!now[p] || !accepts(elems[p], byte)) continue;
      next[elems[p].kind == ElemKind::star ? p : p + 1] = true;
      any = true;
    }
    if (!any) return false;
    skip_stars(next);
    std::swap(now, next);
  }
  return now[elems.size()];
}

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

}  // namespace pksk::detail
