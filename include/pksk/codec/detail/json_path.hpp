// SPDX-License-Identifier: BSL-1.0
#pragma once
// Where a value sits in an item, for error messages: `$.items[2].qty`. The traversals carry no
// path on the way down, because that costs stores on every value of every item read: a value
// that fails throws a PathedFailure with the message alone, each level it unwinds through
// prepends its own step (member name, array index or map key), and the entry point turns it
// into the public error. Unwinding is only paid once something has already gone wrong.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace pksk::detail {

struct PathedFailure {
  std::string what;
  std::string path;  // from the item's root, without the leading '$'
  // What DynamoDB refuses as an invalid request (an empty attribute name): a ValidationError,
  // not an EncodeError, on every backend.
  bool validation = false;

  [[gnu::cold, gnu::noinline]] void prepend_member(std::string_view name) {
    if (is_identifier(name)) {
      path.insert(0, '.' + std::string(name));
      return;
    }
    // Map keys can hold anything; bracket them so the path stays unambiguous.
    std::string step = "[\"";
    for (char c : name) {
      if (c == '"' || c == '\\') step += '\\';
      step += c;
    }
    step += "\"]";
    path.insert(0, step);
  }

  [[gnu::cold, gnu::noinline]] void prepend_index(std::size_t index) {
    path.insert(0, '[' + std::to_string(index) + ']');
  }

  std::string full_path() const { return '$' + path; }

 private:
  static bool is_identifier(std::string_view s) noexcept {
    if (s.empty()) return false;
    for (char c : s) {
      bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '_' || c == '-';
      if (!ok) return false;
    }
    return true;
  }
};

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_pathed(std::string what) {
  throw PathedFailure{std::move(what), {}, false};
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_pathed_validation(std::string what) {
  throw PathedFailure{std::move(what), {}, true};
}

// Runs step(), naming the member it works on in any failure that leaves it.
template <class Step>
decltype(auto) at_member(std::string_view name, Step&& step) {
  try {
    return std::forward<Step>(step)();
  } catch (PathedFailure& failure) {
    failure.prepend_member(name);
    throw;
  }
}

// Runs step(), naming the array position it works on in any failure that leaves it.
template <class Step>
decltype(auto) at_index(std::size_t index, Step&& step) {
  try {
    return std::forward<Step>(step)();
  } catch (PathedFailure& failure) {
    failure.prepend_index(index);
    throw;
  }
}

}  // namespace pksk::detail
