// SPDX-License-Identifier: BSL-1.0
// Where credentials come from (credentials/sources.hpp, credentials/chain.hpp) and how the
// Backend renews them. Cases tagged [servers] need the stand-ins of credential_servers.py on
// 127.0.0.1 (moto's server for STS, a stub for the container endpoint and IMDSv2), whose
// directory PKSK_CREDENTIAL_SERVERS_DIR names; the others need no server.

#include <catch2/catch.hpp>
#include <pksk/dynamodb.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
// The readers of times and XML, and libcurl to ask the stub for its log: included by the
// sources' definitions in header-only mode, named here for PKSK_SEPARATE_COMPILATION too.
#include <pksk/dynamodb/credentials/detail/timestamp.hpp>
#include <pksk/dynamodb/credentials/detail/xml.hpp>
#include <pksk/dynamodb/detail/http.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>
#include "../support/numbered.hpp"
#include "stub_service.hpp"

namespace dynamodb_credentials {
struct Note {
  std::string id;
  std::string text;
};
}  // namespace dynamodb_credentials

template <>
struct pksk::Entity<dynamodb_credentials::Note> {
  static constexpr std::string_view type = "Note";
  static constexpr std::string_view pk = "NOTE#{id}";
  static constexpr std::string_view sk = "N";
};

namespace {

using dynamodb_credentials::Note;
using pksk::dynamodb::CredentialOptions;
using pksk::dynamodb::Credentials;
using pksk::dynamodb::HttpRequest;
using pksk::dynamodb::HttpResponse;
using std::chrono::system_clock;
using stub_service::active_table;
using stub_service::header;
namespace fs = std::filesystem;

// The variables the sources read, set or unset for one test and restored after it. Each test
// starts from none of them, with files that do not exist and IMDS disabled, so that neither
// the machine's ~/.aws nor 169.254.169.254 is consulted.
class Environment {
 public:
  Environment() {
    for (const char* name :
         {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
          "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN",
          "AWS_ROLE_SESSION_NAME", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
          "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_AUTHORIZATION_TOKEN",
          "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", "AWS_EC2_METADATA_SERVICE_ENDPOINT",
          "AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE", "AWS_ENDPOINT_URL_STS", "AWS_REGION",
          "AWS_DEFAULT_REGION"}) {
      unset(name);
    }
    set("AWS_SHARED_CREDENTIALS_FILE", (directory() / "none-credentials").string());
    set("AWS_CONFIG_FILE", (directory() / "none-config").string());
    set("AWS_EC2_METADATA_DISABLED", "true");
  }
  ~Environment() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->second) {
        ::setenv(it->first.c_str(), it->second->c_str(), 1);
      } else {
        ::unsetenv(it->first.c_str());
      }
    }
  }
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  void set(const std::string& name, const std::string& value) {
    save(name);
    ::setenv(name.c_str(), value.c_str(), 1);
  }
  void unset(const std::string& name) {
    save(name);
    ::unsetenv(name.c_str());
  }

  // A directory of this process for the test's files.
  static fs::path directory() {
    static const fs::path dir = [] {
      fs::path d = fs::temp_directory_path() / support::numbered("pksk-credentials-", ::getpid());
      fs::create_directories(d);
      return d;
    }();
    return dir;
  }

  static std::string write(const std::string& name, const std::string& text) {
    const fs::path path = directory() / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }

 private:
  void save(const std::string& name) {
    const char* old = std::getenv(name.c_str());
    saved_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
  }
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

// The endpoint credential_servers.py wrote as `name` ("sts", "metadata").
std::string server(const char* name) {
  const char* dir = std::getenv("PKSK_CREDENTIAL_SERVERS_DIR");
  REQUIRE(dir != nullptr);
  std::ifstream file(fs::path(dir) / name);
  std::string url;
  file >> url;
  REQUIRE(!url.empty());
  return url;
}

template <class F>
pksk::BackendError error_of(F&& f) {
  try {
    f();
  } catch (const pksk::BackendError& e) {
    return e;
  }
  FAIL("no BackendError");
  throw std::logic_error("unreachable");
}

HttpResponse dynamodb_answer(const HttpRequest& request) {
  if (header(request, "X-Amz-Target") == "DynamoDB_20120810.DescribeTable")
    return HttpResponse{.status = 200, .body = active_table};
  return HttpResponse{.status = 200, .body = "{}"};
}

