// SPDX-License-Identifier: BSL-1.0
#pragma once
// Credentials as JSON, in the shape the container endpoint, IMDS and credential_process print
// them: "AccessKeyId", "SecretAccessKey", the session token ("Token"; "SessionToken" for
// credential_process) and "Expiration" (ISO 8601), read with simdjson's DOM parser (the
// documents are small, and it checks the whole of them).

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "../../../error.hpp"
#include "../../credentials.hpp"
#include "timestamp.hpp"

namespace pksk::dynamodb::detail {

struct CredentialsJson {
  std::string_view token_key = "Token";
  // credential_process: "Version" must be 1.
  bool versioned = false;
  // IMDS: "Code" must be "Success" when present.
  bool coded = false;
};

// The credentials `json` holds; a BackendError (errc::access_denied) beginning with `source`
// and saying what is wrong when it is not such a document.
inline Credentials credentials_from_json(std::string_view json, const CredentialsJson& shape,
                                         const std::string& source) {
  const auto fail = [&](const std::string& why) -> Credentials {
    throw BackendError(errc::access_denied, source + ": " + why);
  };
  // The DOM parser validates the whole document: output with anything after the object fails.
  const simdjson::padded_string padded(json);
  simdjson::dom::parser parser;
  simdjson::dom::element document;
  simdjson::dom::object object;
  if (parser.parse(padded).get(document)) return fail("the answer is not valid JSON");
  if (document.get_object().get(object)) return fail("the answer is not a JSON object");
  Credentials out;
  std::optional<std::string> expiration;
  std::optional<std::int64_t> version;
  std::string code;
  for (const simdjson::dom::key_value_pair field : object) {
    const std::string_view key = field.key;
    std::string* text = nullptr;
    std::string expiration_text;
    if (key == "AccessKeyId") {
      text = &out.access_key_id;
    } else if (key == "SecretAccessKey") {
      text = &out.secret_access_key;
    } else if (key == shape.token_key) {
      text = &out.session_token;
    } else if (key == "Expiration") {
      text = &expiration_text;
    } else if (key == "Code" && shape.coded) {
      text = &code;
    } else if (key == "Version" && shape.versioned) {
      std::int64_t v = 0;
      if (field.value.get_int64().get(v)) return fail("\"Version\" is not a number");
      version = v;
      continue;
    } else {
      continue;  // LastUpdated, Type, RoleArn, AccountId...
    }
    std::string_view value;
    if (field.value.get_string().get(value))
      return fail("\"" + std::string(key) + "\" is not a string");
    text->assign(value);
    if (text == &expiration_text) expiration = std::move(expiration_text);
  }
  if (shape.versioned && version != 1) {
    return fail(version ? "\"Version\" is " + std::to_string(*version) + ", not 1"
                        : std::string("no \"Version\" (1 expected)"));
  }
  if (shape.coded && !code.empty() && code != "Success") return fail("\"Code\" is " + code);
  if (out.access_key_id.empty()) return fail("no \"AccessKeyId\"");
  if (out.secret_access_key.empty()) return fail("no \"SecretAccessKey\"");
  if (expiration) {
    out.expiration = parse_iso8601(*expiration);
    if (!out.expiration)
      return fail("\"Expiration\" is not an ISO 8601 time: \"" + *expiration + "\"");
  }
  return out;
}

}  // namespace pksk::dynamodb::detail
