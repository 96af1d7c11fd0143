// SPDX-License-Identifier: BSL-1.0
#pragma once
// Just enough XML for STS's answers: the text of an element found by name, with the five
// predefined entities and character references decoded. STS answers are small documents of
// plain elements (<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>...); this
// reads no attributes, comments, CDATA or namespaces prefixes, and an element it cannot read is
// reported absent, which the callers turn into an error naming what was missing.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pksk::dynamodb::detail {

// The raw content of the first element named `name` in `xml` ("<name>" or "<name attr...>" up
// to the next "</name>"; "" for "<name/>"), or nullopt.
inline std::optional<std::string_view> xml_element(std::string_view xml, std::string_view name) {
  std::size_t from = 0;
  while (true) {
    const std::size_t open = xml.find('<', from);
    if (open == std::string_view::npos) return std::nullopt;
    from = open + 1;
    if (xml.substr(open + 1, name.size()) != name) continue;
    const std::size_t after = open + 1 + name.size();
    if (after >= xml.size()) return std::nullopt;
    const char next = xml[after];
    if (next != '>' && next != '/' && next != ' ' && next != '\t' && next != '\r' && next != '\n')
      continue;  // a longer name that begins with this one
    const std::size_t end_of_tag = xml.find('>', after);
    if (end_of_tag == std::string_view::npos) return std::nullopt;
    if (xml[end_of_tag - 1] == '/') return std::string_view{};
    const std::size_t content = end_of_tag + 1;
    std::string closing = "</";
    closing.append(name).append(">");
    const std::size_t close = xml.find(closing, content);
    if (close == std::string_view::npos) return std::nullopt;
    return xml.substr(content, close - content);
  }
}

inline void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// `text` with its entities decoded and the white space around it trimmed; nullopt when it
// holds markup or an entity this does not know.
inline std::optional<std::string> xml_unescape(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<') return std::nullopt;
    if (c != '&') {
      out += c;
      continue;
    }
    const std::size_t semicolon = text.find(';', i);
    if (semicolon == std::string_view::npos) return std::nullopt;
    const std::string_view entity = text.substr(i + 1, semicolon - i - 1);
    i = semicolon;
    if (entity == "amp") {
      out += '&';
    } else if (entity == "lt") {
      out += '<';
    } else if (entity == "gt") {
      out += '>';
    } else if (entity == "quot") {
      out += '"';
    } else if (entity == "apos") {
      out += '\'';
    } else if (entity.size() >= 2 && entity.front() == '#') {
      const bool hex = entity[1] == 'x' || entity[1] == 'X';
      const std::string_view digits = entity.substr(hex ? 2 : 1);
      if (digits.empty() || digits.size() > 8) return std::nullopt;
      std::uint32_t code = 0;
      for (const char d : digits) {
        int v = -1;
        if (d >= '0' && d <= '9') v = d - '0';
        if (hex && d >= 'a' && d <= 'f') v = d - 'a' + 10;
        if (hex && d >= 'A' && d <= 'F') v = d - 'A' + 10;
        if (v < 0) return std::nullopt;
        code = code * (hex ? 16 : 10) + static_cast<std::uint32_t>(v);
      }
      if (code == 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return std::nullopt;
      append_utf8(out, code);
    } else {
      return std::nullopt;
    }
  }
  return out;
}

// The decoded text of the first element `name` in `xml`, or nullopt.
inline std::optional<std::string> xml_text(std::string_view xml, std::string_view name) {
  const std::optional<std::string_view> element = xml_element(xml, name);
  if (!element) return std::nullopt;
  return xml_unescape(*element);
}

}  // namespace pksk::dynamodb::detail
