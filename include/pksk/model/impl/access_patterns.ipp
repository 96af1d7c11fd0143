// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of access_patterns.hpp: inline through it in header-only mode, compiled once
// by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "../../codec/attribute_value.hpp"
#include "../../codec/attribute_value_read.hpp"
#include "../../detail/json_writer.hpp"
#include "../../error.hpp"
#include "../access_patterns.hpp"

namespace pksk {

namespace detail {

// The version of the JSON form; from_json reads this one only.
inline constexpr std::string_view design_format_version = "1";

// The patterns are worked out from the templates' text, the way the key templates read it: the
// literal prefix before the first {field}, and that field's name (without a ":spec").
inline std::string_view template_prefix(std::string_view text) {
  return text.substr(0, text.find('{'));
}
inline bool template_has_field(std::string_view text) {
  return text.find('{') != std::string_view::npos;
}
inline std::string_view template_first_field(std::string_view text) {
  const std::size_t open = text.find('{');
  if (open == std::string_view::npos) return {};
  const std::size_t end = text.find_first_of(":}", open + 1);
  return text.substr(open + 1, end == std::string_view::npos ? end : end - open - 1);
}

// English plurals, enough for type names: Reply -> Replies, Address -> Addresses, Order -> Orders.
inline std::string plural(std::string_view noun) {
  std::string out(noun);
  const auto ends = [&](std::string_view s) { return noun.ends_with(s); };
  const auto vowel = [](char c) {
    return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'A' || c == 'E' ||
           c == 'I' || c == 'O' || c == 'U';
  };
  if (noun.size() > 1 && ends("y") && !vowel(noun[noun.size() - 2])) {
    out.back() = 'i';
    out += "es";
  } else if (ends("s") || ends("x") || ends("z") || ends("ch") || ends("sh")) {
    out += "es";
  } else {
    out += 's';
  }
  return out;
}

inline std::string quoted_text(std::string_view text) {
  return '"' + std::string(text) + '"';
}

// "A", "A and B", "A, B and C".
inline std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? " and " : ", ";
    out += words[i];
  }
  return out;
}

inline const DesignEntity* find_entity(const std::vector<DesignEntity>& entities,
                                       std::string_view type) {
  for (const DesignEntity& e : entities) {
    if (e.type == type) return &e;
  }
  return nullptr;
}

// The sort-key template of e where `index` ("" the table) partitions it.
inline std::string_view sort_template_in(const DesignEntity& e, std::string_view index) {
  if (index.empty()) return e.sk;
  for (const DesignIndex& i : e.indexes) {
    if (i.name == index) return i.sk;
  }
  return {};
}

// Whether the literal key `one` sorts after (1) or before (-1) every key that begins with
// `prefix`; 0 when it cannot be told (one is a prefix of the other, or the prefix is empty).
inline int literal_against_prefix(std::string_view one, std::string_view prefix) {
  if (prefix.empty() || one.starts_with(prefix) || prefix.starts_with(one)) return 0;
  return one > prefix ? 1 : -1;
}

inline void add_collection_patterns(const std::vector<DesignEntity>& entities,
                                    const DesignCollection& c, std::vector<AccessPattern>& out) {
  for (const DesignPartition& p : c.partitions) {
    // Members with one item per partition (a literal sort key) and members with many.
    std::vector<std::string> single, many, words;
    std::vector<std::string_view> many_prefixes;
    for (const std::string& type : c.members) {
      const DesignEntity* e = find_entity(entities, type);
      const std::string_view sk = e == nullptr ? std::string_view{} : sort_template_in(*e, p.index);
      if (e != nullptr && p.index.empty() && !template_has_field(sk)) {
        single.push_back(type);
        words.push_back(type);
      } else {
        many.push_back(plural(type));
        many_prefixes.push_back(template_prefix(sk));
        words.push_back(plural(type));
      }
    }
    const std::string condition = "pk = " + quoted_text(p.pk);
    const std::string by = " by " + p.pk;
    const bool owner = single.size() == 1 && !many.empty();
    out.push_back({(owner ? single[0] + " and its " + joined(many) : joined(words)) + by, p.index,
                   c.members, condition, true, ""});
    if (!owner) continue;
    // The one item first, then the first or last N of the others: which depends on where its
    // literal sort key falls beside the others' prefixes.
    const DesignEntity* e = find_entity(entities, single[0]);
    if (e == nullptr) continue;
    int side = literal_against_prefix(e->sk, many_prefixes[0]);
    for (std::string_view prefix : many_prefixes) {
      if (literal_against_prefix(e->sk, prefix) != side) side = 0;
    }
    if (side == 0) continue;
    out.push_back(
        {single[0] + " and its " + (side > 0 ? "newest" : "first") + " N " + joined(many) + by,
         p.index, c.members, condition, side < 0, "N + 1"});
  }
}

