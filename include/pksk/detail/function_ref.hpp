// SPDX-License-Identifier: BSL-1.0
#pragma once
// FunctionRef<R(Args...)>: a non-owning reference to a callable, for the backends' read entry
// points. A template visitor parameter compiles a backend's page loop once per visitor type,
// that is once per entity a translation unit reads; through a FunctionRef the loop is one
// function whatever calls it, and what differs per entity is only the callable itself. The
// price is one indirect call per row. std::function would add ownership, a possible
// allocation and a null state, none of which a callback that only lives for the call needs.

#include <memory>
#include <type_traits>
#include <utility>

namespace pksk::detail {

template <class Signature>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  // Refers to `f`, which must outlive every call through this reference: a temporary passed as
  // an argument lives until the call returns, which is how the backends take it. Implicit, so
  // that a lambda is passed where a FunctionRef is taken.
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
             std::is_object_v<std::remove_reference_t<F>> &&
             std::is_invocable_r_v<R, std::remove_reference_t<F>&, Args...>)
  FunctionRef(F&& f) noexcept  // NOLINT(google-explicit-constructor)
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_(&call<std::remove_reference_t<F>>) {}

  // Not noexcept: what the callable throws reaches the caller of the backend, as before.
  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  // The one piece of code per callable type: restores its type and calls it.
  template <class F>
  static R call(void* object, Args... args) {
    if constexpr (std::is_void_v<R>) {
      (*static_cast<F*>(object))(std::forward<Args>(args)...);
    } else {
      return (*static_cast<F*>(object))(std::forward<Args>(args)...);
    }
  }

  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace pksk::detail
