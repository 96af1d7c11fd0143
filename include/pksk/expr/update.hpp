// SPDX-License-Identifier: BSL-1.0
#pragma once
// The typed update actions of Table::update and Transaction::update: set, add, remove, append
// and if_not_exists on a member, checked where they are written (a key member refused, a value
// of another type refused), each one backend::UpdateAction of the raw tree (expression.hpp) tagged
// with its entity. The typed paths they act on are attr.hpp's.

#include <cstddef>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../detail/diagnose.hpp"
#include "../detail/fixed_string.hpp"
#include "../key/entity.hpp"
#include "../key/key.hpp"
#include "../reflect/member_pointer.hpp"
#include "../reflect/reflect.hpp"
#include "attr.hpp"
#include "expression.hpp"

namespace pksk {

// One update action on entity T: what set, add, remove, append and if_not_exists below make
// (each a class derived from it).
template <class T>
struct Update {
  // The action, in the backend's terms.
  backend::UpdateAction action;
};

namespace diagnostics {
// update_changes_a_member_of_the_items_key, with the member passed as an argument:
// pksk::set(&Order::order_id, ...). A function, where the template-argument spelling has a class:
// the check runs in the compile-time evaluation of the argument's conversion
// (detail::NonKeyMember), which only a call to a function that is not constexpr fails, and the
// compilers name that function with its template arguments, the entity and the member (g++ in
// the error line; clang in the note under it, its error line naming NonKeyMember<Entity, ...>
// above the call).
// Throws: nothing (it is never called: its name is the diagnostic).
// Exception safety: nothrow.
template <class Entity, detail::fixed_string Member>
void update_action_targets_a_member_of_the_items_key() {}
// update_changes_the_version_member_of_a_versioned_entity, with the member passed as an
// argument: pksk::add(&Cart::revision, 1). Reported as the key member's rule above.
// Throws: nothing (it is never called: its name is the diagnostic).
// Exception safety: nothrow.
template <class Entity, detail::fixed_string Member>
void update_action_targets_the_version_member_of_a_versioned_entity() {}
// add or append on a compressed member (Entity<T>::compressed): its stored value is a zstd
// frame, which DynamoDB can neither add to nor append to. Reported as the key member's rule.
// Throws: nothing (it is never called: its name is the diagnostic).
// Exception safety: nothrow.
template <class Entity, detail::fixed_string Member>
void update_action_adds_or_appends_to_a_compressed_member() {}
// add on a member that is neither a number nor a set (a string, say): DynamoDB's ADD takes
// only those. Reported as the key member's rule.
// Throws: nothing (it is never called: its name is the diagnostic).
// Exception safety: nothrow.
template <class Entity, detail::fixed_string Member>
void update_action_adds_to_a_member_that_is_not_a_number_or_a_set() {}
// append on a member that is not a list (a string or bytes, say): DynamoDB's list_append takes
// only lists. Reported as the key member's rule.
// Throws: nothing (it is never called: its name is the diagnostic).
// Exception safety: nothrow.
template <class Entity, detail::fixed_string Member>
void update_action_appends_to_a_member_that_is_not_a_list() {}
}  // namespace diagnostics

namespace detail {

template <class T>
Update<T> make_update(backend::UpdateAction::Kind kind, backend::AttributePath path,
                      AttributeValue value = {}) {
  return {{kind, std::move(path), std::move(value)}};
}

// A compressed member's value in an update: the frame encode_fields would write.
template <class T, class V>
AttributeValue compressed_value(std::string_view name, const V& value) {
  try {
    if constexpr (std::is_same_v<V, std::string>) check_utf8(value);
    return AttributeValue::from_binary(
        std::string(zstd_compress(bytes_of(value), compression_level_of<T>())));
  } catch (PathedFailure& failure) {
    failure.prepend_member(name);
    throw_encode_failure(failure);
  }
}

// The value a set or if_not_exists stores at `path`: for a compressed member of T
// (codec/compressed.hpp), the zstd frame a put would store, as a binary value.
template <class T, class M>
AttributeValue update_value(const backend::AttributePath& path, const member_value_t<M>& value) {
  if constexpr (has_compressed_v<T> && compressible_member_v<M>) {
    if (path.steps.size() == 1 && !path.steps[0].is_index) {
      for (std::size_t i = 0; i < field_count_v<T>; ++i) {
        if (compressed_fields_v<T>[i] && stored_names_v<T>[i] == path.steps[0].name) {
          return compressed_value<T>(path.steps[0].name, value);
        }
      }
    }
  }
  return to_attribute_value(value);
}

// A set or if_not_exists of a blob member (codec/blob_member.hpp) stores its value inline: one
// over the entity's threshold is refused, as only Table::put stores objects.
template <class T, class V>
void check_blob_update(const backend::AttributePath& path, const V& value) {
  if (path.steps.size() != 1 || path.steps[0].is_index) return;
  for (std::size_t i = 0; i < field_count_v<T>; ++i) {
    if (blob_fields_v<T>[i] && stored_names_v<T>[i] == path.steps[0].name) {
      try {
        if (blob_bytes_of(value).size() > blob_threshold_of<T>())
          throw_blob_value_unwritable(blob_bytes_of(value).size(), blob_threshold_of<T>());
      } catch (PathedFailure& failure) {
        failure.prepend_member(path.steps[0].name);
        throw_encode_failure(failure);
      }
    }
  }
}

// A time a set or if_not_exists stores at `path`: for T's ttl member (codec/ttl.hpp), epoch
// seconds as a number, as a put stores it; elsewhere its ISO 8601 text.
template <class T>
AttributeValue time_value(const backend::AttributePath& path, const TimePoint& value) {
  if constexpr (ttl_field_v<T> < field_count_v<T>) {
    if (path.steps.size() == 1 && !path.steps[0].is_index &&
        stored_names_v<T>[ttl_field_v<T>] == path.steps[0].name) {
      return AttributeValue::from_number(std::to_string(epoch_seconds(value)));
    }
  }
  return to_attribute_value(value);
}

// set or if_not_exists of `value` at a's path.
template <class T, class M>
Update<T> make_set(backend::UpdateAction::Kind kind, Attr<T, M>&& a,
                   const member_value_t<M>& value) {
  if constexpr (has_ttl_v<T> && std::is_same_v<member_value_t<M>, TimePoint>) {
    AttributeValue stored = time_value<T>(a.path(), value);
    return make_update<T>(kind, std::move(a).path(), std::move(stored));
  } else if constexpr (has_compressed_v<T> && compressible_member_v<M>) {
    AttributeValue stored = update_value<T, M>(a.path(), value);
    return make_update<T>(kind, std::move(a).path(), std::move(stored));
  } else if constexpr (has_blob_members_v<T> && blob_storable_member_v<M>) {
    check_blob_update<T>(a.path(), value);
    return make_update<T>(kind, std::move(a).path(), to_attribute_value(value));
  } else {
    return make_update<T>(kind, std::move(a).path(), to_attribute_value(value));
  }
}

// A value an update action cannot store in M: for append neither a list of M's elements nor
// one element, for the others not M's value type. What MemberUpdate's constructors take instead
// of a value, so that the misuse is one error naming the rule rather than a failed deduction.
template <class V, class M, bool Append>
consteval bool foreign_update_value() {
  if constexpr (Append) {
    return !std::is_convertible_v<const V&, member_value_t<M>> &&
           !std::is_convertible_v<const V&, typename member_value_t<M>::value_type>;
  } else {
    return !std::is_convertible_v<const V&, member_value_t<M>>;
  }
}
template <class V, class M, bool Append = false>
concept ForeignUpdateValue = foreign_update_value<V, M, Append>();

template <class T, class M, class V>
Update<T> refuse_update_value() {
  // Reading diagnose_v is the one error; nothing after it can fail.
  (void)diagnose_v<
      false, diagnostics::update_gives_a_member_a_value_of_another_type<T, member_value_t<M>, V>>;
  return {};
}

template <class M>
concept AddableMember =
    is_number_member_v<member_value_t<M>> || is_string_set_v<member_value_t<M>> ||
    is_number_set_v<member_value_t<M>> || is_binary_set_v<member_value_t<M>>;

template <class M>
concept ListMember = is_vector_v<member_value_t<M>> && !is_binary_v<member_value_t<M>>;

template <class T, class M, std::size_t... K>
consteval void refuse_key_members(M T::*member, std::index_sequence<K...>) {
  constexpr auto& keys = key_members_v<T>;
  ((names_field<keys.index[K]>(member)
        ? diagnostics::update_action_targets_a_member_of_the_items_key<
              T, field_name_text_v<T, keys.index[K]>>()
        : void()),
   ...);
}

// The member an update action is given, &Order::status, converted where the call is and at
// compile time (consteval): a member the item's key is built from, or a versioned entity's
// version member, is refused there, one error naming the entity and the member. A Hana-adapted
// struct's members are not visible at compile time, nor is the member of a path made by attr():
// Table refuses those at run time.
template <class T, class M>
struct NonKeyMember {
  M T::*member;

