// SPDX-License-Identifier: BSL-1.0
#pragma once
// Writes of one item: put, update and erase, with their conditions evaluated in C++ on the
// stored item inside one BEGIN IMMEDIATE transaction. BEGIN IMMEDIATE takes the write lock
// before anything is read, so no other connection can change the item between the read and
// the write; a transaction not committed is rolled back however the scope is left (a failed
// condition, an exception from anywhere).

#include "backend_impl.ipp"
#include "statements.ipp"  // prepared(), a template

namespace pksk::sqlite {

inline void Backend::Impl::put(TableHandle table, const backend::PutRequest& request) {
  Call k = enter(table);
  const backend::ItemKey key{request.item.pk, request.item.sk};
  check_key(k.t, "put", key);
  const backend::WriteReturns& returns = request.returns;
  if (request.condition == nullptr && returns.old_item == nullptr) {
    // One statement, hence atomic in autocommit mode: a failed put leaves no trace.
    insert(k, request.item);
    return;
  }
  detail::WriteTransaction transaction(k.c, k.t.name, "put");
  std::optional<Stored> old;
  const bool keep = returns.old_item != nullptr || returns.stored_on_failure;
  const std::optional<AttributeValue> item = load(k, key, keep ? &old : nullptr);
  if (request.condition != nullptr &&
      !require(k.t, "put", key, *request.condition, item,
               returns.stored_on_failure ? &old : nullptr, returns.failure)) {
    return;
  }
  insert(k, request.item);
  // Before the commit: an exception from the caller's visitor leaves the item as it was.
  if (returns.old_item != nullptr && old) (*returns.old_item)(old->view());
  transaction.commit();
}

inline void Backend::Impl::update(TableHandle table, const backend::UpdateRequest& request,
                                  backend::ItemVisitor visit) {
  Call k = enter(table);
  const detail::TableState& t = k.t;
  check_key(t, "update", request.key);
  detail::WriteTransaction transaction(k.c, k.t.name, "update");
  // Per thread and reused: an update allocates for what it parses and writes, not for these.
  thread_local std::vector<std::string_view> names;
  thread_local backend::BodyPatch patch;
  thread_local std::string body;
  names.clear();
  for (const backend::UpdateAction& action : request.actions) {
    if (!presence_only(action)) names.push_back(action.path.steps.front().name);
  }
  if (request.condition != nullptr) add_names(*request.condition, names);

  std::string stored_type;
  std::size_t stored_size = 0;
  // The item as stored, for the ConditionFailed of a write that asks for it.
  std::optional<Stored> stored;
  const std::optional<Stored>* carried = request.returns.stored_on_failure ? &stored : nullptr;
  const bool found = read_item(
      k, request.key, "read for an update",
      [&](const backend::ItemView& row) {
        if (carried != nullptr) {
          stored.emplace(Stored{std::string(request.key.pk), std::string(request.key.sk),
                                std::string(row.type), std::string(row.body), row.size});
        }
        try {
          if (request.reader != nullptr)
            request.reader->split(row.body, names, patch);
          else
            patch.parse(row.body, names);
        } catch (const DecodeError& e) {
          throw_not_an_object(t, request.key, e);
        }
        stored_type = row.type;
        stored_size = row.size;
      },
      /*expired=*/true);
  if (!found) {
    std::optional<AttributeValue> none;
    if (request.condition != nullptr && !require(t, "update", request.key, *request.condition, none,
                                                 carried, request.returns.failure)) {
      return;
    }
    const Stored stored = updated(t, request, std::move(none));
    insert(k, stored.view());
    visit(stored.view());
    transaction.commit();
    return;
  }
  {
    AttributeValue& item = patch.named();
    // Key and type attributes are columns, not body members: added when named, as a
    // condition may read them, and left out of the body again.
    const auto named = [&](std::string_view name) {
      return std::find(names.begin(), names.end(), name) != names.end();
    };
    if (named(t.spec.pk_attribute))
      item.assign(t.spec.pk_attribute, AttributeValue::from_string(std::string(request.key.pk)));
    if (!t.spec.sk_attribute.empty() && named(t.spec.sk_attribute))
      item.assign(t.spec.sk_attribute, t.spec.sort_key_value(request.key.sk));
    if (named(t.spec.type_attribute))
      item.assign(t.spec.type_attribute, AttributeValue::from_string(stored_type));
    if (request.condition != nullptr && !require(t, "update", request.key, *request.condition,
                                                 &item, carried, request.returns.failure)) {
      return;
    }
    apply_actions(t, request, item, [&](const backend::UpdateAction& action) {
      return presence_only(action) && patch.has_member(action.path.steps.front().name);
    });
    const auto is_column = [&](std::string_view name) {
      return name == t.spec.pk_attribute || name == t.spec.sk_attribute ||
             name == t.spec.type_attribute;
    };
    std::size_t named_after = 0;
    for (const auto& [name, value] : item.map) {
      if (!is_column(name)) named_after += name.size() + attribute_size(value);
    }
    // The stored size counts the type's value; the type written is the request's.
    std::size_t size = stored_size - std::min(stored_size, patch.bytes_before(item));
    size = size - std::min(size, stored_type.size()) + named_after + request.type.size();
    backend::emulation::check_item_size(backend_name, t.name, "update", request.key, size);
    body.clear();
    patch.write(body, item, is_column);
    const backend::ItemView written{request.key.pk, request.key.sk, request.type, body, size};
    rewrite(k, written);
    if (request.reader != nullptr) request.reader->finish(item);
    visit(written);
    transaction.commit();
  }
}

inline bool Backend::Impl::erase(TableHandle table, const backend::EraseRequest& request) {
  Call k = enter(table);
  check_key(k.t, "erase", request.key);
  const backend::WriteReturns& returns = request.returns;
  if (request.condition == nullptr && returns.old_item == nullptr) return remove(k, request.key);
  detail::WriteTransaction transaction(k.c, k.t.name, "erase");
  std::optional<Stored> old;
  const bool keep = returns.old_item != nullptr || returns.stored_on_failure;
  const std::optional<AttributeValue> item = load(k, request.key, keep ? &old : nullptr);
  if (request.condition != nullptr &&
      !require(k.t, "erase", request.key, *request.condition, item,
               returns.stored_on_failure ? &old : nullptr, returns.failure)) {
    return false;
  }
  const bool removed = remove(k, request.key);
  if (returns.old_item != nullptr && old) (*returns.old_item)(old->view());
  transaction.commit();
  return removed;
}

inline void Backend::Impl::insert(Call& k, const backend::ItemView& item) {
  detail::StatementUse use(statement(k, k.st.put, &detail::put_sql, "put"), k.st.put.in_use,
                           k.t.name, "put", /*rebinds_all=*/true);
  sqlite3_stmt* s = use.get();
  bind_item(k, s, item, "put");
  const int rc = step_write(k, s);
  if (rc != SQLITE_DONE)
    detail::throw_failure(k.db(), rc, k.t.name, key_operation("put", item.pk, item.sk));
}

// An item's five parameters (put_sql's and rewrite_sql's). SQLite's codes are OR-ed: the
// binds are checked one by one, for the message naming the key, only when one failed.
inline void Backend::Impl::bind_item(Call& k, sqlite3_stmt* s, const backend::ItemView& item,
                                     std::string_view operation) {
  const int rc = detail::bind_text(s, 1, item.pk) | detail::bind_text(s, 2, item.sk) |
                 detail::bind_text(s, 3, item.type) | detail::bind_text(s, 4, item.body) |
                 sqlite3_bind_int64(s, 5, static_cast<sqlite3_int64>(item.size));
  if (rc != SQLITE_OK) [[unlikely]] {
    bind(k, s, 1, item.pk, operation, item.pk, item.sk);
    bind(k, s, 2, item.sk, operation, item.pk, item.sk);
    bind(k, s, 3, item.type, operation, item.pk, item.sk);
    bind(k, s, 4, item.body, operation, item.pk, item.sk);
    detail::throw_failure(k.db(), sqlite3_bind_int64(s, 5, static_cast<sqlite3_int64>(item.size)),
                          k.t.name, key_operation(operation, item.pk, item.sk));
  }
}

// The row of an item read in this transaction (the write lock held since), written in place.
inline void Backend::Impl::rewrite(Call& k, const backend::ItemView& item) {
  detail::StatementUse use(statement(k, k.st.rewrite, &detail::rewrite_sql, "update"),
                           k.st.rewrite.in_use, k.t.name, "update", /*rebinds_all=*/true);
  sqlite3_stmt* s = use.get();
  bind_item(k, s, item, "update");
  const int rc = sqlite3_step(s);
  if (rc != SQLITE_DONE)
    detail::throw_failure(k.db(), rc, k.t.name, key_operation("update", item.pk, item.sk));
}

inline bool Backend::Impl::remove(Call& k, backend::ItemKey key) {
  detail::StatementUse use(statement(k, k.st.erase, &detail::erase_sql, "erase"), k.st.erase.in_use,
                           k.t.name, "erase");
  sqlite3_stmt* s = use.get();
  bind(k, s, 1, key.pk, "erase", key.pk, key.sk);
  bind(k, s, 2, key.sk, "erase", key.pk, key.sk);
  const int rc = step_write(k, s);
  if (rc != SQLITE_DONE)
    detail::throw_failure(k.db(), rc, k.t.name, key_operation("erase", key.pk, key.sk));
  return sqlite3_changes64(k.db()) > 0;
}

// The stored item with every attribute (keys and type included), as conditions see it.
inline std::optional<AttributeValue> Backend::Impl::load(Call& k, backend::ItemKey key,
                                                         std::optional<Stored>* stored) {
  const detail::TableState& t = k.t;
  std::optional<AttributeValue> item;
  read_item(
      k, key, "read for a condition",
      [&](const backend::ItemView& row) {
        if (stored != nullptr) {
          stored->emplace(Stored{std::string(key.pk), std::string(key.sk), std::string(row.type),
                                 std::string(row.body), row.size});
        }
        AttributeValue body;
        try {
          body = parse_plain_body(row.body);
        } catch (const DecodeError& e) {
          throw_not_an_object(t, key, e);
        }
        item.emplace(AttributeValue::empty_map());
        item->map.reserve(body.map.size() + 3);
        item->assign(t.spec.pk_attribute, AttributeValue::from_string(std::string(key.pk)));
        if (!t.spec.sk_attribute.empty())
          item->assign(t.spec.sk_attribute, t.spec.sort_key_value(key.sk));
        if (!t.spec.type_attribute.empty())
          item->assign(t.spec.type_attribute, AttributeValue::from_string(std::string(row.type)));
        for (auto& member : body.map) item->map.push_back(std::move(member));
      },
      /*expired=*/true);
  return item;
}

inline const AttributeValue& Backend::Impl::no_item() {
  static const AttributeValue empty = AttributeValue::empty_map();
  return empty;
}

inline bool Backend::Impl::require(const detail::TableState& t, std::string_view operation,
                                   backend::ItemKey key, const backend::Condition& condition,
                                   const std::optional<AttributeValue>& item,
                                   const std::optional<Stored>* stored,
                                   std::optional<ConditionFailed>* failure) const {
  return require(t, operation, key, condition, item ? &*item : nullptr, stored, failure);
}

inline bool Backend::Impl::require(const detail::TableState& t, std::string_view operation,
                                   backend::ItemKey key, const backend::Condition& condition,
                                   const AttributeValue* item, const std::optional<Stored>* stored,
                                   std::optional<ConditionFailed>* failure) const {
  if (evaluate(condition, item ? *item : no_item())) return true;
  ConditionFailed failed(
      detail::context(t.name, std::string(operation) + " of " + key_text(key)) + "the condition " +
          describe(condition) +
          (item ? " is false on the stored item" : " is false: no item has this key"),
      {}, nullptr,
      stored != nullptr && *stored ? backend::stored_item((*stored)->view(), BodyFormat::json)
                                   : nullptr);
  if (failure == nullptr) throw failed;
  failure->emplace(std::move(failed));
  return false;
}

// Top-level names a condition reads (its paths' first steps), added to names.
inline void Backend::Impl::add_names(const backend::Condition& condition,
                                     std::vector<std::string_view>& names) {
  for (const backend::Operand& operand : condition.operands) {
    if (operand.kind != backend::Operand::Kind::value && !operand.path.steps.empty())
      names.push_back(operand.path.steps.front().name);
  }
  for (const backend::Condition& child : condition.children) add_names(child, names);
}

// if_not_exists of a top-level attribute asks only whether the stored item has it: update()
// does not parse its value (an update sets one for each key member of the entity, so that an
// item it creates has them).
inline bool Backend::Impl::presence_only(const backend::UpdateAction& action) noexcept {
  return action.kind == backend::UpdateAction::Kind::set_if_not_exists &&
         action.path.steps.size() == 1;
}

// Applies the actions but those `already_applied` says hold as they are.
template <class AlreadyApplied>
inline void Backend::Impl::apply_actions(const detail::TableState& t,
                                         const backend::UpdateRequest& request,
                                         AttributeValue& item, AlreadyApplied&& already_applied) {
  for (const backend::UpdateAction& action : request.actions) {
    const std::string& top = action.path.steps.front().name;
    if (top == t.spec.pk_attribute || top == t.spec.sk_attribute) {
      throw ValidationError(detail::context(t.name, "update of " + key_text(request.key)) +
                            pksk::detail::quoted(top) +
                            " is part of the key and cannot be updated");
    }
    if (!already_applied(action)) apply(action, item);
  }
}

inline void Backend::Impl::apply_actions(const detail::TableState& t,
                                         const backend::UpdateRequest& request,
                                         AttributeValue& item) {
  apply_actions(t, request, item, [](const backend::UpdateAction&) { return false; });
}

// The item after an update: actions applied in order on the stored item (or on the key
// alone), type set, body rendered back to plain JSON and measured as DynamoDB measures.
inline auto Backend::Impl::updated(const detail::TableState& t,
                                   const backend::UpdateRequest& request,
                                   std::optional<AttributeValue> current) const -> Stored {
  AttributeValue item = current ? std::move(*current) : AttributeValue::empty_map();
  if (!current) {
    item.assign(t.spec.pk_attribute, AttributeValue::from_string(std::string(request.key.pk)));
    if (!t.spec.sk_attribute.empty())
      item.assign(t.spec.sk_attribute, t.spec.sort_key_value(request.key.sk));
  }
  apply_actions(t, request, item);
  if (!t.spec.type_attribute.empty())
    item.assign(t.spec.type_attribute, AttributeValue::from_string(std::string(request.type)));
  Stored out;
  out.pk = request.key.pk;
  out.sk = request.key.sk;
  out.type = request.type;
  out.size = attributes_size(item);
  backend::emulation::check_item_size(backend_name, t.name, "update", request.key, out.size);
  // The body is every attribute but the keys and the type, written straight from the item
  // (no second map); a plain JSON body is seldom much longer than DynamoDB's measure.
  out.body.reserve(out.size + out.size / 4 + 16);
  append_plain_json_members(out.body, item, [&](std::string_view name) {
    return name == t.spec.pk_attribute || name == t.spec.sk_attribute ||
           name == t.spec.type_attribute;
  });
  return out;
}

// Called from the handler of `e`: the error thrown wraps it.
inline void Backend::Impl::throw_not_an_object(const detail::TableState& t,
                                               const backend::ItemKey& key, const DecodeError& e) {
  throw DecodeError(detail::context(t.name) + "the stored item " + key_text(key) +
                        " has a body that is not a JSON object: " + e.what(),
                    {}, std::current_exception());
}

// One DELETE in one write transaction. SQLite's json_extract reads the plain JSON body; the
// json_type test keeps a ttl attribute that is not a number (which never expires its item)
// from comparing as SQLite compares text with numbers.
inline std::size_t Backend::Impl::sweep_expired(TableHandle table) {
  Call k = enter(table);
  const backend::TableSpec& spec = k.t.spec;
  if (!backend::has_ttl(spec)) return 0;
  const std::string path = "$.\"" + spec.ttl_attribute + "\"";
  const std::string sql = "DELETE FROM " + detail::quoted_identifier(spec.name) +
                          " WHERE json_type(body, ?1) IN ('integer', 'real') AND "
                          "json_extract(body, ?1) <= " +
                          std::to_string(backend::ttl_now(spec));
  detail::WriteTransaction transaction(k.c, k.t.name, "sweep_expired");
  detail::for_each_row(k.db(), sql, {path}, spec.name, "sweep_expired", [](sqlite3_stmt*) {});
  const auto removed = static_cast<std::size_t>(sqlite3_changes64(k.db()));
  transaction.commit();
  return removed;
}

}  // namespace pksk::sqlite
