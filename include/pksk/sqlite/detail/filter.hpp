// SPDX-License-Identifier: BSL-1.0
#pragma once
// A query's or scan's filter, evaluated per row in C++ with DynamoDB's semantics
// (backend/emulation/evaluate.hpp), before the row is decoded. Only what the filter names is read:
// the key and type columns as they are, and from the body the top-level attributes it names, parsed
// into a small AttributeValue map; the parse stops once they are all found.
//
// The common filter, comparisons of top-level attributes with a number or a string joined by
// AND (`total > 100`, `status <> "cancelled"`), is evaluated on the body's JSON values as they
// are read, with no AttributeValue built and nothing allocated: the first comparison found
// false ends the row. A value the shortcut cannot judge exactly (a number with an exponent)
// sends the row through the general evaluator.

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <simdjson.h>

#include "../../backend/backend.hpp"
#include "../../backend/emulation/evaluate.hpp"
#include "../../codec/attribute_value_read.hpp"
#include "../../detail/json_key.hpp"
#include "../../detail/padded_buffer.hpp"
#include "../../error.hpp"
#include "../../expr/expression.hpp"
#include "messages.hpp"

namespace pksk::sqlite::detail {

// The codec's helpers this file reads bodies with (pksk::detail, the library-wide detail).
using pksk::detail::PaddedBuffer;
using pksk::detail::PathedFailure;
using pksk::detail::plain_number_text;
using pksk::detail::PlainDecimal;
using pksk::detail::read_plain_value;
using pksk::detail::throw_invalid_json;

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
  RowFilter(const backend::Condition& condition, const backend::TableSpec& spec) : spec_(spec) {
    if (condition.op == backend::Condition::Op::all) {
      for (const backend::Condition& child : condition.children) add_part(child);
    } else {
      add_part(condition);
    }
    find_comparisons();
  }

  // Whether the row passes; throws DecodeError if its body is not a JSON object.
  bool operator()(const backend::ItemView& row) {
    if (type_ && row.type != *type_) return false;
    if (parts_.empty()) return true;
    if (!comparisons_.empty()) {
      const Verdict verdict = compare_in_place(row);
      if (verdict != Verdict::unknown) return verdict == Verdict::holds;
    }
    item_.kind = AttributeValue::Kind::map;
    item_.map.clear();
    if (needs_pk_)
      item_.map.push_back(
          {spec_.pk_attribute, AttributeValue::from_string(std::string(row.partition_key()))});
    if (needs_sk_) item_.map.push_back({spec_.sk_attribute, spec_.sort_key_value(row.sort_key())});
    if (needs_type_) {
      item_.map.push_back(
          {spec_.type_attribute, AttributeValue::from_string(std::string(row.type))});
    }
    if (!body_names_.empty()) read_body(row);
    for (const backend::Condition* part : parts_) {
      if (!evaluate(*part, item_)) return false;
    }
    return true;
  }

