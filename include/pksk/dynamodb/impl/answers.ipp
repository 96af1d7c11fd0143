// SPDX-License-Identifier: BSL-1.0
#pragma once
// DynamoDB's answers: reading their JSON in place with simdjson On-Demand, a Query or Scan
// page handed to the visitor, and a refusal thrown as pksk's error (detail/errors.hpp maps
// DynamoDB's error types to pksk::errc).

#include "backend_impl.ipp"

namespace pksk::dynamodb {

inline void Backend::Impl::fail_parse(simdjson::error_code error) {
  throw BackendError(errc::backend_failure,
                     std::string("pksk::dynamodb: an answer that does not parse: ") +
                         simdjson::error_message(error));
}

inline simdjson::ondemand::object Backend::Impl::object_of(simdjson::ondemand::value value) {
  simdjson::ondemand::object out;
  if (auto error = value.get_object().get(out)) fail_parse(error);
  return out;
}

inline simdjson::ondemand::array Backend::Impl::array_of(simdjson::ondemand::value value) {
  simdjson::ondemand::array out;
  if (auto error = value.get_array().get(out)) fail_parse(error);
  return out;
}

template <class Result>
inline simdjson::ondemand::value Backend::Impl::value_of(Result&& result) {
  simdjson::ondemand::value out;
  if (auto error = std::forward<Result>(result).get(out)) fail_parse(error);
  return out;
}

template <class Each>
inline void Backend::Impl::for_each_object_member(simdjson::ondemand::object object, Each&& each) {
  for (auto member : object) {
    simdjson::ondemand::field field;
    std::string_view key;
    if (auto error = std::move(member).get(field)) fail_parse(error);
    if (auto error = field.unescaped_key().get(key)) fail_parse(error);
    each(key, field.value());
  }
}

// each(name, value) for the members of the answer's top-level object; its ConsumedCapacity,
// when asked for, is read into the request's observation instead.
template <class Each>
inline void Backend::Impl::for_each_member(detail::Exchange& x, Each&& each) {
  std::string& body = x.response.body;
  const std::size_t size = body.size();
  body.reserve(size + simdjson::SIMDJSON_PADDING);
  if (auto error = x.parser.iterate(body.data(), size, body.capacity()).get(x.document))
    fail_parse(error);
  simdjson::ondemand::object root;
  if (auto error = x.document.get_object().get(root)) fail_parse(error);
  if (!x.observation.wants_capacity) {
    for_each_object_member(root, each);
    return;
  }
  x.observation.answer_read = true;
  for_each_object_member(root, [&](std::string_view name, simdjson::ondemand::value value) {
    if (name == "ConsumedCapacity") {
      read_capacity(x.observation, value);
    } else {
      each(name, value);
    }
  });
}

// An answer's ConsumedCapacity: an object, or an array of one per table (batches,
// transactions), whose CapacityUnits (and ReadCapacityUnits and WriteCapacityUnits, when
// DynamoDB splits them) are summed. A member of another shape is passed over.
inline void Backend::Impl::read_capacity(detail::Observation& seen,
                                         simdjson::ondemand::value value) {
  ConsumedCapacity sum;
  bool split = false;
  const auto add = [&](simdjson::ondemand::object entry) {
    for_each_object_member(entry, [&](std::string_view name, simdjson::ondemand::value units) {
      double* into = name == "CapacityUnits"        ? &sum.units
                     : name == "ReadCapacityUnits"  ? &sum.read_units
                     : name == "WriteCapacityUnits" ? &sum.write_units
                                                    : nullptr;
      if (into == nullptr) return;
      split = split || into != &sum.units;
      double n = 0;
      if (!units.get_double().get(n)) *into += n;
    });
  };
  simdjson::ondemand::json_type type;
  if (auto error = value.type().get(type)) fail_parse(error);
  std::string_view text;
  if (type == simdjson::ondemand::json_type::array) {
    simdjson::ondemand::array entries = array_of(value);
    if (auto error = entries.raw_json().get(text)) fail_parse(error);
    if (auto error = entries.reset().error()) fail_parse(error);
    for (auto entry : entries) add(object_of(value_of(entry)));
  } else if (type == simdjson::ondemand::json_type::object) {
    simdjson::ondemand::object entry = object_of(value);
    if (auto error = entry.raw_json().get(text)) fail_parse(error);
    if (auto error = entry.reset().error()) fail_parse(error);
    add(entry);
  } else {
    return;
  }
  if (!split) (detail::is_read(seen.operation) ? sum.read_units : sum.write_units) = sum.units;
  seen.consumed = sum;
  seen.consumed_json = text;
}

// A Query or Scan answer: Items to the visitor (those the client-side filter keeps),
// ScannedCount as the items evaluated, Count (Select=COUNT's answer) to *count when asked for,
// LastEvaluatedKey to on_last_key. One function for queries and scans alike: on_last_key is a
// FunctionRef too.
inline void Backend::Impl::read_page(
    detail::Exchange& x, const backend::TableSpec& spec,
    const std::optional<backend::Condition>& client_filter, std::size_t& evaluated,
    std::size_t* count, backend::ItemVisitor visit,
    pksk::detail::FunctionRef<void(simdjson::ondemand::object&)> on_last_key) {
  for_each_member(x, [&](std::string_view name, simdjson::ondemand::value value) {
    if (name == "Items") {
      for (auto entry : array_of(value)) {
        simdjson::ondemand::object object = object_of(value_of(entry));
        const backend::ItemView item = detail::item_view(object, spec);
        if (client_filter) {
          // The item's text is found for the filter (the object read to its end), then the
          // object is rewound for the visitor.
          const std::string_view text = pksk::detail::item_text(item.live, item.body);
          if (!evaluate(*client_filter, detail::attributes_of(text))) continue;
          if (auto error = object.reset().error()) fail_parse(error);
        }
        visit(item);
      }
    } else if (name == "ScannedCount" || (count != nullptr && name == "Count")) {
      std::uint64_t n = 0;
      if (auto error = value.get_uint64().get(n)) fail_parse(error);
      (name == "Count" ? *count : evaluated) = static_cast<std::size_t>(n);
    } else if (name == "LastEvaluatedKey") {
      simdjson::ondemand::object key = object_of(value);
      on_last_key(key);
    }
  });
}

// The item a refused condition was evaluated on, when the request asked for it: its keys and
// type read from its attributes, its text kept whole as the backend's bodies are.
inline std::shared_ptr<const RawItem> Backend::Impl::stored_item(const detail::ServiceError& error,
                                                                 const backend::TableSpec& spec) {
  return stored_item(error.item, spec);
}
inline std::shared_ptr<const RawItem> Backend::Impl::stored_item(const std::string& item,
                                                                 const backend::TableSpec& spec) {
  if (item.empty()) return nullptr;
  const AttributeValue attributes = detail::attributes_of(item);
  const auto text = [&](std::string_view name) {
    const AttributeValue* a = attributes.find(name);
    return a != nullptr && (a->kind == AttributeValue::Kind::string ||
                            a->kind == AttributeValue::Kind::number)
               ? a->text
               : std::string();
  };
  return std::make_shared<const RawItem>(RawItem{text(spec.pk_attribute),
                                                 text(spec.sk_attribute),
                                                 text(spec.type_attribute),
                                                 item,
                                                 BodyFormat::attribute_value,
                                                 {}});
}

inline void Backend::Impl::raise(detail::ServiceError error, int status,
                                 const backend::TableSpec& spec,
                                 const std::optional<backend::ItemKey>& key, std::string_view what,
                                 detail::Cancellation cancellation) {
  const std::string where = detail::context(spec.name, std::string(what) + key_text(key));
  const std::string said = " (DynamoDB: " + error.type + ": " + error.message + ")";
  NativeError native{NativeError::Origin::dynamodb, status, error.type};
  if (error.type == "TransactionCanceledException" &&
      cancellation == detail::Cancellation::as_single_write && error.reasons.size() == 1) {
    switch (error.reasons.front()) {
      case CancellationReason::condition_failed:
        throw ConditionFailed(where + "condition failed" + said, std::move(native), nullptr,
                              stored_item(error, spec));
      case CancellationReason::item_too_large:
        throw ItemTooLarge(where + "item too large" + said, std::move(native));
      case CancellationReason::validation:
        throw ValidationError(where + "refused" + said, std::move(native));
      case CancellationReason::throttled:
        throw BackendError(errc::throttled, where + "throttled" + said, std::move(native));
      case CancellationReason::conflict:
        throw BackendError(errc::conflict, where + "conflict" + said, std::move(native));
      case CancellationReason::none:
        break;
    }
  }
  switch (detail::error_code_of(error.type, status)) {
    case errc::condition_failed:
      throw ConditionFailed(where + "condition failed" + said, std::move(native), nullptr,
                            stored_item(error, spec));
    case errc::transaction_canceled: {
      std::string msg = where + "transaction canceled, reasons [";
      for (std::size_t i = 0; i < error.reasons.size(); ++i) {
        if (i) msg += ", ";
        msg += to_string(error.reasons[i]);
      }
      std::vector<std::shared_ptr<const RawItem>> stored;
      for (std::size_t i = 0; i < error.reason_items.size(); ++i) {
        if (error.reason_items[i].empty()) continue;
        stored.resize(error.reason_items.size());
        stored[i] = stored_item(error.reason_items[i], spec);
      }
      throw TransactionCanceled(msg + "]" + said, std::move(error.reasons), std::move(native),
                                std::move(stored));
    }
    case errc::validation:
      if (detail::says_item_too_large(error.message))
        throw ItemTooLarge(where + "item too large" + said, std::move(native));
      throw ValidationError(where + "refused" + said, std::move(native));
    default:
      throw_error(detail::error_code_of(error.type, status), where + "failed" + said,
                  std::move(native));
  }
}

}  // namespace pksk::dynamodb
