// SPDX-License-Identifier: BSL-1.0
#pragma once
// The member types a key template's field may name (strings, integers, enums, times, a type
// whose Value stores text) and the optional of one a sparse index's key may name. For the
// layers that format keys and read them back (key/, table/), not for users: public so that
// table/ need not include key/'s private headers; the rules a user sees are in key/key.hpp.

#include <chrono>
#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "../value.hpp"

namespace pksk::detail {

template <class F>
concept KeyString = std::same_as<F, std::string> || std::same_as<F, std::string_view>;

// Character types are excluded: whether 'A' means "A" or "65" would be a guess.
template <class F>
concept KeyInteger = std::integral<F> && !std::same_as<F, bool> && !std::same_as<F, char> &&
                     !std::same_as<F, wchar_t> && !std::same_as<F, char8_t> &&
                     !std::same_as<F, char16_t> && !std::same_as<F, char32_t>;

template <class F>
concept KeyEnum = std::is_enum_v<F>;

// A point in time: written as ISO 8601 UTC text of the clock's full precision, which sorts as
// the instants do ("2024-02-29T23:59:58.123456789Z"), or bucketed by a format spec.
template <class F>
concept KeyTime = std::same_as<F, std::chrono::system_clock::time_point>;

// A type of your own whose Value specialisation (value.hpp) stores it as text: the key holds
// that text, as it holds a string member's.
template <class F>
concept KeyConverted = ValueConverter<F> && std::same_as<value_stored_t<F>, std::string>;

template <class F>
concept KeyField = KeyString<F> || KeyInteger<F> || KeyEnum<F> || KeyTime<F> || KeyConverted<F>;

// A member of a secondary index's key may be an std::optional of a key field: an item whose
// member is empty has no key in that index and so is not in it (DynamoDB's sparse index, per
// item). The value type below is what such a field formats.
template <class F>
struct KeyFieldValue {
  using type = F;
  static constexpr bool optional = false;
};
template <class F>
struct KeyFieldValue<std::optional<F>> {
  using type = F;
  static constexpr bool optional = true;
};
template <class F>
using key_field_value_t = typename KeyFieldValue<F>::type;

// A field of a key template that may be sparse (an index's), or not (the table's).
template <class F, bool Sparse>
concept KeyFieldOf =
    KeyField<F> || (Sparse && KeyFieldValue<F>::optional && KeyField<key_field_value_t<F>>);

}  // namespace pksk::detail