// The access key id a request was signed with.
std::string signing_key(const HttpRequest& request) {
  const std::string authorization = header(request, "Authorization");
  const std::size_t from = authorization.find("Credential=");
  if (from == std::string::npos) return {};
  const std::size_t start = from + 11;
  return authorization.substr(start, authorization.find('/', start) - start);
}

bool expires_between(const Credentials& c, std::chrono::minutes low, std::chrono::minutes high) {
  if (!c.expiration) return false;
  const auto now = system_clock::now();
  return *c.expiration > now + low && *c.expiration < now + high;
}

}  // namespace

TEST_CASE("ISO 8601 times and STS's XML are read as the sources write them") {
  using pksk::dynamodb::detail::parse_iso8601;
  const auto t = parse_iso8601("2024-05-01T12:00:00Z");
  REQUIRE(t);
  CHECK(system_clock::to_time_t(*t) == 1714564800);
  CHECK(parse_iso8601("2024-05-01T14:00:00+02:00") == t);
  CHECK(parse_iso8601("2024-05-01T12:00:00.5Z") == *t + std::chrono::milliseconds(500));
  CHECK_FALSE(parse_iso8601("2024-05-01T12:00:00"));  // no zone
  CHECK_FALSE(parse_iso8601("2024-02-30T12:00:00Z"));
  CHECK_FALSE(parse_iso8601("yesterday"));

  using pksk::dynamodb::detail::xml_text;
  const std::string xml =
      "<R><Credentials><AccessKeyIdX>no</AccessKeyIdX><AccessKeyId> AK&amp;&#65;&#x42; "
      "</AccessKeyId><Empty/></Credentials></R>";
  CHECK(xml_text(xml, "AccessKeyId") == "AK&AB");
  CHECK(xml_text(xml, "Empty") == "");
  CHECK_FALSE(xml_text(xml, "SessionToken"));
  CHECK_FALSE(xml_text("<A>&bogus;</A>", "A"));
  CHECK_FALSE(xml_text("<A>unclosed", "A"));
}

TEST_CASE("environment: the AWS_* keys; half a pair is an error") {
  Environment env;
  CHECK_FALSE(pksk::dynamodb::environment_credentials());
  env.set("AWS_ACCESS_KEY_ID", "AKIDENV");
  CHECK(error_of([] { (void)pksk::dynamodb::environment_credentials(); }).code() ==
        pksk::errc::access_denied);
  env.set("AWS_SECRET_ACCESS_KEY", "secret");
  env.set("AWS_SESSION_TOKEN", "token");
  const auto c = pksk::dynamodb::environment_credentials();
  REQUIRE(c);
  CHECK(c->access_key_id == "AKIDENV");
  CHECK(c->session_token == "token");
  CHECK_FALSE(c->expiration);
}

TEST_CASE("credential_process: version 1 JSON with its expiration; bad output is an error") {
  Environment env;
  const std::string good = Environment::write(
      "process-good.sh",
      "echo '{\"Version\": 1, \"AccessKeyId\": \"AKIDPROC\", \"SecretAccessKey\": \"s\", "
      "\"SessionToken\": \"t\", \"Expiration\": \"2100-01-01T00:00:00Z\"}'\n");
  const Credentials c = pksk::dynamodb::process_credentials("sh " + good);
  CHECK(c.access_key_id == "AKIDPROC");
  CHECK(c.session_token == "t");
  REQUIRE(c.expiration);
  CHECK(*c.expiration == *pksk::dynamodb::detail::parse_iso8601("2100-01-01T00:00:00Z"));

  const auto failure = [](const std::string& script) {
    return error_of([&] {
      (void)pksk::dynamodb::process_credentials("sh " + Environment::write("process.sh", script));
    });
  };
  auto e = failure("echo 'not json'\n");
  CHECK(e.code() == pksk::errc::access_denied);
  CHECK_THAT(e.what(), Catch::Contains("credential_process") && Catch::Contains("not valid JSON"));
  e = failure("echo '{\"Version\": 2, \"AccessKeyId\": \"a\", \"SecretAccessKey\": \"s\"}'\n");
  CHECK_THAT(e.what(), Catch::Contains("\"Version\" is 2, not 1"));
  e = failure("echo '{\"Version\": 1, \"AccessKeyId\": \"a\"}'\n");
  CHECK_THAT(e.what(), Catch::Contains("no \"SecretAccessKey\""));
  e = failure(
      "echo '{\"Version\": 1, \"AccessKeyId\": \"a\", \"SecretAccessKey\": \"s\", "
      "\"Expiration\": \"soon\"}'\n");
  CHECK_THAT(e.what(), Catch::Contains("\"Expiration\" is not an ISO 8601 time"));
  e = failure("echo '{\"Version\": 1, \"AccessKeyId\": \"a\", \"SecretAccessKey\": \"s\"} x'\n");
  CHECK_THAT(e.what(), Catch::Contains("not valid JSON"));
  e = failure("echo 'no credentials for you' >&2; exit 3\n");
  CHECK_THAT(e.what(), Catch::Contains("exited with status 3"));
}

