// SPDX-License-Identifier: BSL-1.0
#pragma once
// An update names few of an item's attributes: those its actions write and its condition reads.
// backend::BodyPatch splits a stored plain JSON body into those members, parsed into an attribute
// map the evaluator works on, and the rest, kept as their JSON text and copied back unchanged: an
// update costs a parse of what it touches, not a tree of the whole item and its rendering.
//
// The views of the kept members point into a thread-local buffer: they are valid until the next
// parse() on the same thread, which one update never calls twice.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <simdjson.h>

#include "../detail/json_writer.hpp"
#include "../detail/padded_buffer.hpp"
#include "../error.hpp"
#include "attribute_value_read.hpp"
#include "detail/json_path.hpp"

namespace pksk::backend {

// A stored plain JSON body split for an update: the members the update names parsed into an
// AttributeValue map, the others kept as text, so that only what changes is parsed and written
// again (the SQLite backend's UpdateItem).
class BodyPatch {
 public:
  // Splits body; names are the top-level attributes to parse. Throws DecodeError when the body
  // is not a JSON object or a named member is not valid JSON.
  // Throws: DecodeError, as said.
  // Exception safety: basic: on an exception the patch is unspecified; parse again before use.
  void parse(std::string_view body, std::span<const std::string_view> names) {
    parse_impl<std::nullptr_t>(body, names, nullptr);
  }

  // As parse, and hands each member it keeps to `read(key, value)` (its raw key and its
  // simdjson::ondemand::value&, not read yet) as it goes by: the caller decodes the item's
  // other members in this pass (backend::UpdateReader). The kept members' text is then found
  // from where each member starts, not by skipping its value, which `read` has read; and text
  // after the object is an error, as the item's decoder has it.
  // Throws: DecodeError as parse; what read throws.
  // Exception safety: basic, as parse.
  template <class Read>
  void parse_reading(std::string_view body, std::span<const std::string_view> names, Read&& read) {
    parse_impl<std::remove_reference_t<Read>>(body, names, &read);
  }

  // Whether the body has a top-level member of that name, parsed or kept.
  // Throws: nothing.
  // Exception safety: nothrow.
  bool has_member(std::string_view name) const noexcept {
    if (was_parsed(name)) return true;
    for (const Member& m : members_) {
      if (m.named == npos && m.name == name) return true;
    }
    return false;
  }

  // The named members found in the body, in body order: apply the update to this map (it may
  // add members at its end and remove others).
  // Throws: nothing.
  // Exception safety: nothrow.
  AttributeValue& named() noexcept { return named_; }
  // DynamoDB's bytes of the named members as stored, names included, given the item after the
  // update: a list of strings it turned into a string set was one (an entity member's type
  // does not change), and counts as a set.
  // Throws: nothing but std::bad_alloc.
  // Exception safety: strong.
  std::size_t bytes_before(const AttributeValue& after) const {
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < parsed_names_.size(); ++i) {
      const AttributeValue* now = after.find(parsed_names_[i]);
      const bool set = now != nullptr && now->kind == AttributeValue::Kind::string_set;
      bytes += set ? sizes_[i].as_set : sizes_[i].as_parsed;
    }
    return bytes;
  }

  // The body after the update: kept members verbatim and in place; each named member as `item`
  // now has it, in its old place, or left out when `item` no longer has it or skip(name); then
  // the members of `item` the body did not have.
  // Throws: what skip throws; std::bad_alloc.
  // Exception safety: basic: out may hold part of the body.
  template <class Skip>
  void write(std::string& out, const AttributeValue& item, Skip&& skip) const {
    out += '{';
    bool first = true;
    const auto separate = [&] {
      if (!first) out += ',';
      first = false;
    };
    for (const Member& m : members_) {
      if (m.named == npos) {
        separate();
        out.append(m.text.data(), m.text.size());
        continue;
      }
      const std::string& name = parsed_names_[m.named];
      const AttributeValue* value = item.find(name);
      if (value == nullptr || skip(std::string_view(name))) continue;
      separate();
      append_member(out, name, *value);
    }
    for (const auto& [name, value] : item.map) {
      if (was_parsed(name) || skip(std::string_view(name))) continue;
      separate();
      append_member(out, name, value);
    }
    out += '}';
  }

 private:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  struct Member {
    std::string_view text;  // `"name":value` of a kept member
    std::string_view name;  // its name, unescaped (in the parser's buffer, as text is in ours)
    std::size_t named;      // else the index of the named member in named_ as parsed
  };