  consteval NonKeyMember(M T::*m) : member(m) {  // NOLINT: implicit on purpose
    if constexpr (EntityType<T> && !HanaStruct<T>) {
      refuse_key_members(m, std::make_index_sequence<key_members_v<T>.count>{});
    }
    if constexpr (VersionedEntity<T> && !HanaStruct<T>) {
      if (names_field<version_index_v<T>>(m)) {
        diagnostics::update_action_targets_the_version_member_of_a_versioned_entity<
            T, field_name_text_v<T, version_index_v<T>>>();
      }
    }
  }
};

// A member of an entity that add (Append false) or append cannot act on: add and append deduce
// to a class that reports, at compile time, which rule the member breaks (MemberRefusing below),
// instead of failing to deduce with a message that names neither the entity nor the member. A
// Hana-adapted struct's members are not visible at compile time: its calls still fail to deduce.
template <class T, class M, bool Append>
concept MemberRefusingAction =
    EntityType<T> && !HanaStruct<T> && !(Append ? ListMember<M> : AddableMember<M>);

template <class T, bool Append, class M, std::size_t... I>
consteval void refuse_add_or_append(M T::*member, std::index_sequence<I...>) {
  ((names_field<I>(member)
        ? (compressed_fields_v<T>[I]
               ? diagnostics::update_action_adds_or_appends_to_a_compressed_member<
                     T, field_name_text_v<T, I>>()
           : Append ? diagnostics::update_action_appends_to_a_member_that_is_not_a_list<
                          T, field_name_text_v<T, I>>()
                    : diagnostics::update_action_adds_to_a_member_that_is_not_a_number_or_a_set<
                          T, field_name_text_v<T, I>>())
        : void()),
   ...);
}

// The member of an add or append that cannot take one, converted at compile time: always an
// error, the one naming the entity and the member.
template <class T, class M, bool Append>
struct MemberRefusing {
  consteval MemberRefusing(M T::*m) {  // NOLINT: implicit on purpose
    refuse_add_or_append<T, Append>(m, std::make_index_sequence<field_count_v<T>>{});
  }
};

// What the actions on a member M of T share: the Update<T> they make, and, for a value they
// cannot store in M, the constructors that report it in each spelling (the member as an
// argument, as an attr() path, as a template argument). The actions inherit them.
template <class T, class M, bool Append = false>
struct MemberUpdate : Update<T> {
  template <ForeignUpdateValue<M, Append> V>
  MemberUpdate(NonKeyMember<T, M>, const V&) : Update<T>(refuse_update_value<T, M, V>()) {}
  template <ForeignUpdateValue<M, Append> V>
  MemberUpdate(Attr<T, M>, const V&) : Update<T>(refuse_update_value<T, M, V>()) {}
  template <ForeignUpdateValue<M, Append> V>
  MemberUpdate(const V&)  // NOLINT: implicit on purpose, as the actions' own
      : Update<T>(refuse_update_value<T, M, V>()) {}