TEST_CASE("profile: its keys, else its credential_process") {
  Environment env;
  const std::string process = Environment::write(
      "process-profile.sh",
      "echo '{\"Version\": 1, \"AccessKeyId\": \"AKIDPROFILEPROC\", \"SecretAccessKey\": "
      "\"s\"}'\n");
  env.set("AWS_SHARED_CREDENTIALS_FILE",
          Environment::write("credentials",
                             "[default]\naws_access_key_id = AKIDFILE\n"
                             "aws_secret_access_key = s\n"));
  env.set(
      "AWS_CONFIG_FILE",
      Environment::write("config", "[profile proc]\ncredential_process = sh " + process + "\n"));
  auto c = pksk::dynamodb::profile_credentials();
  REQUIRE(c);
  CHECK(c->access_key_id == "AKIDFILE");
  c = pksk::dynamodb::profile_credentials({.profile = {.profile = "proc"}});
  REQUIRE(c);
  CHECK(c->access_key_id == "AKIDPROFILEPROC");
  CHECK_FALSE(pksk::dynamodb::profile_credentials({.profile = {.profile = "absent"}}));

  env.set("AWS_CONFIG_FILE",
          Environment::write("config", "[profile lost]\nrole_arn = arn:aws:iam::1:role/r\n"));
  const auto e =
      error_of([] { (void)pksk::dynamodb::profile_credentials({.profile = {.profile = "lost"}}); });
  CHECK(e.code() == pksk::errc::access_denied);
  CHECK_THAT(e.what(), Catch::Contains("profile lost") &&
                           Catch::Contains("neither source_profile nor credential_source"));
}

TEST_CASE("the default chain: the SDKs' order, the first found wins, one error lists them all") {
  Environment env;
  std::vector<std::string> names;
  for (const auto& source : pksk::dynamodb::default_credential_sources())
    names.push_back(source.name);
  CHECK(names == std::vector<std::string>{"environment", "web identity", "profile default",
                                          "container", "instance metadata"});
  // A profile named: the environment's keys are not consulted, as in the SDKs.
  CHECK(pksk::dynamodb::default_credential_sources({.profile = {.profile = "p"}}).front().name ==
        "web identity");

  // Nothing anywhere: one error naming each source.
  auto e = error_of([] { (void)pksk::dynamodb::default_credentials_provider()(); });
  CHECK(e.code() == pksk::errc::access_denied);
  CHECK_THAT(e.what(),
             Catch::Contains("no AWS credentials") && Catch::Contains("environment: none") &&
                 Catch::Contains("web identity: none") &&
                 Catch::Contains("profile default: none") && Catch::Contains("container: none") &&
                 Catch::Contains("instance metadata: none"));

  // The profile's keys, then the environment's over them.
  env.set("AWS_SHARED_CREDENTIALS_FILE",
          Environment::write("credentials",
                             "[default]\naws_access_key_id = AKIDFILE\n"
                             "aws_secret_access_key = s\n"));
  CHECK(pksk::dynamodb::default_credentials_provider()().access_key_id == "AKIDFILE");
  env.set("AWS_ACCESS_KEY_ID", "AKIDENV");
  env.set("AWS_SECRET_ACCESS_KEY", "s");
  CHECK(pksk::dynamodb::default_credentials_provider()().access_key_id == "AKIDENV");

  // A source that is set up and fails stops the chain: web identity without its token file.
  env.set("AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/r");
  env.unset("AWS_ACCESS_KEY_ID");
  env.unset("AWS_SECRET_ACCESS_KEY");
  e = error_of([] { (void)pksk::dynamodb::default_credentials_provider()(); });
  CHECK(e.code() == pksk::errc::access_denied);
  CHECK_THAT(e.what(),
             Catch::Contains("web identity") && Catch::Contains("AWS_WEB_IDENTITY_TOKEN_FILE"));
}

