// SPDX-License-Identifier: BSL-1.0
#pragma once
// An object of any record type that is declared and never defined, whose members' addresses
// are taken in constant expressions (Boost.PFR's technique): the field names of a plain
// aggregate (field_names.hpp, on Boost < 1.84) and the index of the member a pointer-to-member
// constant names (member_pointer.hpp) both probe it. Declared, never defined: a local type
// here fails to link, as with Boost.PFR. clang warns where it is used, not only where it is
// declared, so each use sits between the same pragmas as the declaration below.

namespace pksk::detail {

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wundefined-var-template"
// Nor for a record in an unnamed namespace, whose probe then has internal linkage.
#pragma clang diagnostic ignored "-Wundefined-internal"
#endif

template <class T>
struct FakeObjectWrapper {
  const T value;
};

template <class T>
extern const FakeObjectWrapper<T> fake_object;

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

}  // namespace pksk::detail
