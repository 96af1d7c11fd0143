#pragma once
// A query's or scan's filter, evaluated per row in C++ with DynamoDB's semantics
// (expr/evaluate.hpp), before the row is decoded. Only what the filter names is read: the key
// and type columns as they are, and from the body the top-level attributes it names, parsed
// into a small AttributeValue map; the parse stops once they are all found.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "../../backend/backend.hpp"
#include "../../codec/attribute_value.hpp"
#include "../../codec/detail/padded_buffer.hpp"
#include "../../error.hpp"
#include "../../expr/evaluate.hpp"
#include "../../expr/expression.hpp"

namespace pksk::detail::sqlite {

// The segment of a parallel scan an item belongs to: a stable hash of its partition key, so a
// partition is never split between segments.
inline std::size_t segment_of(std::string_view pk, std::size_t segments) noexcept {
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a, 64 bits
  for (const char c : pk) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return static_cast<std::size_t>(hash % segments);
}

class RowFilter {
 public:
  // A conjunct `type = "T"` (how an entity's condition is scoped to its items) is checked on
  // the type column first: an item of another type is rejected without reading its body.
  RowFilter(const Condition& condition, const TableSpec& spec) : spec_(spec) {
    if (condition.op == Condition::Op::all) {
      for (const Condition& child : condition.children) add_part(child);
    } else {
      add_part(condition);
    }
  }

  // Whether the row passes; throws DecodeError if its body is not a JSON object.
  bool operator()(const ItemView& row) {
    if (type_ && row.type != *type_) return false;
    if (parts_.empty()) return true;
    item_.kind = AttributeValue::Kind::map;
    item_.map.clear();
    if (needs_pk_)
      item_.map.push_back({spec_.pk_attribute, AttributeValue::from_string(std::string(row.pk))});
    if (needs_sk_)
      item_.map.push_back({spec_.sk_attribute, AttributeValue::from_string(std::string(row.sk))});
    if (needs_type_) {
      item_.map.push_back(
          {spec_.type_attribute, AttributeValue::from_string(std::string(row.type))});
    }
    if (!body_names_.empty()) read_body(row);
    for (const Condition* part : parts_) {
      if (!evaluate(*part, item_)) return false;
    }
    return true;
  }

 private:
  void add_part(const Condition& c) {
    if (c.op == Condition::Op::eq && c.operands.size() == 2 &&
        c.operands[0].kind == Operand::Kind::path && c.operands[0].path.steps.size() == 1 &&
        c.operands[0].path.steps[0].name == spec_.type_attribute &&
        c.operands[1].kind == Operand::Kind::value &&
        c.operands[1].value.kind == AttributeValue::Kind::string) {
      if (type_ && *type_ != c.operands[1].value.text) {
        parts_.push_back(&c);  // two types at once: let the evaluator say false
        collect(c);
        return;
      }
      type_ = c.operands[1].value.text;
      return;
    }
    parts_.push_back(&c);
    collect(c);
  }

  void collect(const Condition& c) {
    for (const Operand& o : c.operands) {
      if (o.kind == Operand::Kind::value || o.path.steps.empty()) continue;
      const std::string& name = o.path.steps.front().name;
      if (name == spec_.pk_attribute) {
        needs_pk_ = true;
      } else if (name == spec_.sk_attribute) {
        needs_sk_ = true;
      } else if (name == spec_.type_attribute) {
        needs_type_ = true;
      } else {
        bool known = false;
        for (const std::string_view n : body_names_) known = known || n == name;
        if (!known) body_names_.push_back(name);
      }
    }
    for (const Condition& child : c.children) collect(child);
  }

  void read_body(const ItemView& row) {
    thread_local simdjson::ondemand::parser parser;
    thread_local PaddedBuffer buffer;
    try {
      const std::string_view padded = buffer.assign(row.body);
      simdjson::ondemand::document document;
      if (auto error = parser.iterate(padded.data(), padded.size(), buffer.padded_capacity())
                           .get(document)) {
        throw_invalid_json(error);
      }
      simdjson::ondemand::object object;
      if (auto error = document.get_object().get(object)) throw_invalid_json(error);
      std::size_t found = 0;
      for (auto member : object) {
        simdjson::ondemand::field field;
        if (auto error = std::move(member).get(field)) throw_invalid_json(error);
        // Raw keys, as the codec matches them: member names are identifiers, never escaped.
        const simdjson::ondemand::raw_json_string key = field.key();
        const std::string_view* wanted = nullptr;
        for (const std::string_view& n : body_names_) {
          if (wanted == nullptr && key.unsafe_is_equal(n)) wanted = &n;
        }
        if (wanted == nullptr) continue;  // On-Demand skips the value
        auto& entry = item_.map.emplace_back(AttributeValue::Member{std::string(*wanted), {}});
        read_plain_value(field.value(), entry.second);
        // Every named attribute read: the rest of the body is not looked at.
        if (++found == body_names_.size()) break;
      }
    } catch (const PathedFailure& failure) {
      throw DecodeError("pksk::sqlite: table \"" + spec_.name + "\": filtering the item pk \"" +
                        std::string(row.pk) + "\", sk \"" + std::string(row.sk) + "\": at " +
                        failure.full_path() + ": " + failure.what);
    }
  }

  const TableSpec& spec_;
  std::optional<std::string_view> type_;  // the type every passing item has
  std::vector<const Condition*> parts_;   // the other conjuncts, all to hold
  bool needs_pk_ = false;
  bool needs_sk_ = false;
  bool needs_type_ = false;
  std::vector<std::string_view> body_names_;  // views into the condition
  AttributeValue item_;
};

}  // namespace pksk::detail::sqlite