 protected:
  explicit MemberUpdate(Update<T> made) : Update<T>(std::move(made)) {}
};

}  // namespace detail

// The actions are class templates, not functions, so that the member can be checked at compile
// time although it is a function argument: for set(&Order::status, "shipped"), class template
// argument deduction (the guides below) first finds T and M, and only then is &Order::status
// converted to the constructor's detail::NonKeyMember<T, M>, a conversion evaluated at compile
// time. A function template cannot deduce T and M from an argument and convert that argument.
// The deduced spellings make X<null M T::*>; with the member as a template argument,
// set<&Order::status>("shipped"), the member is the class's argument and UpdateTargetCheck
// reports a key member (one error, naming the entity and the member).

// set(&Order::status, "shipped"), set(attr(&Order::items)[0], item), set<&Order::status>(...).
template <auto Member>
struct set;
// set: the member (or the path's element or nested member) takes the value.
template <class T, class M, M T::*Member>
struct set<Member> : detail::MemberUpdate<T, M> {
  using detail::MemberUpdate<T, M>::MemberUpdate;

  // set(&T::m, ...): the member by pointer, checked at compile time.
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  set(detail::NonKeyMember<T, M> target, const member_value_t<M>& value)
    requires(Member == nullptr)
      : set(detail::attr_of(target.member), value) {}
  // set(attr(&T::m)..., ...): a path into the member (an element, a nested member).
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  set(Attr<T, M> a, const member_value_t<M>& value)
    requires(Member == nullptr)
      : detail::MemberUpdate<T, M>(
            detail::make_set<T, M>(backend::UpdateAction::Kind::set, std::move(a), value)) {}
  // set<&T::m>(...): the member as the template argument.
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  set(const member_value_t<M>& value)  // NOLINT: implicit on purpose
    requires(Member != nullptr)
      : detail::MemberUpdate<T, M>(
            Update<T>(set<static_cast<M T::*>(nullptr)>(detail::attr_of(Member), value))) {
    (void)detail::UpdateTargetCheck<Member>::ok;
  }
};
// Deduces the action's entity and member from its arguments.
template <class T, class M>
set(M T::*, const member_value_t<M>&) -> set<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, class M>
set(Attr<T, M>, const member_value_t<M>&) -> set<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, class M, detail::ForeignUpdateValue<M> V>
set(M T::*, const V&) -> set<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, class M, detail::ForeignUpdateValue<M> V>
set(Attr<T, M>, const V&) -> set<static_cast<M T::*>(nullptr)>;

// if_not_exists: set only an absent member.
template <auto Member>
struct if_not_exists;
// if_not_exists: the member takes the value only when it is absent.
template <class T, class M, M T::*Member>
struct if_not_exists<Member> : detail::MemberUpdate<T, M> {
  using detail::MemberUpdate<T, M>::MemberUpdate;

