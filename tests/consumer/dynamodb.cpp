// SPDX-License-Identifier: BSL-1.0
// Builds against the installed pksk::dynamodb: its headers and libcurl come with the target.
// Constructing a Backend opens no connection, so this runs without a server.

#include <iostream>
#include <pksk/dynamodb.hpp>

int main() {
  pksk::dynamodb::Backend backend{{.endpoint = "http://127.0.0.1:8000",
                                   .region = "us-east-1",
                                   .credentials = pksk::dynamodb::Credentials{"id", "secret", ""}}};
  std::cout << backend.endpoint() << ' ' << backend.region() << '\n';
  return backend.region() == "us-east-1" ? 0 : 1;
}
