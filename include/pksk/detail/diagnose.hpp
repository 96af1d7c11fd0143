// SPDX-License-Identifier: BSL-1.0
#pragma once
// Compile-time diagnostics that name what the user wrote: one error per misuse, whose first
// (and only) `error:` line names the rule, the entity or entities and the offending text, on
// g++ and clang alike.
//
// Why not static_assert: a C++20 static_assert message must be a literal, so the entity and the
// text can only travel as template arguments, and g++ prints those in a "required from" note,
// not in the error line. What both compilers do print in the error line is the full name of a
// class template specialization that is used while incomplete. So each rule is a class template
// in pksk::diagnostics, declared and never defined, named by the rule and taking as arguments
// the entity and the offending text; a failed check asks for its size:
//
//   g++-12:    error: invalid application of 'sizeof' to incomplete type
//              'pksk::diagnostics::key_template_names_no_member_of_the_entity<Customer,
//              pksk::detail::fixed_string<14>{"CUSTOMER#{idd}"}, ...{"idd"}>'
//   clang-16:  error: implicit instantiation of undefined template
//              'pksk::diagnostics::key_template_names_no_member_of_the_entity<Customer,
//              fixed_string<14>{"CUSTOMER#{idd}"}, fixed_string<3>{"idd"}>'
//
// A new rule (an update of a key member, a condition value of the wrong type, a projection of
// another entity's member) is one declaration and one check:
//
//   namespace pksk::diagnostics {
//   template <class Entity, detail::fixed_string Member>
//   struct update_assigns_a_key_member_of;  // never defined
//   }
//   template <class T, detail::fixed_string Member>
//   inline constexpr bool update_ok_v = detail::diagnose_v<
//       !is_key_member<T>(Member), diagnostics::update_assigns_a_key_member_of<T, Member>>;
//
// and the code the misuse would make ill-formed runs only under `if constexpr` of the same
// condition computed without diagnose_v, so that a failed check is the only error. Rule names
// are spelled as a sentence about what the user wrote; no name may contain "error:", which the
// compile-fail tests count.

#include "fixed_string.hpp"

namespace pksk {

// Declarations only, one per rule: see above.
namespace diagnostics {}

namespace detail {

template <bool Ok, class Rule>
struct Diagnose {
  static constexpr bool ok = true;
};

// Rule is never defined: asking for its size is the diagnostic. ok stays a clean false, not an
// erroneous value, so that nothing computed from it is reported again (g++ would add "non-
// constant condition" to an assertion on it).
template <class Rule>
struct Diagnose<false, Rule> {
  static_assert(sizeof(Rule) > 0);
  static constexpr bool ok = false;
};

// Ok, after reporting Rule when Ok is false. Reading it is what reports the misuse.
template <bool Ok, class Rule>
inline constexpr bool diagnose_v = Diagnose<Ok, Rule>::ok;

// True, after Check::ok has run Check's diagnostics: for a static_assert that must instantiate
// the checks without failing a second time when one of them has reported its rule.
template <class Check>
inline constexpr bool checked_v = Check::ok || true;

}  // namespace detail
}  // namespace pksk