inline void add_entity_patterns(const DesignEntity& e, std::vector<AccessPattern>& out) {
  const std::string pk = "pk = " + quoted_text(e.pk);
  const std::vector<std::string> items{e.type};
  const std::string_view prefix = template_prefix(e.sk);
  if (!template_has_field(e.sk)) {
    out.push_back(
        {e.type + " by " + e.pk, "", items, pk + " and sk = " + quoted_text(e.sk), true, "1"});
  } else {
    const std::string these = plural(e.type);
    const std::string in_partition =
        prefix.empty() ? pk : pk + " and begins_with(sk, " + quoted_text(prefix) + ")";
    const std::string field(template_first_field(e.sk));
    out.push_back({these + " by " + e.pk, "", items, in_partition, true, ""});
    out.push_back({these + " by " + e.pk + " with " + field + " in a range", "", items,
                   pk + " and sk between " +
                       quoted_text(std::string(prefix) + "{low " + field + "}") + " and " +
                       quoted_text(std::string(prefix) + "{high " + field + "}"),
                   true, ""});
    out.push_back({"Newest N " + these + " by " + e.pk, "", items, in_partition, false, "N"});
  }
  for (const DesignIndex& index : e.indexes) {
    const std::string index_pk = "pk = " + quoted_text(index.pk);
    const std::string_view index_prefix = template_prefix(index.sk);
    std::string condition = index_pk;
    if (!template_has_field(index.sk)) {
      condition += " and sk = " + quoted_text(index.sk);
    } else if (!index_prefix.empty()) {
      condition += " and begins_with(sk, " + quoted_text(index_prefix) + ")";
    }
    out.push_back({plural(e.type) + " by " + index.pk, index.name, items, condition, true, ""});
  }
}

// A Markdown table cell: a '|' would end it.
inline std::string cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

inline std::string code_cell(std::string_view text) {
  return '`' + cell(text) + '`';
}

inline std::string index_cell(std::string_view index) {
  return index.empty() ? std::string("table") : cell(index);
}

// ------------------------------------------------------------------------- JSON

inline void json_member(std::string& out, std::string_view name, std::string_view value,
                        bool first = false) {
  if (!first) out += ", ";
  append_json_string(out, name);
  out += ": ";
  append_json_string(out, value);
}

inline void json_strings(std::string& out, std::string_view name,
                         const std::vector<std::string>& values) {
  out += ", ";
  append_json_string(out, name);
  out += ": [";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    append_json_string(out, values[i]);
  }
  out += ']';
}

// Writes `values` as a JSON array, one element a line.
template <class T, class Write>
void json_lines(std::string& out, std::string_view name, const std::vector<T>& values,
                Write&& write) {
  out += "  ";
  append_json_string(out, name);
  out += ": [";
  for (std::size_t i = 0; i < values.size(); ++i) {
    out += i == 0 ? "\n    {" : ",\n    {";
    write(values[i]);
    out += '}';
  }
  out += values.empty() ? "]" : "\n  ]";
}

[[noreturn]] inline void throw_bad_design(std::string_view what) {
  throw ValidationError("pksk: not a stored design: " + std::string(what));
}

inline const AttributeValue& design_member(const AttributeValue& object, std::string_view name,
                                           AttributeValue::Kind kind) {
  const AttributeValue* value = object.find(name);
  if (value == nullptr || value->kind != kind) {
    throw_bad_design("member \"" + std::string(name) + "\" is missing or of the wrong type");
  }
  return *value;
}