TEST_CASE("a chain of a program's own sources: unavailable ones are passed over") {
  Environment env;
  int asked = 0;
  const auto provider = pksk::dynamodb::credentials_chain({
      {"vault",
       [&]() -> std::optional<Credentials> {
         ++asked;
         throw pksk::BackendError(pksk::errc::unavailable, "vault: sealed");
       }},
      {"nothing", [&]() -> std::optional<Credentials> { return std::nullopt; }},
      {"fixed",
       [] {
         return std::optional<Credentials>(Credentials{"AKIDFIXED", "s", ""});
       }},
  });
  CHECK(provider().access_key_id == "AKIDFIXED");
  CHECK(asked == 1);

  const auto failing = pksk::dynamodb::credentials_chain(
      {{"broken", []() -> std::optional<Credentials> { throw std::runtime_error("bad config"); }},
       {"fixed", [] {
          return std::optional<Credentials>(Credentials{"AKIDFIXED", "s", ""});
        }}});
  const auto e = error_of([&] { (void)failing(); });
  CHECK(e.code() == pksk::errc::access_denied);
  CHECK_THAT(e.what(), Catch::Contains("credential source broken: bad config"));
  CHECK(e.cause() != nullptr);

  const auto none = error_of([] {
    (void)pksk::dynamodb::credentials_chain({{"vault", []() -> std::optional<Credentials> {
                                                throw pksk::BackendError(pksk::errc::unavailable,
                                                                         "vault: sealed");
                                              }}})();
  });
  CHECK_THAT(none.what(), Catch::Contains("no AWS credentials: tried vault: vault: sealed"));
}

TEST_CASE("a Backend with neither credentials nor a provider asks the default chain") {
  Environment env;
  env.set("AWS_ACCESS_KEY_ID", "AKIDENV");
  env.set("AWS_SECRET_ACCESS_KEY", "s");
  std::vector<std::string> keys;
  std::mutex mutex;
  pksk::dynamodb::Options o;
  o.region = "eu-west-1";
  o.endpoint = "http://127.0.0.1:1";
  o.transport = [&](const HttpRequest& request) {
    const std::lock_guard lock(mutex);
    keys.push_back(signing_key(request));
    return dynamodb_answer(request);
  };
  pksk::dynamodb::Backend backend{o};
  pksk::Table table{backend, "notes"};
  table.put(Note{.id = "1", .text = "x"});
  CHECK(keys == std::vector<std::string>{"AKIDENV", "AKIDENV"});

  env.unset("AWS_ACCESS_KEY_ID");
  env.unset("AWS_SECRET_ACCESS_KEY");
  const auto e = error_of([&] { pksk::dynamodb::Backend again{o}; });
  CHECK(e.code() == pksk::errc::access_denied);
  CHECK_THAT(e.what(), Catch::Contains("no AWS credentials"));
}

