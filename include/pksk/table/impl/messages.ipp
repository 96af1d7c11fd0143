// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of detail/messages.hpp: inline through it in header-only mode, compiled once
// by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.

#include <exception>
#include <span>
#include <string>
#include <string_view>

#include "../detail/messages.hpp"

namespace pksk::detail {

PKSK_DECL std::string table_context(std::string_view table, std::string_view operation,
                                    std::string_view type) {
  return "pksk table " + detail::quoted(table) + ", " + std::string(operation) + " " +
         std::string(type) + ": ";
}

PKSK_DECL void throw_update_would_create(std::string_view table, std::string_view type,
                                         std::string_view index, std::string_view member,
                                         const ConditionFailed& failed) {
  throw ValidationError(
      table_context(table, "update", type) + "the item does not exist, and the update would " +
          "create it without the member " + quoted(member) + ", from which the keys of index " +
          quoted(index) + " are made: a put refuses such an item (a key's string is never " +
          "empty). Set that member in the same update, or put the item first; nothing was " +
          "written",
      failed.native(), std::make_exception_ptr(failed));
}

PKSK_DECL void throw_key_schema_mismatch(std::string_view table, std::string_view operation,
                                         std::string_view type, bool entity_has_sort_key) {
  throw ValidationError(
      table_context(table, operation, type) +
      (entity_has_sort_key
           ? "the entity has a sort-key template, and the table has no sort key "
             "(TableOptions::sk_attribute is empty): its items need a table with a sort key"
           : "the entity declares no sort key, and the table has one "
             "(TableOptions::sk_attribute): its items need a table keyed by its partition key "
             "alone, sk_attribute = \"\""));
}

PKSK_DECL void throw_sort_key_type_mismatch(std::string_view table, std::string_view operation,
                                            std::string_view type, bool entity_number) {
  throw ValidationError(
      table_context(table, operation, type) +
      (entity_number ? "the entity's sort key is a number (\"{member:number}\"), and the table's "
                       "is a string: its items need a table with TableOptions::sk_type = "
                       "KeyType::number"
                     : "the table's sort key is a number (TableOptions::sk_type = "
                       "KeyType::number), and the entity's is not: its sort-key template must be "
                       "one integer member, \"{member:number}\""));
}

PKSK_DECL void throw_sort_key_condition_without_sort_key(std::string_view table,
                                                         std::string_view type) {
  throw ValidationError(table_context(table, "query", type) +
                        "a sort-key condition on a table without a sort key "
                        "(TableOptions::sk_attribute is empty): a partition holds one item");
}

PKSK_DECL void throw_sort_key_condition_of_another_key_space(
    std::string_view table, std::string_view index, const KeySpace& built,
    std::span<const std::string_view> types_read, std::string_view template_read,
    bool entity_read) {
  std::string read;
  for (const std::string_view type : types_read) {
    read += read.empty() ? "" : ", ";
    read += type;
  }
  const auto key_space = [](std::string_view name) {
    return name.empty() ? std::string("the table") : "index " + detail::quoted(name);
  };
  std::string built_text = "sort_key_of<" + std::string(built.entity) +
                           (built.index.empty() ? "" : ", " + detail::quoted(built.index)) + ">";
  std::string message =
      table_context(table, "query", types_read.size() == 1 ? read : "ItemCollection<" + read + ">");
  message += "the sort-key condition was built for " + std::string(built.entity) + "'s sort key " +
             detail::quoted(built.sort_key_template) + " in " + key_space(built.index) + " (" +
             built_text + "), and the query on " + key_space(index);
  if (!entity_read) {
    message += " reads " + read + ", not " + std::string(built.entity) +
               ": its key text would select none of their items";
  } else if (template_read.empty()) {
    message += " reads no " + std::string(built.entity) + " (it is not in that index)";
  } else {
    message += " orders " + std::string(built.entity) + " by " + detail::quoted(template_read) +
               "; build the condition with sort_key_of<" + std::string(built.entity) +
               (index.empty() ? "" : ", " + detail::quoted(index)) + ">";
  }
  throw ValidationError(message);
}

PKSK_DECL std::string_view without_origin(std::string_view message) noexcept {
  constexpr std::string_view origin = "pksk: ";
  if (message.substr(0, origin.size()) == origin) message.remove_prefix(origin.size());
  return message;
}

}  // namespace pksk::detail