 private:
  void add_part(const backend::Condition& c) {
    if (c.op == backend::Condition::Op::eq && c.operands.size() == 2 &&
        c.operands[0].kind == backend::Operand::Kind::path &&
        c.operands[0].path.steps.size() == 1 &&
        c.operands[0].path.steps[0].name == spec_.type_attribute &&
        c.operands[1].kind == backend::Operand::Kind::value &&
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

  void collect(const backend::Condition& c) {
    for (const backend::Operand& o : c.operands) {
      if (o.kind == backend::Operand::Kind::value || o.path.steps.empty()) continue;
      const std::string& name = o.path.steps.front().name;
      if (name == spec_.pk_attribute) {
        needs_pk_ = true;
      } else if (name == spec_.sk_attribute && !name.empty()) {
        needs_sk_ = true;
      } else if (name == spec_.type_attribute) {
        needs_type_ = true;
      } else {
        bool known = false;
        for (const BodyName& n : body_names_) known = known || n.name == name;
        if (!known) body_names_.push_back({name, pksk::detail::is_plain_json_name(name)});
      }
    }
    for (const backend::Condition& child : c.children) collect(child);
  }

  // Hands each top-level member of the row's body to on_member(key, value) until it returns
  // false; throws DecodeError naming the item if the body is not a JSON object.
  template <class OnMember>
  void for_each_member(const backend::ItemView& row, OnMember&& on_member) {
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
      for (auto member : object) {
        simdjson::ondemand::field field;
        if (auto error = std::move(member).get(field)) throw_invalid_json(error);
        simdjson::ondemand::value value = field.value();
        // Raw keys, as the codec matches them: plain names are compared with their raw bytes.
        if (!on_member(field.key(), value)) break;
      }
    } catch (const PathedFailure& failure) {
      throw DecodeError(
          context(spec_.name, "filtering the item " +
                                  pksk::detail::key_text({row.partition_key(), row.sort_key()})) +
          "at " + failure.full_path() + ": " + failure.what);
    }
  }

  void read_body(const backend::ItemView& row) {
    std::size_t found = 0;
    for_each_member(
        row, [&](simdjson::ondemand::raw_json_string key, simdjson::ondemand::value& value) {
          const std::string_view* wanted = nullptr;
          for (const BodyName& n : body_names_) {
            if (wanted == nullptr && pksk::detail::json_key_is(key, n.name, n.plain))
              wanted = &n.name;
          }
          if (wanted == nullptr) return true;  // On-Demand skips the value
          auto& entry = item_.map.emplace_back(AttributeValue::Member{std::string(*wanted), {}});
          read_plain_value(value, entry.second);
          // Every named attribute read: the rest of the body is not looked at.
          return ++found != body_names_.size();
        });
  }

  // ------------------------------------------------------------ comparisons read in place

  enum class Verdict : unsigned char { fails, holds, unknown };

  // `name op constant` with name a top-level attribute of the body.
  struct Comparison {
    std::string_view name;
    backend::Condition::Op op;
    AttributeValue::Kind kind;           // of the constant: number or string
    std::string_view constant;           // its text
    std::optional<PlainDecimal> number;  // a number constant, split once
    double rounded = 0;                  // that number as the nearest double
    bool has_rounded = false;            // false when it is beyond a double's range
  };

  static bool is_comparison(backend::Condition::Op op) noexcept {
    using Op = backend::Condition::Op;
    return op == Op::eq || op == Op::ne || op == Op::lt || op == Op::le || op == Op::gt ||
           op == Op::ge;
  }

  // Every conjunct (but the type, checked on its column) a comparison on the body, or none is
  // taken: a filter is evaluated one way or the other.
  void find_comparisons() {
    for (const backend::Condition* part : parts_) {
      const backend::Condition& c = *part;
      const bool simple = is_comparison(c.op) && c.operands.size() == 2 && c.children.empty() &&
                          c.operands[0].kind == backend::Operand::Kind::path &&
                          c.operands[0].path.steps.size() == 1 &&
                          !c.operands[0].path.steps[0].is_index &&
                          c.operands[1].kind == backend::Operand::Kind::value &&
                          (c.operands[1].value.kind == AttributeValue::Kind::number ||
                           c.operands[1].value.kind == AttributeValue::Kind::string);
      const std::string& name = simple ? c.operands[0].path.steps[0].name : spec_.pk_attribute;
      // A name JSON may escape (a renamed member's "Total \"net\"") is left to the evaluator:
      // the comparisons here match raw keys.
      if (!simple || name == spec_.pk_attribute || name == spec_.sk_attribute ||
          name == spec_.type_attribute || !pksk::detail::is_plain_json_name(name)) {
        comparisons_.clear();
        return;
      }
      const AttributeValue& constant = c.operands[1].value;
      Comparison comparison{name, c.op, constant.kind, constant.text, {}};
      if (constant.kind == AttributeValue::Kind::number) {
        comparison.number = PlainDecimal::split(constant.text);
        if (!comparison.number) {  // an exponent: left to the evaluator
          comparisons_.clear();
          return;
        }
        const std::string_view text = constant.text;
        const auto [end, error] =
            std::from_chars(text.data(), text.data() + text.size(), comparison.rounded);
        comparison.has_rounded = error == std::errc{} && end == text.data() + text.size();
      }
      comparisons_.push_back(comparison);
    }
    seen_.resize(comparisons_.size());
  }

  // The comparison of a value with the constant, as evaluate() would find it.
  static Verdict judge(const Comparison& c, simdjson::ondemand::value& value) {
    using Op = backend::Condition::Op;
    using simdjson::ondemand::json_type;
    json_type type;
    if (auto error = value.type().get(type)) throw_invalid_json(error);
    // A value of another type: = and the orderings are false, <> is true.
    const Verdict mismatch = c.op == Op::ne ? Verdict::holds : Verdict::fails;
    int order = 0;
    if (c.kind == AttributeValue::Kind::number) {
      if (type != json_type::number) return mismatch;
      // Both sides rounded to the nearest double (simdjson and from_chars round correctly):
      // rounding keeps order, so doubles that differ order the numbers exactly, and only equal
      // ones need the comparison of their digits. Most rows end at the doubles.
      const std::string_view raw = value.raw_json_token();
      double rounded = 0;
      if (c.has_rounded && value.get_double().get(rounded) == simdjson::SUCCESS &&
          rounded != c.rounded) {
        order = rounded < c.rounded ? -1 : 1;
      } else {
        const std::optional<PlainDecimal> n = PlainDecimal::split(plain_number_text(raw));
        if (!n) return Verdict::unknown;
        order = compare(*n, *c.number);
      }
    } else {
      if (type != json_type::string) return mismatch;
      std::string_view text;
      if (auto error = value.get_string().get(text)) throw_invalid_json(error);
      const int cmp = text.compare(c.constant);
      order = cmp < 0 ? -1 : (cmp > 0 ? 1 : 0);
    }
    bool holds = false;
    switch (c.op) {
      case Op::eq:
        holds = order == 0;
        break;
      case Op::ne:
        holds = order != 0;
        break;
      case Op::lt:
        holds = order < 0;
        break;
      case Op::le:
        holds = order <= 0;
        break;
      case Op::gt:
        holds = order > 0;
        break;
      default:
        holds = order >= 0;
        break;
    }
    return holds ? Verdict::holds : Verdict::fails;
  }

  Verdict compare_in_place(const backend::ItemView& row) {
    if (comparisons_.size() == 1) return compare_one_in_place(row);
    std::fill(seen_.begin(), seen_.end(), false);
    std::size_t found = 0;
    Verdict verdict = Verdict::holds;
    for_each_member(row,
                    [&](simdjson::ondemand::raw_json_string key, simdjson::ondemand::value& value) {
                      for (std::size_t i = 0; i < comparisons_.size(); ++i) {
                        // Only the first of duplicate members counts, as the evaluator's find()
                        // reads it.
                        if (seen_[i] || !key.unsafe_is_equal(comparisons_[i].name)) continue;
                        seen_[i] = true;
                        ++found;
                        verdict = judge(comparisons_[i], value);
                        if (verdict != Verdict::holds)
                          return false;  // false, or not judged here: done
                        // Two comparisons on one member read its value once each: only the first is
                        // judged now, the other when the rows are evaluated in full.
                        for (std::size_t j = i + 1; j < comparisons_.size(); ++j) {
                          if (!seen_[j] && comparisons_[j].name == comparisons_[i].name) {
                            verdict = Verdict::unknown;
                            return false;
                          }
                        }
                        break;
                      }
                      return found != comparisons_.size();
                    });
    if (verdict != Verdict::holds) return verdict;
    // Absent attributes: = and the orderings are false, <> is true.
    for (std::size_t i = 0; i < comparisons_.size(); ++i) {
      if (!seen_[i] && comparisons_[i].op != backend::Condition::Op::ne) return Verdict::fails;
    }
    return Verdict::holds;
  }

  // The common filter, one comparison: no bookkeeping of which members were seen.
  Verdict compare_one_in_place(const backend::ItemView& row) {
    const Comparison& c = comparisons_.front();
    // Absent attribute: = and the orderings are false, <> is true.
    Verdict verdict = c.op == backend::Condition::Op::ne ? Verdict::holds : Verdict::fails;
    for_each_member(
        row, [&](simdjson::ondemand::raw_json_string key, simdjson::ondemand::value& value) {
          if (!key.unsafe_is_equal(c.name)) return true;
          verdict = judge(c, value);
          return false;  // the first of duplicate members counts, as the evaluator reads it
        });
    return verdict;
  }

  const backend::TableSpec& spec_;
  std::optional<std::string_view> type_;          // the type every passing item has
  std::vector<const backend::Condition*> parts_;  // the other conjuncts, all to hold
  bool needs_pk_ = false;
  bool needs_sk_ = false;
  bool needs_type_ = false;
  // A top-level attribute the filter reads from the body, and whether its name is plain
  // (is_plain_json_name): compared with a key's raw bytes.
  struct BodyName {
    std::string_view name;  // a view into the condition
    bool plain = true;
  };
  std::vector<BodyName> body_names_;
  AttributeValue item_;
  std::vector<Comparison> comparisons_;  // every part, when all are comparisons read in place
  std::vector<bool> seen_;               // per comparison, in the row being read
};

}  // namespace pksk::sqlite::detail
