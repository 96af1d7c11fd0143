// SPDX-License-Identifier: BSL-1.0
#pragma once
// The definitions of backend/emulation.hpp: inline through it in header-only mode, compiled
// once by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION. Each builds the message of one of
// DynamoDB's refusals.

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "../emulation.hpp"
#include "../messages.hpp"

namespace pksk::backend::emulation {

PKSK_DECL void throw_key_refused(std::string_view backend, std::string_view table,
                                 std::string_view operation, backend::ItemKey key, bool sorted) {
  if (!sorted && !key.sk.empty() && !key.pk.empty() &&
      key.pk.size() <= detail::max_partition_key_size) {
    throw ValidationError(detail::backend_context(backend, table, operation) +
                          "the table has no sort key, and the key has one (" +
                          detail::key_text(key) + ")");
  }
  const bool partition = key.pk.empty() || key.pk.size() > detail::max_partition_key_size;
  const std::string_view value = partition ? key.pk : key.sk;
  std::string msg = detail::backend_context(backend, table, operation) + "the " +
                    (partition ? "partition" : "sort") + " key ";
  if (value.empty()) {
    msg += "is empty (" + detail::key_text(key) + ")";
  } else {
    msg += "is " + detail::over_limit(value.size(), partition ? detail::max_partition_key_size
                                                              : detail::max_sort_key_size);
  }
  throw ValidationError(msg);
}

PKSK_DECL void throw_query_key_refused(std::string_view backend, std::string_view table,
                                       std::string_view index, std::string_view pk) {
  throw ValidationError(
      detail::backend_context(
          backend, table,
          index.empty() ? std::string("query") : "query on index " + detail::quoted(index)) +
      "the partition key " +
      (pk.empty() ? std::string("is empty")
                  : "is " + detail::over_limit(pk.size(), detail::max_partition_key_size)));
}

PKSK_DECL std::optional<std::int64_t> number_key(std::string_view text) noexcept {
  const std::string_view digits = text.substr(!text.empty() && text[0] == '-' ? 1 : 0);
  if (digits.empty() || (digits[0] == '0' && text.size() != 1)) return {};  // "-0", "007"
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return {};
  return value;
}

PKSK_DECL void throw_sort_key_not_a_number(std::string_view backend, std::string_view table,
                                           std::string_view operation, std::string_view sk) {
  throw ValidationError(detail::backend_context(backend, table, operation) + "the sort key " +
                        detail::quoted(sk) +
                        " is not a number, and the table's sort key is one (TableOptions::sk_type "
                        "= KeyType::number: an integer within int64_t, in decimal)");
}

PKSK_DECL void check_number_sort_key_query(std::string_view backend, const backend::TableSpec& spec,
                                           const backend::RawQuery& query) {
  if (spec.sk_type != KeyType::number || spec.sk_attribute.empty() || !query.index.empty()) return;
  if (query.exclusive_start_sk)
    check_number_sort_key(backend, spec, "query (exclusive start)", *query.exclusive_start_sk);
  const KeyCondition* cond = query.sk;
  if (cond == nullptr || cond->op == KeyCondition::Op::any) return;
  if (cond->op == KeyCondition::Op::begins_with) {
    throw ValidationError(detail::backend_context(backend, spec.name, "query") + "begins_with(" +
                          detail::quoted(cond->first) +
                          ") on a sort key that is a number (TableOptions::sk_type = "
                          "KeyType::number): numbers have no prefix; use a range");
  }
  // Each bound read once: refused as check_number_sort_key refuses a key, else compared.
  const auto bound = [&](const std::string& text) {
    const std::optional<std::int64_t> value = number_key(text);
    if (!value) throw_sort_key_not_a_number(backend, spec.name, "query", text);
    return *value;
  };
  const std::int64_t low = bound(cond->first);
  if (cond->op != KeyCondition::Op::between) return;
  if (low > bound(cond->second)) {
    throw ValidationError(detail::backend_context(backend, spec.name, "query") + "between(" +
                          cond->first + ", " + cond->second +
                          ") has a lower bound greater than its upper bound");
  }
}

PKSK_DECL void throw_item_too_large(std::string_view backend, std::string_view table,
                                    std::string_view operation, backend::ItemKey key,
                                    std::size_t size) {
  throw ItemTooLarge(detail::backend_context(
                         backend, table, std::string(operation) + " of " + detail::key_text(key)) +
                     "the item would be " + detail::over_limit(size, max_item_bytes));
}

PKSK_DECL TransactionCanceled transaction_canceled(
    std::string_view backend, std::string_view table, std::vector<CancellationReason> reasons,
    std::vector<std::shared_ptr<const RawItem>> stored) {
  std::string msg = detail::backend_context(backend, table, "transaction") + "canceled, reasons [";
  for (std::size_t i = 0; i < reasons.size(); ++i) {
    if (i) msg += ", ";
    msg += to_string(reasons[i]);
  }
  msg += ']';
  return TransactionCanceled(msg, std::move(reasons), {}, std::move(stored));
}

}  // namespace pksk::backend::emulation