  // if_not_exists(&T::m, ...): the member by pointer, checked at compile time.
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  if_not_exists(detail::NonKeyMember<T, M> target, const member_value_t<M>& value)
    requires(Member == nullptr)
      : if_not_exists(detail::attr_of(target.member), value) {}
  // if_not_exists(attr(&T::m)..., ...): a path into the member (an element, a nested member).
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  if_not_exists(Attr<T, M> a, const member_value_t<M>& value)
    requires(Member == nullptr)
      : detail::MemberUpdate<T, M>(detail::make_set<T, M>(
            backend::UpdateAction::Kind::set_if_not_exists, std::move(a), value)) {}
  // if_not_exists<&T::m>(...): the member as the template argument.
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  if_not_exists(const member_value_t<M>& value)  // NOLINT: implicit on purpose
    requires(Member != nullptr)
      : detail::MemberUpdate<T, M>(Update<T>(
            if_not_exists<static_cast<M T::*>(nullptr)>(detail::attr_of(Member), value))) {
    (void)detail::UpdateTargetCheck<Member>::ok;
  }
};
// Deduces the action's entity and member from its arguments.
template <class T, class M>
if_not_exists(M T::*, const member_value_t<M>&) -> if_not_exists<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, class M>
if_not_exists(Attr<T, M>, const member_value_t<M>&) -> if_not_exists<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, class M, detail::ForeignUpdateValue<M> V>
if_not_exists(M T::*, const V&) -> if_not_exists<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, class M, detail::ForeignUpdateValue<M> V>
if_not_exists(Attr<T, M>, const V&) -> if_not_exists<static_cast<M T::*>(nullptr)>;

// add: to a number (an absent one counts as 0), or the strings to a string set.
template <auto Member>
struct add;
// add: the number is added to the member (an absent one counts as 0), or the strings to a
// string set.
template <class T, class M, M T::*Member>
  requires detail::AddableMember<M>
struct add<Member> : detail::MemberUpdate<T, M> {
  using detail::MemberUpdate<T, M>::MemberUpdate;

