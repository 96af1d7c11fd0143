// SPDX-License-Identifier: BSL-1.0
#pragma once
// Keeping items in their secondary indexes: the index keys a put appends to the item, the set
// actions an update adds when it changes a member an index key is formatted from, and the
// backfill that gives items written before an index existed their keys in it. DynamoDB cannot
// compute an index key from the stored item, so every write carries the keys it changes.

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "../backend/backend.hpp"
#include "../codec/body_format.hpp"
#include "../error.hpp"
#include "../expr/attr.hpp"
#include "../expr/expression.hpp"
#include "../key/entity.hpp"
#include "../key/index.hpp"
#include "../key/key.hpp"
#include "../key/stored_names.hpp"
#include "../reflect/reflect.hpp"
#include "detail/decode_row.hpp"
#include "detail/entity_writes.hpp"
#include "detail/index_keys.hpp"
#include "detail/messages.hpp"
#include "detail/scratch.hpp"
#include "read_plan.hpp"

namespace pksk {

// What Maintenance::backfill_index has done so far, handed to its progress callback after each page.
struct BackfillProgress {
  std::string_view type{};    // the entity being backfilled
  std::size_t scanned = 0;    // items of the type read without the index keys
  std::size_t written = 0;    // of those, items given their index keys
  std::size_t unchanged = 0;  // items another writer changed or removed first (left as they are)
};

namespace detail {

// The table's index that T's I-th index names; ValidationError if the table has none so named.
template <EntityType T, std::size_t I>
const TableIndex& table_index_of(const backend::TableSpec& spec, std::string_view operation) {
  constexpr std::string_view index_name = indexes_v<T>[I].name;
  const TableIndex* index = spec.find_index(index_name);
  if (index == nullptr) {
    throw ValidationError(table_context(spec.name, operation, type_name_v<T>) +
                          "the entity names the index " + detail::quoted(index_name) +
                          ", which the table does not have (add it "
                          "to TableOptions::indexes)");
  }
  return *index;
}

// Whether T's index I keeps its keys in the attributes of an earlier index of T (two indexes on
// the same key attributes, such as a KEYS_ONLY one beside an ALL one): the keys are written
// once, for that index. ValidationError when T formats the two from different templates, which
// would give one attribute two values.
template <EntityType T, std::size_t I>
bool keys_written_by_earlier_index(const backend::TableSpec& spec, const TableIndex& index,
                                   std::string_view operation) {
  bool shared = false;
  for_each_index<T>([&](auto j) {
    if constexpr (decltype(j)::value < I) {
      const TableIndex* other = spec.find_index(indexes_v<T>[j].name);
      if (shared || other == nullptr || other->pk_attribute != index.pk_attribute ||
          other->sk_attribute != index.sk_attribute)
        return;
      if (indexes_v<T>[j].pk != indexes_v<T>[I].pk || indexes_v<T>[j].sk != indexes_v<T>[I].sk) {
        throw ValidationError(table_context(spec.name, operation, type_name_v<T>) + "indexes " +
                              detail::quoted(other->name) + " and " + detail::quoted(index.name) +
                              " keep their keys in the same attributes, and the entity formats "
                              "them from different key templates");
      }
      shared = true;
    }
  });
  return shared;
}

template <EntityType T, std::size_t I>
void format_index_keys_checked(const backend::TableSpec& spec, const T& item, std::string& pk,
                               std::string& sk, std::string_view operation) {
  try {
    format_index_keys<T, I>(item, pk, sk);
  } catch (const KeyError& e) {
    throw KeyError(table_context(spec.name, operation, type_name_v<T>) + "index " +
                   detail::quoted(indexes_v<T>[I].name) + ": " +
                   std::string(detail::without_origin(e.what())));
  }
}

// Whether the item has keys in T's I-th index: not when an optional member they are formatted
// from is empty (a sparse index).
template <EntityType T, std::size_t I>
bool in_index(const T& item) noexcept {
  return index_partition_key_template<T, I>::present(item) &&
         index_sort_key_template<T, I>::present(item);
}

// T's keys in the table's index `index` (which T names); false when the item has none (an
// empty optional member of a sparse index's key).
template <EntityType T>
bool format_index_keys_of(const backend::TableSpec& spec, const T& item, const TableIndex& index,
                          std::string& pk, std::string& sk, std::string_view operation) {
  bool found = false;
  bool present = false;
  for_each_index<T>([&](auto i) {
    if (found || indexes_v<T>[i].name != index.name) return;
    found = true;
    present = detail::in_index<T, i>(item);
    if (present) detail::format_index_keys_checked<T, i>(spec, item, pk, sk, operation);
  });
  return present;
}

// Appends the item's keys in each of its indexes it is in to its encoded body, as attributes;
// returns their size by DynamoDB's measure.
template <EntityType T>
std::size_t add_index_attributes(BodyFormat format, const backend::TableSpec& spec, const T& item,
                                 std::string& body, std::string_view operation) {
  thread_local std::string index_pk, index_sk;
  std::size_t size = 0;
  for_each_index<T>([&](auto i) {
    const TableIndex& index = detail::table_index_of<T, i>(spec, operation);
    if (!detail::in_index<T, i>(item) ||
        detail::keys_written_by_earlier_index<T, i>(spec, index, operation))
      return;
    detail::format_index_keys_checked<T, i>(spec, item, index_pk, index_sk, operation);
    detail::append_string_attribute(format, body, index.pk_attribute, index_pk);
    detail::append_string_attribute(format, body, index.sk_attribute, index_sk);
    size +=
        index.pk_attribute.size() + index_pk.size() + index.sk_attribute.size() + index_sk.size();
  });
  return size;
}

// A member of an index key that an update leaves unset (add_index_key_actions).
struct UnsetIndexMember {
  std::string_view index;
  std::string_view member;
};

// The actions that keep an update's item in its indexes right: when an action changes a member
// an index key is formatted from, both of that index's keys are set anew. They are formatted
// from the update alone (DynamoDB cannot compute them from the stored item), so every member
// of those keys must be given a value in the same update, by set, or be part of the item's
// key; anything else is a ValidationError naming the index and the member.
//
// Returns the first member the update leaves an item it creates without: a string member of an
// index key, outside the table's key, of an index whose keys the update does not give. An item
// created so would hold it empty, which a put of the same item refuses (a key's string is never
// empty); so such an update may only change an item that exists (Table::update).
template <EntityType T>
std::optional<UnsetIndexMember> add_index_key_actions(const backend::TableSpec& spec, const T& key,
                                                      std::vector<backend::UpdateAction>& actions,
                                                      std::size_t first) {
  const std::size_t user_actions = actions.size();
  std::optional<UnsetIndexMember> unset;
  for_each_index<T>([&](auto i) {
    bool touched = false;
    for (std::size_t a = first; a < user_actions; ++a) {
      const std::size_t field = stored_field_index<T>(actions[a].path.steps.front().name);
      touched = touched || (field < field_count_v<T> && is_index_member<T, i>(field));
    }
    if (!touched) {
      [&]<std::size_t... F>(std::index_sequence<F...>) {
        const auto check = [&]<std::size_t G>(std::integral_constant<std::size_t, G>) {
          if constexpr (std::is_same_v<field_type_t<T, G>, std::string>) {
            if (!unset && is_index_member<T, i>(G) && !is_key_member<T>(G)) {
              unset = UnsetIndexMember{indexes_v<T>[i].name, field_names_v<T>[G]};
            }
          }
        };
        (check(std::integral_constant<std::size_t, F>{}), ...);
      }(std::make_index_sequence<field_count_v<T>>{});
      return;
    }
    const TableIndex& index = detail::table_index_of<T, i>(spec, "update");
    if (detail::keys_written_by_earlier_index<T, i>(spec, index, "update")) return;
    // An update that empties an optional member of a sparse index's key takes the item out of
    // that index, whatever the index's other members are: nothing else need be given.
    bool leaves = false;
    const auto empties = [&]<std::size_t F>(std::integral_constant<std::size_t, F>) {
      if constexpr (is_index_member<T, std::remove_cvref_t<decltype(i)>::value>(F) &&
                    KeyFieldValue<field_type_t<T, F>>::optional) {
        for (std::size_t a = first; a < user_actions; ++a) {
          const backend::UpdateAction& given = actions[a];
          if (given.path.steps.size() == 1 &&
              given.path.steps.front().name == field_names_v<T>[F] &&
              (given.kind == backend::UpdateAction::Kind::remove ||
               (given.kind == backend::UpdateAction::Kind::set &&
                given.value.kind == AttributeValue::Kind::null))) {
            leaves = true;
          }
        }
      }
    };
    [&]<std::size_t... F>(std::index_sequence<F...>) {
      (empties(std::integral_constant<std::size_t, F>{}), ...);
    }(std::make_index_sequence<field_count_v<T>>{});
    if (leaves) {
      actions.push_back({backend::UpdateAction::Kind::remove, top_level(index.pk_attribute), {}});
      actions.push_back({backend::UpdateAction::Kind::remove, top_level(index.sk_attribute), {}});
      return;
    }
    T item = key;
    // Only the members the index's keys are formatted from are parsed back from the update:
    // instantiated for any other member, the parser would not compile for a bool.
    const auto take = [&]<std::size_t F>(std::integral_constant<std::size_t, F>) {
      if constexpr (is_index_member<T, std::remove_cvref_t<decltype(i)>::value>(F) &&
                    !is_key_member<T>(F)) {
        const std::string_view member = field_names_v<T>[F];
        const backend::UpdateAction* given = nullptr;
        for (std::size_t a = first; a < user_actions; ++a) {
          if (actions[a].path.steps.front().name == stored_names_v<T>[F]) given = &actions[a];
        }
        using Member = field_type_t<T, F>;
        bool assigned = false;
        if (given != nullptr && given->path.steps.size() == 1) {
          if (given->kind == backend::UpdateAction::Kind::set) {
            assigned = detail::assign_key_member(get_field<F>(item), given->value);
          } else if constexpr (KeyFieldValue<Member>::optional) {
            // remove of a sparse index's member takes the item out of that index.
            if (given->kind == backend::UpdateAction::Kind::remove) {
              get_field<F>(item).reset();
              assigned = true;
            }
          }
        }
        if (!assigned) {
          throw ValidationError(
              table_context(spec.name, "update", type_name_v<T>) + "the update changes the key " +
              "of index " + detail::quoted(index.name) + ", so it must set the member " +
              detail::quoted(member) + " (every member of that index's keys) to a value" +
              (KeyFieldValue<Member>::optional ? " or remove it" : ""));
        }
      }
    };
    [&]<std::size_t... F>(std::index_sequence<F...>) {
      (take(std::integral_constant<std::size_t, F>{}), ...);
    }(std::make_index_sequence<field_count_v<T>>{});
    if (!detail::in_index<T, i>(item)) {
      actions.push_back({backend::UpdateAction::Kind::remove, top_level(index.pk_attribute), {}});
      actions.push_back({backend::UpdateAction::Kind::remove, top_level(index.sk_attribute), {}});
      return;
    }
    std::string index_pk, index_sk;
    detail::format_index_keys_checked<T, i>(spec, item, index_pk, index_sk, "update");
    actions.push_back({backend::UpdateAction::Kind::set, top_level(index.pk_attribute),
                       AttributeValue::from_string(std::move(index_pk))});
    actions.push_back({backend::UpdateAction::Kind::set, top_level(index.sk_attribute),
                       AttributeValue::from_string(std::move(index_sk))});
  });
  return unset;
}

// Maintenance::backfill_index for one entity: a scan of T's items that lack the index's partition
// key, page by page, each page's items given their keys in transactions of up to 100 updates.
template <EntityType T, Backend B, class Progress>
std::size_t backfill(B& backend, typename B::TableHandle& handle, const backend::TableSpec& spec,
                     const TableIndex& index, Progress& progress, std::size_t page_items) {
  const backend::Condition lacks_keys{
      backend::Condition::Op::not_exists, {path_operand(top_level(index.pk_attribute))}, {}};
  // Without a type attribute the items are told apart by their sort keys, while scanning.
  const backend::Condition filter = [&] {
    if (spec.type_attribute.empty()) return lacks_keys;
    backend::Condition c{backend::Condition::Op::all, {}, {}};
    c.children.push_back(detail::type_is_condition<T>(spec));
    c.children.push_back(lacks_keys);
    return c;
  }();
  // Written only to an item that still exists and still lacks the keys.
  backend::Condition unindexed{backend::Condition::Op::all, {}, {}};
  unindexed.children.push_back(
      {backend::Condition::Op::exists, {path_operand(top_level(spec.pk_attribute))}, {}});
  unindexed.children.push_back(lacks_keys);

  BackfillProgress done{type_name_v<T>};
  backend::RawScan raw{.limit = page_items, .filter = &filter};
  std::vector<std::string> keys;  // pk, sk of each item read, then its two index keys
  std::vector<std::array<backend::UpdateAction, 2>> actions;
  std::string resume_pk, resume_sk;
  std::string index_pk, index_sk;
  for (;;) {
    keys.clear();
    backend::ScanOutcome outcome;
    {
      const ScratchLease s;
      T item{};
      // The index keys come from key members, never a blob member: its object is not read.
      std::optional<BlobKeysScope> blobs;
      if constexpr (has_blob_members_v<T>) blobs.emplace(nullptr, false);
      outcome = backend.scan(handle, raw, [&](const backend::ItemView& row) {
        if (!detail::stored_as<T>(row)) return;
        detail::decode_row(body_format_arg(backend, handle), spec.name, *s->decoder, row, item);
        if (!detail::format_index_keys_of<T>(spec, item, index, index_pk, index_sk,
                                             "backfill_index"))
          return;
        for (std::string_view k : {row.partition_key(), row.sort_key(), std::string_view(index_pk),
                                   std::string_view(index_sk)}) {
          keys.emplace_back(k);
        }
      });
    }
    const std::size_t n = keys.size() / 4;
    done.scanned += n;
    actions.resize(n);
    std::vector<backend::WriteRequest> writes;
    writes.reserve(std::min(n, backend::max_transaction_actions));
    for (std::size_t start = 0; start < n; start += backend::max_transaction_actions) {
      writes.clear();
      const std::size_t end = std::min(n, start + backend::max_transaction_actions);
      for (std::size_t i = start; i < end; ++i) {
        actions[i] = {
            backend::UpdateAction{backend::UpdateAction::Kind::set, top_level(index.pk_attribute),
                                  AttributeValue::from_string(keys[4 * i + 2])},
            backend::UpdateAction{backend::UpdateAction::Kind::set, top_level(index.sk_attribute),
                                  AttributeValue::from_string(keys[4 * i + 3])}};
        writes.emplace_back(backend::UpdateRequest{
            {keys[4 * i], keys[4 * i + 1]}, type_name_v<T>, actions[i], &unindexed});
      }
      try {
        backend.transact(handle, writes);
        done.written += writes.size();
      } catch (const TransactionCanceled&) {
        // Some item changed since it was read: the others one at a time.
        for (const backend::WriteRequest& write : writes) {
          try {
            backend.update(handle, std::get<backend::UpdateRequest>(write),
                           [](const backend::ItemView&) {});
            ++done.written;
          } catch (const ConditionFailed&) {
            ++done.unchanged;
          }
        }
      }
    }
    if constexpr (std::is_pointer_v<std::decay_t<Progress>>) {
      if (progress != nullptr) progress(done);
    } else {
      progress(done);
    }
    if (!outcome.last_evaluated_pk) return done.written;
    resume_pk = std::move(*outcome.last_evaluated_pk);
    resume_sk = std::move(*outcome.last_evaluated_sk);
    raw.exclusive_start = backend::ItemKey{resume_pk, resume_sk};
  }
}

}  // namespace detail
}  // namespace pksk
