// SPDX-License-Identifier: BSL-1.0
// SigV4 against AWS's published Signature Version 4 test suite (the vectors botocore ships in
// tests/unit/auth/aws4_testsuite), the INI reading of AWS config files, and the errors of
// credential resolution. check_sigv4.py holds the signer and the resolution against botocore.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include <pksk/dynamodb/credentials.hpp>
#include <pksk/dynamodb/detail/sigv4.hpp>
#include "../support/numbered.hpp"

namespace {

using pksk::dynamodb::Credentials;
using pksk::dynamodb::detail::HttpRequest;

const Credentials example{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ""};

std::string header(const HttpRequest& request, std::string_view name) {
  for (const auto& h : request.headers) {
    if (h.name == name) return h.value;
  }
  return "<absent>";
}

std::string authorization(HttpRequest request, const Credentials& credentials = example) {
  pksk::dynamodb::detail::sign_v4(request, credentials, "us-east-1", "service", "20150830T123600Z");
  return header(request, "Authorization");
}

// Sets an environment variable for one scope, restoring what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// An environment with no AWS settings and a HOME without .aws files.
struct CleanAwsEnvironment {
  std::filesystem::path home =
      std::filesystem::temp_directory_path() / (support::numbered("pksk-sigv4-", ::getpid()));
  ScopedEnv vars[11] = {{"HOME", home.c_str()},
                        {"AWS_ACCESS_KEY_ID", nullptr},
                        {"AWS_SECRET_ACCESS_KEY", nullptr},
                        {"AWS_SESSION_TOKEN", nullptr},
                        {"AWS_SECURITY_TOKEN", nullptr},
                        {"AWS_PROFILE", nullptr},
                        {"AWS_DEFAULT_PROFILE", nullptr},
                        {"AWS_REGION", nullptr},
                        {"AWS_DEFAULT_REGION", nullptr},
                        {"AWS_SHARED_CREDENTIALS_FILE", nullptr},
                        {"AWS_CONFIG_FILE", nullptr}};
  CleanAwsEnvironment() { std::filesystem::create_directories(home / ".aws"); }
  ~CleanAwsEnvironment() { std::filesystem::remove_all(home); }
  void write(const char* file, const std::string& text) const {
    std::ofstream(home / ".aws" / file) << text;
  }
};

}  // namespace

