// SPDX-License-Identifier: BSL-1.0
#pragma once
// One section of an AWS shared credentials or config file, read as botocore reads them
// (Python's configparser): "[section]" headers, "key = value" or "key: value" lines with the
// key lower-cased and both sides trimmed, whole-line comments after '#' or ';'. Indented lines
// continue the previous value (nested settings such as "s3 ="); pksk reads no nested setting,
// so they are skipped.

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pksk::dynamodb::detail {

struct IniSection {
  std::vector<std::pair<std::string, std::string>> values;

  // The value of `key` (lower case), or "" when absent.
  std::string get(std::string_view key) const {
    for (const auto& [name, value] : values) {
      if (name == key) return value;
    }
    return {};
  }
};

inline std::string_view trim_ini(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

// The section named `name` of the INI text, or nullopt. A later section of the same name
// adds to the earlier one, a later key replaces the earlier.
inline std::optional<IniSection> parse_ini_section(std::string_view text, std::string_view name) {
  std::optional<IniSection> found;
  bool inside = false;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    const std::string_view raw = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    const std::string_view line = trim_ini(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (raw.front() == ' ' || raw.front() == '\t') continue;  // a continuation line
    if (line.front() == '[') {
      const std::size_t close = line.rfind(']');
      inside = close != std::string_view::npos && line.substr(1, close - 1) == name;
      if (inside && !found) found.emplace();
      continue;
    }
    if (!inside) continue;
    const std::size_t delimiter = line.find_first_of("=:");
    if (delimiter == std::string_view::npos) continue;
    std::string key(trim_ini(line.substr(0, delimiter)));
    std::transform(key.begin(), key.end(), key.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::string value(trim_ini(line.substr(delimiter + 1)));
    auto& values = found->values;
    const auto same = std::find_if(values.begin(), values.end(),
                                   [&](const auto& entry) { return entry.first == key; });
    if (same != values.end()) {
      same->second = std::move(value);
    } else {
      values.emplace_back(std::move(key), std::move(value));
    }
  }
  return found;
}

// The section of the file at `path`; nullopt when the file or the section is absent.
inline std::optional<IniSection> read_ini_section(const std::string& path, std::string_view name) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  return parse_ini_section(text, name);
}

}  // namespace pksk::dynamodb::detail