inline std::string design_text(const AttributeValue& object, std::string_view name) {
  return design_member(object, name, AttributeValue::Kind::string).text;
}

inline std::vector<std::string> design_texts(const AttributeValue& object, std::string_view name) {
  std::vector<std::string> out;
  for (const AttributeValue& v : design_member(object, name, AttributeValue::Kind::list).list) {
    if (v.kind != AttributeValue::Kind::string) {
      throw_bad_design("\"" + std::string(name) + "\" holds a value that is not a string");
    }
    out.push_back(v.text);
  }
  return out;
}

template <class T, class Read>
std::vector<T> design_objects(const AttributeValue& object, std::string_view name, Read&& read) {
  std::vector<T> out;
  for (const AttributeValue& v : design_member(object, name, AttributeValue::Kind::list).list) {
    if (v.kind != AttributeValue::Kind::map) {
      throw_bad_design("\"" + std::string(name) + "\" holds a value that is not an object");
    }
    out.push_back(read(v));
  }
  return out;
}

}  // namespace detail

PKSK_DECL std::vector<AccessPattern> detail::design_patterns(
    const std::vector<DesignEntity>& entities, const std::vector<DesignCollection>& sets) {
  std::vector<AccessPattern> out;
  for (const DesignCollection& c : sets) add_collection_patterns(entities, c, out);
  for (const DesignEntity& e : entities) add_entity_patterns(e, out);
  return out;
}

PKSK_DECL std::string AccessPatterns::to_markdown() const {
  using detail::cell;
  using detail::code_cell;
  std::string out =
      "## Entities\n\n| Entity | Partition key | Sort key | Collections |\n"
      "|---|---|---|---|\n";
  for (const DesignEntity& e : entities) {
    std::string in;
    for (const DesignCollection& c : collections) {
      for (const std::string& member : c.members) {
        if (member == e.type) in += (in.empty() ? "" : ", ") + cell(c.name);
      }
    }
    out += "| " + cell(e.type) + " | " + code_cell(e.pk) + " | " + code_cell(e.sk) + " | " + in +
           " |\n";
  }
  bool any_index = false;
  for (const DesignEntity& e : entities) any_index = any_index || !e.indexes.empty();
  if (any_index) {
    out += "\n## Indexes\n\n| Index | Entity | Partition key | Sort key |\n|---|---|---|---|\n";
    for (const DesignEntity& e : entities) {
      for (const DesignIndex& i : e.indexes) {
        out += "| " + cell(i.name) + " | " + cell(e.type) + " | " + code_cell(i.pk) + " | " +
               code_cell(i.sk) + " |\n";
      }
    }
  }
  out +=
      "\n## Stored attributes\n\n(key): a member of the table's key templates.\n\n"
      "| Entity | Attributes |\n|---|---|\n";
  for (const DesignEntity& e : entities) {
    std::string attributes;
    for (const DesignAttribute& a : e.attributes) {
      if (!attributes.empty()) attributes += ", ";
      attributes += code_cell(a.member);
      if (a.name != a.member) attributes += " as " + code_cell(a.name);
      if (a.key) attributes += " (key)";
    }
    out += "| " + cell(e.type) + " | " + attributes + " |\n";
  }
  if (!collections.empty()) {
    out += "\n## Collections\n\n| Collection | Index | Partition key |\n|---|---|---|\n";
    for (const DesignCollection& c : collections) {
      for (const DesignPartition& p : c.partitions) {
        out += "| " + cell(c.name) + " | " + detail::index_cell(p.index) + " | " + code_cell(p.pk) +
               " |\n";
      }
    }
  }
  out +=
      "\n## Access patterns\n\n| Access pattern | Index | Items | Key condition | Order | Limit |\n"
      "|---|---|---|---|---|---|\n";
  for (const AccessPattern& p : patterns) {
    std::string items;
    for (const std::string& item : p.items) items += (items.empty() ? "" : ", ") + cell(item);
    out += "| " + cell(p.name) + " | " + detail::index_cell(p.index) + " | " + items + " | " +
           code_cell(p.key_condition) + " | " + (p.forward ? "forward" : "backward") + " | " +
           (p.limit.empty() ? std::string("all") : cell(p.limit)) + " |\n";
  }
  return out;
}

