// SPDX-License-Identifier: BSL-1.0
#pragma once
// credential_process: a command run with /bin/sh (popen), its standard output read as the JSON
// of the AWS CLI's external credential process protocol, version 1.

#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "../../../error.hpp"
#include "../detail/json.hpp"
#include "../sources.hpp"

namespace pksk::dynamodb {

PKSK_DECL Credentials process_credentials(const std::string& command) {
  const std::string what = "pksk::dynamodb: credential_process `" + command + "`";
  std::fflush(nullptr);  // what the program wrote before is not written twice by the child
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) throw BackendError(errc::access_denied, what + ": cannot be started");
  std::string output;
  char buffer[4096];
  constexpr std::size_t most = 1 << 20;  // a megabyte: far more than any credentials
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    if (output.size() < most) output.append(buffer, n);
  }
  const int status = ::pclose(pipe);
  if (status == -1) throw BackendError(errc::access_denied, what + ": cannot be waited for");
  if (WIFSIGNALED(status)) {
    throw BackendError(errc::access_denied,
                       what + ": killed by signal " + std::to_string(WTERMSIG(status)));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw BackendError(errc::access_denied, what + ": exited with status " +
                                                std::to_string(WEXITSTATUS(status)) +
                                                " (its standard error says why)");
  }
  if (output.size() >= most) throw BackendError(errc::access_denied, what + ": printed too much");
  return detail::credentials_from_json(
      output, {.token_key = "SessionToken", .versioned = true, .coded = false}, what);
}

}  // namespace pksk::dynamodb