  template <class Read>  // std::nullptr_t: no reader
  void parse_impl(
      std::string_view body, std::span<const std::string_view> names,
      std::conditional_t<std::is_same_v<Read, std::nullptr_t>, std::nullptr_t, Read*> read) {
    constexpr bool reading = !std::is_same_v<Read, std::nullptr_t>;
    thread_local simdjson::ondemand::parser parser;
    thread_local detail::PaddedBuffer buffer;
    named_.kind = AttributeValue::Kind::map;
    named_.map.clear();  // keeps the capacity, as the other members do
    parsed_names_.clear();
    sizes_.clear();
    members_.clear();
    try {
      const std::string_view padded = buffer.assign(body);
      simdjson::ondemand::document document;
      if (auto error = parser.iterate(padded.data(), padded.size(), buffer.padded_capacity())
                           .get(document)) {
        detail::throw_invalid_json(error);
      }
      simdjson::ondemand::object object;
      if (document.get_object().get(object) != simdjson::SUCCESS) {
        detail::throw_pathed("expected an object");
      }
      for (auto member : object) {
        simdjson::ondemand::field field;
        if (auto error = std::move(member).get(field)) detail::throw_invalid_json(error);
        // The member's text starts at its key's opening quote. unescaped_key() consumes the
        // key: a reader gets it as read here.
        const simdjson::ondemand::raw_json_string key = field.key();
        const char* start = key.raw() - 1;
        std::string_view name;
        if (auto error = field.unescaped_key().get(name)) detail::throw_invalid_json(error);
        if (is_named(name, names)) {
          AttributeValue& value =
              named_.map.emplace_back(AttributeValue::Member{std::string(name), {}}).second;
          try {
            detail::read_plain_value(field.value(), value, 2);
          } catch (detail::PathedFailure& failure) {
            failure.prepend_member(name);
            throw;
          }
          // A plain JSON body writes a string set as a list of strings: measured both ways,
          // and the update's result tells which it was (bytes_before).
          const std::size_t as_parsed = name.size() + attribute_size(value);
          std::size_t as_set = as_parsed;
          if (value.kind == AttributeValue::Kind::list) {  // else it is no set either way
            const AttributeValue set = value.as_string_set();
            if (set.kind == AttributeValue::Kind::string_set)
              as_set = name.size() + attribute_size(set);
          }
          sizes_.push_back({as_parsed, as_set});
          parsed_names_.emplace_back(name);
          members_.push_back({std::string_view(start, 0), {}, parsed_names_.size() - 1});
        } else if constexpr (reading) {
          members_.push_back({std::string_view(start, 0), name, npos});
          (*read)(key, field.value());
        } else {
          const std::string_view value = raw_value(field.value());
          members_.push_back({std::string_view(start, static_cast<std::size_t>(
                                                          value.data() + value.size() - start)),
                              name, npos});
        }
      }
      if constexpr (reading) {
        const char* rest = nullptr;
        if (document.current_location().get(rest) == simdjson::SUCCESS) [[unlikely]] {
          detail::throw_pathed("invalid JSON (unexpected content after the object)");
        }
        // Each kept member ends where the next member starts, less the comma and blanks
        // between them; the last one before the object's closing brace.
        const char* end = padded.data() + body.size();
        while (end != padded.data() && is_blank(end[-1])) --end;
        --end;  // the closing brace
        for (std::size_t i = members_.size(); i-- > 0;) {
          const char* start = members_[i].text.data();
          if (members_[i].named == npos) {
            const char* last = end;
            while (last != start && is_blank(last[-1])) --last;
            members_[i].text = std::string_view(start, static_cast<std::size_t>(last - start));
          }
          end = start;
          while (end != padded.data() && is_blank(end[-1])) --end;
          if (end != padded.data() && end[-1] == ',') --end;
        }
      }
    } catch (const detail::PathedFailure& failure) {
      throw DecodeError("at " + failure.full_path() + ": " + failure.what);
    }
  }

  static constexpr bool is_blank(char c) noexcept {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
  }

  static bool is_named(std::string_view name, std::span<const std::string_view> names) {
    for (std::string_view n : names) {
      if (n == name) return true;
    }
    return false;
  }

  // The value's JSON text; scalars' tokens may carry trailing whitespace, which JSON allows.
  static std::string_view raw_value(simdjson::ondemand::value value) {
    simdjson::ondemand::json_type type;
    if (auto error = value.type().get(type)) detail::throw_invalid_json(error);
    std::string_view text;
    if (type == simdjson::ondemand::json_type::object) {
      simdjson::ondemand::object object;
      if (auto error = value.get_object().get(object)) detail::throw_invalid_json(error);
      if (auto error = object.raw_json().get(text)) detail::throw_invalid_json(error);
    } else if (type == simdjson::ondemand::json_type::array) {
      simdjson::ondemand::array array;
      if (auto error = value.get_array().get(array)) detail::throw_invalid_json(error);
      if (auto error = array.raw_json().get(text)) detail::throw_invalid_json(error);
    } else {
      text = value.raw_json_token();
    }
    return text;
  }

  bool was_parsed(std::string_view name) const {
    for (const std::string& n : parsed_names_) {
      if (n == name) return true;
    }
    return false;
  }

  static void append_member(std::string& out, std::string_view name, const AttributeValue& value) {
    detail::append_json_string(out, name);
    out += ':';
    append_plain_json(out, value);
  }

  AttributeValue named_ = AttributeValue::empty_map();
  std::vector<std::string> parsed_names_;  // the named members' names, in body order
  std::vector<Member> members_;
  struct Sizes {
    std::size_t as_parsed, as_set;
  };
  std::vector<Sizes> sizes_;  // of the named members, as parsed_names_
};

}  // namespace pksk::backend