  // add(&T::m, ...): the member by pointer, checked at compile time.
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  add(detail::NonKeyMember<T, M> target, const member_value_t<M>& value)
    requires(Member == nullptr)
      : add(detail::attr_of(target.member), value) {}
  // add(attr(&T::m)..., ...): a path into the member (an element, a nested member).
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  add(Attr<T, M> a, const member_value_t<M>& value)
    requires(Member == nullptr)
      : detail::MemberUpdate<T, M>(detail::make_update<T>(
            backend::UpdateAction::Kind::add, std::move(a).path(), to_attribute_value(value))) {}
  // add<&T::m>(...): the member as the template argument.
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  add(const member_value_t<M>& value)  // NOLINT: implicit on purpose
    requires(Member != nullptr)
      : detail::MemberUpdate<T, M>(
            Update<T>(add<static_cast<M T::*>(nullptr)>(detail::attr_of(Member), value))) {
    (void)detail::UpdateTargetCheck<Member>::ok;
  }
};
// Deduces the action's entity and member from its arguments.
template <class T, detail::AddableMember M>
add(M T::*, const member_value_t<M>&) -> add<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, detail::AddableMember M>
add(Attr<T, M>, const member_value_t<M>&) -> add<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, detail::AddableMember M, detail::ForeignUpdateValue<M> V>
add(M T::*, const V&) -> add<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, detail::AddableMember M, detail::ForeignUpdateValue<M> V>
add(Attr<T, M>, const V&) -> add<static_cast<M T::*>(nullptr)>;

// add on a text or bytes member of an entity with compressed members: a compile
// error (diagnostics::update_action_adds_or_appends_to_text_or_bytes).
template <class T, class M, M T::*Member>
  requires detail::MemberRefusingAction<T, M, /*Append=*/false>
struct add<Member> : Update<T> {
  // Never called: the compile error names the misuse.
  // Throws: nothing.
  // Exception safety: nothrow.
  template <class V>
  add(detail::MemberRefusing<T, M, false>, const V&) {}
};
// Deduces the action's entity and member from its arguments.
template <class T, class M, class V>
  requires detail::MemberRefusingAction<T, M, /*Append=*/false>
add(M T::*, const V&) -> add<static_cast<M T::*>(nullptr)>;

template <auto Member>
struct remove;
// remove: the member is removed from the item.
template <class T, class M, M T::*Member>
struct remove<Member> : Update<T> {
  // remove(&T::m, ...): the member by pointer, checked at compile time.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  remove(detail::NonKeyMember<T, M> target)  // NOLINT: implicit on purpose
    requires(Member == nullptr)
      : remove(detail::attr_of(target.member)) {}
  // remove(attr(&T::m)..., ...): a path into the member (an element, a nested member).
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  remove(Attr<T, M> a)  // NOLINT: implicit on purpose
    requires(Member == nullptr)
      : Update<T>(
            detail::make_update<T>(backend::UpdateAction::Kind::remove, std::move(a).path())) {}
  // remove<&T::m>(...): the member as the template argument.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  remove()
    requires(Member != nullptr)
      : Update<T>(remove<static_cast<M T::*>(nullptr)>(detail::attr_of(Member))) {
    (void)detail::UpdateTargetCheck<Member>::ok;
  }
};
// Deduces the action's entity and member from its arguments.
template <class T, class M>
remove(M T::*) -> remove<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, class M>
remove(Attr<T, M>) -> remove<static_cast<M T::*>(nullptr)>;

// append: elements, or one element, to the end of a list (an absent list counts as empty).
template <auto Member>
struct append;
// append: the elements go to the end of the list (an absent list counts as empty).
template <class T, class M, M T::*Member>
  requires detail::ListMember<M>
struct append<Member> : detail::MemberUpdate<T, M, /*Append=*/true> {
  using detail::MemberUpdate<T, M, true>::MemberUpdate;
  // The member's list type.
  using list_type = member_value_t<M>;
  // The list's element type.
  using element_type = typename list_type::value_type;

