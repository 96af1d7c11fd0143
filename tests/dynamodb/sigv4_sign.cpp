// SPDX-License-Identifier: BSL-1.0
// The pksk half of check_sigv4.py: signs the requests it is given with pksk's SigV4 signer, or
// resolves credentials and the region from this process's environment, and prints the result
// as JSON for the script to hold against botocore's.
//
//   sigv4_sign sign < cases.json      -> [[["Header","value"],...], ...], one list a case
//   sigv4_sign resolve [profile]      -> {"access_key_id":...,"region":...} or {"error":...}

#include <iostream>
#include <iterator>
#include <string>
#include <string_view>

#include <simdjson.h>

#include <pksk/detail/json_writer.hpp>
#include <pksk/dynamodb/credentials.hpp>
#include <pksk/dynamodb/detail/sigv4.hpp>

namespace {

using pksk::detail::append_json_string;

std::string string_of(simdjson::dom::element e) {
  return std::string(std::string_view(e));
}

int sign() {
  const std::string input{std::istreambuf_iterator<char>(std::cin),
                          std::istreambuf_iterator<char>()};
  simdjson::dom::parser parser;
  const simdjson::dom::element cases = parser.parse(input);
  std::string out = "[";
  for (const simdjson::dom::element c : cases.get_array()) {
    pksk::dynamodb::detail::HttpRequest request;
    request.method = string_of(c["method"]);
    request.url = string_of(c["url"]);
    request.body = string_of(c["body"]);
    for (const simdjson::dom::element pair : c["query"].get_array())
      request.query.emplace_back(string_of(pair.at(0)), string_of(pair.at(1)));
    for (const simdjson::dom::element pair : c["headers"].get_array())
      request.headers.push_back({string_of(pair.at(0)), string_of(pair.at(1))});
    const pksk::dynamodb::Credentials credentials{string_of(c["access_key_id"]),
                                                  string_of(c["secret_access_key"]),
                                                  string_of(c["session_token"])};
    pksk::dynamodb::detail::sign_v4(request, credentials, string_of(c["region"]),
                                    string_of(c["service"]), string_of(c["timestamp"]));
    if (out.size() > 1) out += ',';
    out += '[';
    for (std::size_t i = 0; i < request.headers.size(); ++i) {
      if (i > 0) out += ',';
      out += '[';
      append_json_string(out, request.headers[i].name);
      out += ',';
      append_json_string(out, request.headers[i].value);
      out += ']';
    }
    out += ']';
  }
  std::cout << out << "]\n";
  return 0;
}

int resolve(std::string profile) {
  std::string out = "{";
  const auto field = [&](std::string_view name, std::string_view value) {
    if (out.size() > 1) out += ',';
    append_json_string(out, name);
    out += ':';
    append_json_string(out, value);
  };
  const pksk::dynamodb::ProfileOptions options{.profile = std::move(profile)};
  try {
    const auto credentials = pksk::dynamodb::resolve_credentials(std::nullopt, options);
    field("access_key_id", credentials.access_key_id);
    field("secret_access_key", credentials.secret_access_key);
    field("session_token", credentials.session_token);
  } catch (const pksk::BackendError& e) {
    field("error", e.what());
  }
  try {
    field("region", pksk::dynamodb::resolve_region("", options));
  } catch (const pksk::BackendError& e) {
    field("region_error", e.what());
  }
  std::cout << out << "}\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view mode = argc > 1 ? argv[1] : "";
  if (mode == "sign") return sign();
  if (mode == "resolve") return resolve(argc > 2 ? argv[2] : "");
  std::cerr << "usage: sigv4_sign sign < cases.json | sigv4_sign resolve [profile]\n";
  return 2;
}
