// SPDX-License-Identifier: BSL-1.0
#pragma once
// What DynamoDB answers when it refuses a request, read and classified: its error type and
// HTTP status as a pksk::errc, a canceled transaction's reasons, and whether to send it again.

#include <simdjson.h>

#include <string>
#include <string_view>
#include <vector>

#include "../../error.hpp"

namespace pksk::dynamodb::detail {

// DynamoDB tells an item past 400 KB only in a ValidationException's message ("Item size has
// exceeded the maximum allowed size", "Item size to update has exceeded ..."): the one place
// pksk reads a store's message, because DynamoDB gives no other sign.
inline bool says_item_too_large(std::string_view message) {
  return message.find("has exceeded the maximum allowed size") != std::string_view::npos;
}

// What DynamoDB answered when it refused a request.
struct ServiceError {
  std::string type{};  // the part of __type after '#': "ConditionalCheckFailedException"
  std::string message{};
  std::vector<CancellationReason> reasons{};  // TransactionCanceledException only
  // The stored item a refused condition was evaluated on, as AttributeValue JSON, when the
  // request asked for it (ReturnValuesOnConditionCheckFailure): the answer's Item, or a
  // one-action transaction's reason's. Empty otherwise.
  std::string item{};
  // A canceled transaction's reasons' items (ReturnValuesOnConditionCheckFailure on an action),
  // one per reason, empty where the reason has none.
  std::vector<std::string> reason_items{};
};

// An update that would grow the item past 400 KB is a ValidationError whose message says so.
inline CancellationReason cancellation_reason(std::string_view code, std::string_view message) {
  if (code == "None") return CancellationReason::none;
  if (code == "ValidationError" && says_item_too_large(message)) {
    return CancellationReason::item_too_large;
  }
  if (code == "ConditionalCheckFailed") return CancellationReason::condition_failed;
  if (code == "TransactionConflict") return CancellationReason::conflict;
  if (code == "ItemCollectionSizeLimitExceeded") return CancellationReason::item_too_large;
  if (code == "ThrottlingError" || code == "ProvisionedThroughputExceeded" ||
      code == "RequestLimitExceeded") {
    return CancellationReason::throttled;
  }
  return CancellationReason::validation;  // ValidationError and any code not known here
}

// Whether a canceled transaction's reasons are all passing ones (a conflict with another
// transaction, throttling) or none: the same request may go through when sent again.
inline bool canceled_transiently(const std::vector<CancellationReason>& reasons) {
  bool transient = false;
  for (const CancellationReason reason : reasons) {
    if (reason == CancellationReason::conflict || reason == CancellationReason::throttled) {
      transient = true;
    } else if (reason != CancellationReason::none) {
      return false;
    }
  }
  return transient;
}

// What DynamoDB's refusal means to a caller, from its error type and HTTP status. The types
// are DynamoDB's documented error codes; a type not known here keeps its status's meaning.
inline errc error_code_of(std::string_view type, int status) {
  if (type == "ConditionalCheckFailedException") return errc::condition_failed;
  if (type == "TransactionCanceledException") return errc::transaction_canceled;
  if (type == "ValidationException" || type == "SerializationException") return errc::validation;
  if (type == "ProvisionedThroughputExceededException" || type == "ThrottlingException" ||
      type == "RequestLimitExceeded" || type == "LimitExceededException") {
    return errc::throttled;
  }
  // The same client token's transaction is still being applied: asking again is the answer.
  if (type == "TransactionInProgressException") return errc::unavailable;
  if (type == "TransactionConflictException") return errc::conflict;
  if (type == "ResourceNotFoundException") return errc::missing_table;
  if (type == "AccessDeniedException" || type == "UnrecognizedClientException" ||
      type == "InvalidSignatureException" || type == "MissingAuthenticationTokenException" ||
      type == "IncompleteSignatureException" || type == "ExpiredTokenException" ||
      type == "InvalidClientTokenId" || type == "MissingAuthenticationToken") {
    return errc::access_denied;
  }
  if (type == "InternalServerError" || type == "ServiceUnavailable" || status >= 500)
    return errc::unavailable;
  return errc::backend_failure;
}

// The refusals DynamoDB's own SDKs send again after a backoff.
inline bool is_retryable(std::string_view type) {
  return is_retryable(error_code_of(type, 0));
}

// Reads {"__type":"...#Name","message":"...","CancellationReasons":[...]}; what does not
// parse is kept whole as the message.
inline ServiceError parse_service_error(simdjson::ondemand::parser& parser, std::string& body) {
  ServiceError error;
  const std::size_t size = body.size();
  body.reserve(size + simdjson::SIMDJSON_PADDING);
  simdjson::ondemand::document doc;
  simdjson::ondemand::object root;
  if (parser.iterate(body.data(), size, body.capacity()).get(doc) || doc.get_object().get(root)) {
    error.message = body;
    return error;
  }
  for (auto member : root) {
    simdjson::ondemand::field field;
    std::string_view key;
    if (std::move(member).get(field) || field.unescaped_key().get(key)) break;
    std::string_view text;
    if (key == "__type") {
      if (field.value().get_string().get(text)) break;
      const std::size_t hash = text.rfind('#');
      error.type = std::string(hash == std::string_view::npos ? text : text.substr(hash + 1));
    } else if (key == "message" || key == "Message") {
      if (field.value().get_string().get(text)) break;
      error.message = std::string(text);
    } else if (key == "Item") {
      simdjson::ondemand::object item;
      if (field.value().get_object().get(item) || item.raw_json().get(text)) break;
      error.item = std::string(text);
    } else if (key == "CancellationReasons") {
      simdjson::ondemand::array reasons;
      if (field.value().get_array().get(reasons)) break;
      std::size_t count = 0;
      for (auto reason : reasons) {
        std::string_view code = "None";
        simdjson::ondemand::object r;
        if (reason.get_object().get(r)) break;
        if (r.find_field_unordered("Code").get_string().get(code)) code = "None";
        std::string_view message;
        if (r.find_field_unordered("Message").get_string().get(message)) message = {};
        error.reasons.push_back(cancellation_reason(code, message));
        simdjson::ondemand::object item;
        std::string_view item_text;
        std::string& reason_item = error.reason_items.emplace_back();
        if (!r.find_field_unordered("Item").get_object().get(item) &&
            !item.raw_json().get(item_text)) {
          reason_item = std::string(item_text);
        }
        if (count++ == 0) {
          error.item = reason_item;
        } else {
          error.item.clear();  // kept for a one-action transaction only
        }
      }
    }
  }
  return error;
}

}  // namespace pksk::dynamodb::detail