  // append(&T::m, ...): the member by pointer, checked at compile time.
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  append(detail::NonKeyMember<T, M> target, const list_type& elements)
    requires(Member == nullptr)
      : append(detail::attr_of(target.member), elements) {}
  // append(&T::m, ...): the member by pointer, checked at compile time.
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  append(detail::NonKeyMember<T, M> target, const element_type& element)
    requires(Member == nullptr)
      : append(detail::attr_of(target.member), list_type{element}) {}
  // append(attr(&T::m)..., ...): a path into the member (an element, a nested member).
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  append(Attr<T, M> a, const list_type& elements)
    requires(Member == nullptr)
      : detail::MemberUpdate<T, M, true>(detail::make_update<T>(backend::UpdateAction::Kind::append,
                                                                std::move(a).path(),
                                                                to_attribute_value(elements))) {}
  // append(attr(&T::m)..., ...): a path into the member (an element, a nested member).
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  append(Attr<T, M> a, const element_type& element)
    requires(Member == nullptr)
      : append(std::move(a), list_type{element}) {}
  // A braced list is the list, as written: {"a", "b"} would otherwise also make one
  // std::string (its constructor from two iterators), and the call be ambiguous.
  // append(&T::m, ...): the member by pointer, checked at compile time.
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  append(detail::NonKeyMember<T, M> target, std::initializer_list<element_type> elements)
    requires(Member == nullptr)
      : append(detail::attr_of(target.member), list_type(elements)) {}
  // append(attr(&T::m)..., ...): a path into the member (an element, a nested member).
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  append(Attr<T, M> a, std::initializer_list<element_type> elements)
    requires(Member == nullptr)
      : append(std::move(a), list_type(elements)) {}
  // append<&T::m>(...): the member as the template argument.
  // Throws: EncodeError for a value that cannot be stored (NaN, an unnamed enum value);
  // std::bad_alloc.
  // Exception safety: strong.
  append(const list_type& elements)  // NOLINT: implicit on purpose
    requires(Member != nullptr)
      : detail::MemberUpdate<T, M, true>(
            Update<T>(append<static_cast<M T::*>(nullptr)>(detail::attr_of(Member), elements))) {
    (void)detail::UpdateTargetCheck<Member>::ok;
  }
};
// Deduces the action's entity and member from its arguments.
template <class T, detail::ListMember M>
append(M T::*, const member_value_t<M>&) -> append<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, detail::ListMember M>
append(M T::*, const typename member_value_t<M>::value_type&)
    -> append<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, detail::ListMember M>
append(Attr<T, M>, const member_value_t<M>&) -> append<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, detail::ListMember M>
append(Attr<T, M>, const typename member_value_t<M>::value_type&)
    -> append<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, detail::ListMember M>
append(M T::*, std::initializer_list<typename member_value_t<M>::value_type>)
    -> append<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, detail::ListMember M>
append(Attr<T, M>, std::initializer_list<typename member_value_t<M>::value_type>)
    -> append<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, detail::ListMember M, detail::ForeignUpdateValue<M, true> V>
append(M T::*, const V&) -> append<static_cast<M T::*>(nullptr)>;
// Deduces the action's entity and member from its arguments.
template <class T, detail::ListMember M, detail::ForeignUpdateValue<M, true> V>
append(Attr<T, M>, const V&) -> append<static_cast<M T::*>(nullptr)>;

// append on a text or bytes member of an entity with compressed members: a compile
// error (diagnostics::update_action_adds_or_appends_to_text_or_bytes).
template <class T, class M, M T::*Member>
  requires detail::MemberRefusingAction<T, M, /*Append=*/true>
struct append<Member> : Update<T> {
  // Never called: the compile error names the misuse.
  // Throws: nothing.
  // Exception safety: nothrow.
  template <class V>
  append(detail::MemberRefusing<T, M, true>, const V&) {}
};
// Deduces the action's entity and member from its arguments.
template <class T, class M, class V>
  requires detail::MemberRefusingAction<T, M, /*Append=*/true>
append(M T::*, const V&) -> append<static_cast<M T::*>(nullptr)>;

}  // namespace pksk