// Must show: 8 threads, credentials that last 2 seconds, a provider as slow as a call to STS.
// No request is sent with expired keys, the provider is never asked by two threads at once,
// and each credentials are renewed once, when their refresh time has come (half their
// lifetime before expiry: a 2-second lifetime is shorter than the 5-minute margin). Time is
// the Backend's clock (Options::clock): each put moves it 1 ms on, the provider 50 ms, so what
// is checked does not depend on how fast the machine runs the threads.
TEST_CASE("refresh under 8 threads, 2-second credentials: none expired, one refresh per expiry",
          "[refresh]") {
  Environment env;
  constexpr auto lifetime = std::chrono::seconds(2);
  constexpr int puts_per_thread = 560;  // 8 * 560 * 1 ms: 4.48 s of the clock
  std::atomic<system_clock::rep> clock_ticks{system_clock::now().time_since_epoch().count()};
  const auto now = [&] {
    return system_clock::time_point(system_clock::duration(clock_ticks.load()));
  };
  const auto advance = [&](std::chrono::milliseconds by) {
    clock_ticks += std::chrono::duration_cast<system_clock::duration>(by).count();
  };
  std::mutex mutex;
  std::map<std::string, system_clock::time_point> expirations;  // of each key handed out
  std::optional<system_clock::time_point> previous;
  std::vector<system_clock::duration> left_at_refresh;  // of the previous keys, when renewed
  std::atomic<int> calls{0};
  std::atomic<int> asking{0};
  std::atomic<int> concurrent{0};
  pksk::dynamodb::Options o;
  o.region = "eu-west-1";
  o.endpoint = "http://127.0.0.1:1";
  o.clock = now;
  o.credentials_provider = [&] {
    if (asking.fetch_add(1) != 0) ++concurrent;
    const int n = ++calls;
    // A call to STS: the clock moves on, and the other threads have time to ask meanwhile.
    advance(std::chrono::milliseconds(50));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    Credentials c{support::numbered("AKID", n), "secret", support::numbered("token", n),
                  now() + lifetime};
    {
      const std::lock_guard lock(mutex);
      if (previous) left_at_refresh.push_back(*previous - now());
      previous = c.expiration;
      expirations[c.access_key_id] = *c.expiration;
    }
    --asking;
    return c;
  };
  std::atomic<long> requests{0};
  std::atomic<long> expired{0};
  std::atomic<long> unknown{0};
  o.transport = [&](const HttpRequest& request) {
    const std::string key = signing_key(request);
    {
      const std::lock_guard lock(mutex);
      const auto found = expirations.find(key);
      if (found == expirations.end()) {
        ++unknown;
      } else if (now() >= found->second) {
        ++expired;
      }
    }
    ++requests;
    return dynamodb_answer(request);
  };
  pksk::dynamodb::Backend backend{o};
  pksk::Table table{backend, "notes"};
  const long before = requests;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < puts_per_thread; ++i) {
        table.put(Note{.id = support::numbered("n", t * 1000000 + i), .text = "x"});
        advance(std::chrono::milliseconds(1));
      }
    });
  }
  for (auto& thread : threads) thread.join();

  INFO("requests " << requests << ", provider calls " << calls);
  CHECK(requests - before == 8 * puts_per_thread);
  CHECK(expired == 0);
  CHECK(unknown == 0);
  CHECK(concurrent == 0);
  // 4.48 s of the clock, credentials renewed each 1 s plus the 50 ms the provider takes: 5
  // calls, the first when the Backend was made (refreshes near 1.05, 2.1, 3.15 and 4.2 s). Any
  // thread asking again for credentials another had just renewed would show here, and as a
  // renewal with more than half the lifetime left.
  CHECK(calls == 5);
  const std::lock_guard lock(mutex);
  for (const auto left : left_at_refresh) {
    CHECK(left > system_clock::duration::zero());
    CHECK(left <= lifetime / 2);
  }
}

TEST_CASE("web identity: the token file exchanged with STS (moto)", "[servers]") {
  Environment env;
  env.set("AWS_WEB_IDENTITY_TOKEN_FILE", Environment::write("token", "eyJ.token.sig\n"));
  env.set("AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/pksk-web");
  env.set("AWS_ROLE_SESSION_NAME", "pksk-test");
  env.set("AWS_ENDPOINT_URL_STS", server("sts"));
  const auto c = pksk::dynamodb::web_identity_credentials({.region = "us-east-1"});
  REQUIRE(c);
  CHECK(c->access_key_id.starts_with("ASIA"));
  CHECK_FALSE(c->secret_access_key.empty());
  CHECK_FALSE(c->session_token.empty());
  CHECK(expires_between(*c, std::chrono::minutes(50), std::chrono::minutes(70)));
  // The same through the default chain, ahead of the profile's keys.
  env.set("AWS_SHARED_CREDENTIALS_FILE",
          Environment::write("credentials",
                             "[default]\naws_access_key_id = AKIDFILE\n"
                             "aws_secret_access_key = s\n"));
  CHECK(pksk::dynamodb::default_credentials_provider()().access_key_id.starts_with("ASIA"));
}