TEST_CASE("SigV4: AWS's test suite vectors") {
  SECTION("get-vanilla") {
    CHECK(authorization({.method = "GET",
                         .url = "https://example.amazonaws.com/",
                         .headers = {{"Host", "example.amazonaws.com"}}}) ==
          "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
          "SignedHeaders=host;x-amz-date, "
          "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
  }
  SECTION("post-vanilla, the Host header taken from the URL") {
    CHECK(authorization({.method = "POST", .url = "https://example.amazonaws.com"}) ==
          "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
          "SignedHeaders=host;x-amz-date, "
          "Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");
  }
  SECTION("get-utf8: a path that is not ASCII") {
    CHECK(authorization({.method = "GET", .url = "https://example.amazonaws.com/\xE1\x88\xB4"}) ==
          "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
          "SignedHeaders=host;x-amz-date, "
          "Signature=8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85");
  }
  SECTION("post-sts-header-before: a session token is signed") {
    Credentials temporary = example;
    temporary.session_token =
        "AQoDYXdzEPT//////////"
        "wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8Y"
        "UuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDv"
        "p75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypN"
        "C9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==";
    HttpRequest request{.method = "POST", .url = "https://example.amazonaws.com/"};
    pksk::dynamodb::detail::sign_v4(request, temporary, "us-east-1", "service", "20150830T123600Z");
    CHECK(header(request, "X-Amz-Security-Token") == temporary.session_token);
    CHECK(header(request, "Authorization") ==
          "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
          "SignedHeaders=host;x-amz-date;x-amz-security-token, "
          "Signature=85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead");
  }
  SECTION("signing again replaces the date and the signature") {
    HttpRequest request{.method = "POST", .url = "https://example.amazonaws.com/"};
    pksk::dynamodb::detail::sign_v4(request, example, "us-east-1", "service", "20150830T123600Z");
    const std::string first = header(request, "Authorization");
    pksk::dynamodb::detail::sign_v4(request, example, "us-east-1", "service", "20150830T123601Z");
    CHECK(request.headers.size() == 2);
    CHECK(header(request, "X-Amz-Date") == "20150830T123601Z");
    CHECK(header(request, "Authorization") != first);
  }
}

TEST_CASE("SigV4: an endpoint that is not a URL is a ValidationError naming it") {
  CHECK_THROWS_WITH(authorization({.url = "localhost:8000"}),
                    Catch::Contains("\"localhost:8000\" is not a URL"));
  CHECK_THROWS_AS(authorization({.url = "localhost:8000"}), pksk::ValidationError);
}

TEST_CASE("AWS config files are read as botocore reads them") {
  const auto section = pksk::dynamodb::detail::parse_ini_section(
      "# comment\n[other]\nregion = x\n\n[dev]\r\nAWS_Access_Key_ID : AKID \r\n"
      "  ; indented comment\ns3 =\n  region = nested\n; comment\nregion=eu-west-1\n"
      "region = us-east-2\n[other]\nregion = y\n",
      "dev");
  REQUIRE(section);
  CHECK(section->get("aws_access_key_id") == "AKID");
  CHECK(section->get("region") == "us-east-2");
  CHECK(section->get("s3").empty());
  CHECK(section->get("absent").empty());
  CHECK_FALSE(pksk::dynamodb::detail::parse_ini_section("[dev]\nregion = x\n", "prod"));
  CHECK_FALSE(pksk::dynamodb::detail::read_ini_section("/nonexistent/pksk/config", "default"));
}

TEST_CASE("credentials: explicit, environment, profile; half of a pair is a BackendError") {
  const CleanAwsEnvironment env;
  using pksk::dynamodb::resolve_credentials;
  using pksk::dynamodb::resolve_region;

  CHECK(resolve_credentials(example).secret_access_key == example.secret_access_key);
  CHECK_THROWS_AS(resolve_credentials(Credentials{"AKID", "", ""}), pksk::BackendError);
  CHECK_THROWS_WITH(resolve_credentials(Credentials{"AKID", "", ""}),
                    Catch::Contains("a secret access key is missing") &&
                        Catch::Contains("the backend's options"));
  CHECK_THROWS_WITH(resolve_credentials(std::nullopt),
                    Catch::Contains("no AWS credentials") && Catch::Contains("profile default"));
  CHECK_THROWS_WITH(resolve_region(""), Catch::Contains("no AWS region"));
  CHECK(resolve_region("us-east-1") == "us-east-1");
  {
    const ScopedEnv key("AWS_ACCESS_KEY_ID", "AKIDENV");
    CHECK_THROWS_WITH(resolve_credentials(std::nullopt),
                      Catch::Contains("the environment") && Catch::Contains("secret access key"));
    const ScopedEnv secret("AWS_SECRET_ACCESS_KEY", "secretenv");
    const ScopedEnv token("AWS_SESSION_TOKEN", "tokenenv");
    const auto c = resolve_credentials(std::nullopt);
    CHECK(c.access_key_id == "AKIDENV");
    CHECK(c.session_token == "tokenenv");
  }
  env.write("credentials",
            "[default]\naws_access_key_id = AKIDFILE\n"
            "aws_secret_access_key = secretfile\n[dev]\naws_access_key_id = X\n");
  env.write("config", "[default]\nregion = eu-central-1\n[profile dev]\nregion = ap-south-1\n");
  CHECK(resolve_credentials(std::nullopt).access_key_id == "AKIDFILE");
  CHECK(resolve_region("") == "eu-central-1");
  CHECK(resolve_region("", {.profile = "dev"}) == "ap-south-1");
  CHECK_THROWS_WITH(resolve_credentials(std::nullopt, {.profile = "dev"}),
                    Catch::Contains("profile dev of the credentials file") &&
                        Catch::Contains("secret access key is missing"));
  const ScopedEnv region("AWS_REGION", "sa-east-1");
  CHECK(resolve_region("") == "sa-east-1");
}
