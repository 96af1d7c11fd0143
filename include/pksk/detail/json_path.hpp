#pragma once
// Where a value sits in an item, for error messages: `$.items[2].qty`. The path is a chain of
// nodes on the traversal's own stack, so following it costs a couple of stores per level and
// the text is only built when something has already gone wrong.

#include <cstddef>
#include <string>
#include <string_view>

namespace pksk::detail {

struct JsonPath {
  const JsonPath* parent = nullptr;
  std::string_view key;   // a member name or map key, when is_index is false
  std::size_t index = 0;  // an array position, when is_index is true
  bool is_index = false;

  JsonPath member(std::string_view name) const noexcept { return {this, name, 0, false}; }
  JsonPath element(std::size_t i) const noexcept { return {this, {}, i, true}; }

  std::string to_string() const {
    std::string text;
    append_to(text);
    return text;
  }

 private:
  void append_to(std::string& text) const {
    if (parent == nullptr) {
      text += '$';
      return;
    }
    parent->append_to(text);
    if (is_index) {
      text += '[';
      text += std::to_string(index);
      text += ']';
    } else if (is_identifier(key)) {
      text += '.';
      text += key;
    } else {
      // Map keys can hold anything; bracket them so the path stays unambiguous.
      text += "[\"";
      for (char c : key) {
        if (c == '"' || c == '\\') text += '\\';
        text += c;
      }
      text += "\"]";
    }
  }

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

}  // namespace pksk::detail