TEST_CASE("profile role_arn + source_profile: AssumeRole signed with the source's keys (moto)",
          "[servers]") {
  Environment env;
  env.set("AWS_SHARED_CREDENTIALS_FILE", Environment::write("credentials",
                                                            "[base]\naws_access_key_id = AKIDBASE\n"
                                                            "aws_secret_access_key = s\n"));
  env.set("AWS_CONFIG_FILE",
          Environment::write("config",
                             "[profile dev]\nrole_arn = arn:aws:iam::123456789012:role/dev\n"
                             "source_profile = base\nrole_session_name = pksk-dev\n"
                             "duration_seconds = 900\n"));
  std::vector<HttpRequest> sent;
  CredentialOptions options{.profile = {.profile = "dev"}, .sts_endpoint = server("sts")};
  options.transport = [&](const HttpRequest& request) {
    sent.push_back(request);
    HttpResponse response;
    pksk::dynamodb::detail::CurlHandle curl;
    curl.send(request, std::chrono::seconds(5), std::chrono::seconds(5), response);
    return response;
  };
  const auto c = pksk::dynamodb::profile_credentials(options);
  REQUIRE(c);
  CHECK(c->access_key_id.starts_with("ASIA"));
  CHECK(expires_between(*c, std::chrono::minutes(10), std::chrono::minutes(20)));  // 900 s
  REQUIRE(sent.size() == 1);
  CHECK(signing_key(sent[0]) == "AKIDBASE");
  CHECK_THAT(header(sent[0], "Authorization"), Catch::Contains("/us-east-1/sts/aws4_request"));
  CHECK_THAT(sent[0].body, Catch::Contains("Action=AssumeRole&") &&
                               Catch::Contains("RoleSessionName=pksk-dev") &&
                               Catch::Contains("DurationSeconds=900"));
}

TEST_CASE("STS refusing is errc::access_denied with STS's code and message", "[servers]") {
  Environment env;
  const auto e = error_of([] {
    (void)pksk::dynamodb::assume_role(Credentials{"AKID", "s", ""},
                                      {.role_arn = "arn:aws:iam::123456789012:role/r"},
                                      {.sts_endpoint = server("metadata") + "/sts/denied"});
  });
  CHECK(e.code() == pksk::errc::access_denied);
  CHECK_FALSE(e.retryable());
  CHECK(e.native().code == 403);
  CHECK(e.native().type == "AccessDenied");
  CHECK_THAT(e.what(), Catch::Contains("STS AssumeRole of role arn:aws:iam::123456789012:role/r") &&
                           Catch::Contains("Not authorized to perform sts:AssumeRole & more"));
  // No STS there at all: errc::unavailable, after three attempts.
  const auto down = error_of([] {
    (void)pksk::dynamodb::assume_role(Credentials{"AKID", "s", ""},
                                      {.role_arn = "arn:aws:iam::123456789012:role/r"},
                                      {.sts_endpoint = "http://127.0.0.1:9"});
  });
  CHECK(down.code() == pksk::errc::unavailable);
  CHECK_THAT(down.what(), Catch::Contains("after 3 attempts"));
}