PKSK_DECL std::string AccessPatterns::to_json() const {
  using detail::json_member;
  std::string out = "{\n  \"pksk_design\": ";
  out += detail::design_format_version;
  out += ",\n";
  detail::json_lines(out, "entities", entities, [&](const DesignEntity& e) {
    json_member(out, "type", e.type, true);
    json_member(out, "pk", e.pk);
    json_member(out, "sk", e.sk);
    out += ", \"indexes\": [";
    for (std::size_t i = 0; i < e.indexes.size(); ++i) {
      out += i == 0 ? "{" : ", {";
      json_member(out, "name", e.indexes[i].name, true);
      json_member(out, "pk", e.indexes[i].pk);
      json_member(out, "sk", e.indexes[i].sk);
      out += '}';
    }
    out += "], \"attributes\": [";
    for (std::size_t i = 0; i < e.attributes.size(); ++i) {
      out += i == 0 ? "{" : ", {";
      json_member(out, "member", e.attributes[i].member, true);
      json_member(out, "name", e.attributes[i].name);
      out += e.attributes[i].key ? ", \"key\": true}" : ", \"key\": false}";
    }
    out += ']';
  });
  out += ",\n";
  detail::json_lines(out, "collections", collections, [&](const DesignCollection& c) {
    json_member(out, "name", c.name, true);
    detail::json_strings(out, "members", c.members);
    out += ", \"partitions\": [";
    for (std::size_t i = 0; i < c.partitions.size(); ++i) {
      out += i == 0 ? "{" : ", {";
      json_member(out, "index", c.partitions[i].index, true);
      json_member(out, "pk", c.partitions[i].pk);
      out += '}';
    }
    out += ']';
  });
  out += ",\n";
  detail::json_lines(out, "patterns", patterns, [&](const AccessPattern& p) {
    json_member(out, "name", p.name, true);
    json_member(out, "index", p.index);
    detail::json_strings(out, "items", p.items);
    json_member(out, "key_condition", p.key_condition);
    out += p.forward ? ", \"forward\": true" : ", \"forward\": false";
    json_member(out, "limit", p.limit);
  });
  out += "\n}\n";
  return out;
}

PKSK_DECL AccessPatterns AccessPatterns::from_json(std::string_view json) {
  using detail::design_text;
  using detail::design_texts;
  using Kind = AttributeValue::Kind;
  const AttributeValue root = parse_plain_body(json);
  const AttributeValue& version = detail::design_member(root, "pksk_design", Kind::number);
  if (version.text != detail::design_format_version) {
    detail::throw_bad_design("version " + version.text + "; this pksk reads version " +
                             std::string(detail::design_format_version));
  }
  AccessPatterns design;
  design.entities = detail::design_objects<DesignEntity>(root, "entities", [](const auto& e) {
    return DesignEntity{
        design_text(e, "type"), design_text(e, "pk"), design_text(e, "sk"),
        detail::design_objects<DesignIndex>(e, "indexes",
                                            [](const auto& i) {
                                              return DesignIndex{design_text(i, "name"),
                                                                 design_text(i, "pk"),
                                                                 design_text(i, "sk")};
                                            }),
        detail::design_objects<DesignAttribute>(e, "attributes", [](const auto& a) {
          return DesignAttribute{design_text(a, "member"), design_text(a, "name"),
                                 detail::design_member(a, "key", Kind::boolean).boolean};
        })};
  });
  design.collections =
      detail::design_objects<DesignCollection>(root, "collections", [](const auto& c) {
        return DesignCollection{
            design_text(c, "name"), design_texts(c, "members"),
            detail::design_objects<DesignPartition>(c, "partitions", [](const auto& p) {
              return DesignPartition{design_text(p, "index"), design_text(p, "pk")};
            })};
      });
  design.patterns = detail::design_objects<AccessPattern>(root, "patterns", [](const auto& p) {
    return AccessPattern{design_text(p, "name"),
                         design_text(p, "index"),
                         design_texts(p, "items"),
                         design_text(p, "key_condition"),
                         detail::design_member(p, "forward", Kind::boolean).boolean,
                         design_text(p, "limit")};
  });
  return design;
}

}  // namespace pksk