TEST_CASE("container credentials: the endpoint with its authorization token (stub)", "[servers]") {
  Environment env;
  const std::string stub = server("metadata");
  env.set("AWS_CONTAINER_CREDENTIALS_FULL_URI", stub + "/container/good");
  env.set("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
          Environment::write("container-token", "container-token\n"));
  auto c = pksk::dynamodb::container_credentials();
  REQUIRE(c);
  CHECK(c->access_key_id == "CONTAINERAKID");
  CHECK(c->session_token == "CONTAINERTOKEN");
  CHECK(expires_between(*c, std::chrono::minutes(10), std::chrono::minutes(20)));

  // The token from the variable, when no file is named.
  env.unset("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
  env.set("AWS_CONTAINER_AUTHORIZATION_TOKEN", "container-token");
  CHECK(pksk::dynamodb::container_credentials()->access_key_id == "CONTAINERAKID");

  env.set("AWS_CONTAINER_AUTHORIZATION_TOKEN", "wrong");
  auto e = error_of([] { (void)pksk::dynamodb::container_credentials(); });
  CHECK(e.code() == pksk::errc::access_denied);
  CHECK_THAT(e.what(), Catch::Contains("container credentials") && Catch::Contains("HTTP 401"));

  env.set("AWS_CONTAINER_AUTHORIZATION_TOKEN", "container-token");
  env.set("AWS_CONTAINER_CREDENTIALS_FULL_URI", stub + "/container/malformed");
  e = error_of([] { (void)pksk::dynamodb::container_credentials(); });
  CHECK(e.code() == pksk::errc::access_denied);
  CHECK_THAT(e.what(), Catch::Contains("not valid JSON"));

  env.set("AWS_CONTAINER_CREDENTIALS_FULL_URI", stub + "/container/error500");
  CHECK(error_of([] { (void)pksk::dynamodb::container_credentials(); }).code() ==
        pksk::errc::unavailable);

  // Credentials go over plain http only to this machine or the container agents.
  env.set("AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://example.com/creds");
  e = error_of([] { (void)pksk::dynamodb::container_credentials(); });
  CHECK_THAT(e.what(), Catch::Contains("must be https"));
}

TEST_CASE("IMDSv2: a session token, then the role, then its credentials (stub)", "[servers]") {
  Environment env;
  const std::string stub = server("metadata");
  env.unset("AWS_EC2_METADATA_DISABLED");
  env.set("AWS_EC2_METADATA_SERVICE_ENDPOINT", stub + "/imds/good/");
  const auto c = pksk::dynamodb::imds_credentials();
  REQUIRE(c);
  CHECK(c->access_key_id == "IMDSAKID");
  CHECK(c->session_token == "IMDSTOKEN");
  CHECK(expires_between(*c, std::chrono::minutes(10), std::chrono::minutes(20)));
  {
    // The stub's log: the three requests, in that order (each one after the token is refused
    // by the stub without it).
    HttpRequest request{.method = "GET", .url = stub + "/log"};
    HttpResponse response;
    pksk::dynamodb::detail::CurlHandle curl;
    curl.send(request, std::chrono::seconds(5), std::chrono::seconds(5), response);
    const std::string expected =
        "PUT /imds/good/latest/api/token\n"
        "GET /imds/good/latest/meta-data/iam/security-credentials/\n"
        "GET /imds/good/latest/meta-data/iam/security-credentials/pksk-role\n";
    CHECK_THAT(response.body, Catch::Contains(expected));
  }

  env.set("AWS_EC2_METADATA_SERVICE_ENDPOINT", stub + "/imds/norole");
  CHECK_FALSE(pksk::dynamodb::imds_credentials());
  env.set("AWS_EC2_METADATA_SERVICE_ENDPOINT", stub + "/imds/malformed");
  auto e = error_of([] { (void)pksk::dynamodb::imds_credentials(); });
  CHECK(e.code() == pksk::errc::access_denied);
  CHECK_THAT(e.what(), Catch::Contains("instance metadata") &&
                           Catch::Contains("\"AccessKeyId\" is not a string"));
  env.set("AWS_EC2_METADATA_SERVICE_ENDPOINT", stub + "/imds/v1only");
  e = error_of([] { (void)pksk::dynamodb::imds_credentials(); });
  CHECK(e.code() == pksk::errc::unavailable);
  CHECK_THAT(e.what(), Catch::Contains("no IMDSv2 session token"));
  // IMDS down: unavailable, which the chain passes over and names in its error.
  env.set("AWS_EC2_METADATA_SERVICE_ENDPOINT", "http://127.0.0.1:9");
  e = error_of([] { (void)pksk::dynamodb::imds_credentials(); });
  CHECK(e.code() == pksk::errc::unavailable);
  CHECK(e.retryable());
  e = error_of([] { (void)pksk::dynamodb::default_credentials_provider()(); });
  CHECK(e.code() == pksk::errc::access_denied);
  CHECK_THAT(e.what(), Catch::Contains("instance metadata: pksk::dynamodb: instance metadata at "
                                       "http://127.0.0.1:9") &&
                           Catch::Contains("no answer"));
  env.set("AWS_EC2_METADATA_DISABLED", "true");
  CHECK_FALSE(pksk::dynamodb::imds_credentials());
}

TEST_CASE("a Backend on the container's temporary credentials, found by the default chain",
          "[servers]") {
  Environment env;
  env.set("AWS_CONTAINER_CREDENTIALS_FULL_URI", server("metadata") + "/container/good");
  env.set("AWS_CONTAINER_AUTHORIZATION_TOKEN", "container-token");
  std::vector<std::string> keys;
  std::mutex mutex;
  pksk::dynamodb::Options o;
  o.region = "eu-west-1";
  o.endpoint = "http://127.0.0.1:1";
  o.transport = [&](const HttpRequest& request) {
    const std::lock_guard lock(mutex);
    keys.push_back(signing_key(request) + " " + header(request, "X-Amz-Security-Token"));
    return dynamodb_answer(request);
  };
  pksk::dynamodb::Backend backend{o};
  pksk::Table table{backend, "notes"};
  table.put(Note{.id = "1", .text = "x"});
  CHECK(keys ==
        std::vector<std::string>{"CONTAINERAKID CONTAINERTOKEN", "CONTAINERAKID CONTAINERTOKEN"});
}
