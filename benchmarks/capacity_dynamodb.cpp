// SPDX-License-Identifier: BSL-1.0
// What each kind of write costs on DynamoDB, in capacity units, with exactly_once_writes off
// and on: every request the backend sends is sent with ReturnConsumedCapacity=TOTAL (added to
// its body and signed again by the transport below), and the units DynamoDB reports are summed
// per write. The table of docs/guide.md ("What a write costs") is this program's output, on
// DynamoDB Local: PKSK_DYNAMODB_ENDPOINT=http://127.0.0.1:8000 pksk_capacity_dynamodb

#include <cstdio>
#include <cstdlib>
#include <map>
#include <pksk/dynamodb.hpp>
#include <pksk/dynamodb/detail/http.hpp>  // libcurl and SigV4, with PKSK_SEPARATE_COMPILATION too
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capacity {
struct Account {
  std::string id;
  long long balance{};
  std::string owner;
};
}  // namespace capacity

template <>
struct pksk::Entity<capacity::Account> {
  static constexpr std::string_view type = "Account";
  static constexpr std::string_view pk = "ACCOUNT#{id}";
  static constexpr std::string_view sk = "A";
};

namespace {

using capacity::Account;

struct Tally {
  double read = 0;
  double write = 0;
  int requests = 0;
  std::string operations;
};

// Sums "ReadCapacityUnits" and "WriteCapacityUnits" in an answer (a TransactWriteItems answer
// holds one ConsumedCapacity per table; a GetItem's, CapacityUnits alone counts as read).
double sum_of(std::string_view body, std::string_view field) {
  double sum = 0;
  for (std::size_t at = body.find(field); at != std::string_view::npos;
       at = body.find(field, at + 1)) {
    sum += std::strtod(std::string(body.substr(at + field.size() + 1, 32)).c_str(), nullptr);
  }
  return sum;
}

}  // namespace

int main() {
  const char* endpoint = std::getenv("PKSK_DYNAMODB_ENDPOINT");
  if (endpoint == nullptr) {
    std::fprintf(stderr, "set PKSK_DYNAMODB_ENDPOINT\n");
    return 2;
  }
  const pksk::dynamodb::Credentials keys{"pksk", "capacity", ""};
  Tally* current = nullptr;
  pksk::dynamodb::detail::CurlHandle http;
  const auto transport = [&](const pksk::dynamodb::HttpRequest& given) {
    pksk::dynamodb::HttpRequest request = given;
    std::string operation;
    for (const auto& h : request.headers) {
      if (h.name == "X-Amz-Target") operation = h.value.substr(h.value.find('.') + 1);
    }
    const bool measured = current != nullptr && operation != "DescribeTable";
    if (measured) {
      request.body.pop_back();  // the closing brace
      request.body += R"(,"ReturnConsumedCapacity":"TOTAL"})";
      pksk::dynamodb::detail::sign_v4(
          request, keys, "us-east-1", "dynamodb",
          pksk::dynamodb::detail::amz_timestamp(std::chrono::system_clock::now()));
    }
    pksk::dynamodb::HttpResponse response;
    http.send(request, std::chrono::seconds(3), std::chrono::seconds(10), response);
    if (measured && response.status == 200) {
      const double write = sum_of(response.body, "\"WriteCapacityUnits\"");
      const double read = sum_of(response.body, "\"ReadCapacityUnits\"");
      const double total = sum_of(response.body, "\"CapacityUnits\"");
      current->write += write;
      current->read += read + (write == 0 && read == 0 && operation == "GetItem" ? total : 0);
      if (write == 0 && read == 0 && operation != "GetItem") current->write += total;
      ++current->requests;
      current->operations += (current->operations.empty() ? "" : " + ") + operation;
    }
    return response;
  };

  std::printf("| write | exactly_once_writes | requests | write units | read units |\n");
  std::printf("|---|---|---|---|---|\n");
  for (const bool once : {false, true}) {
    pksk::dynamodb::Backend backend{{.endpoint = endpoint,
                                     .region = "us-east-1",
                                     .credentials = keys,
                                     .transport = transport,
                                     .create_missing_tables = true,
                                     .exactly_once_writes = once}};
    pksk::Table table{backend, std::string("capacity_") + (once ? "once" : "plain")};
    const Account small{.id = "a", .balance = 10, .owner = "ada"};
    table.put(small);  // the item the others find
    const auto measure = [&](const char* what, auto&& write) {
      Tally tally;
      current = &tally;
      write();
      current = nullptr;
      std::printf("| %s | %s | %s | %g | %g |\n", what, once ? "on" : "off",
                  tally.operations.c_str(), tally.write, tally.read);
    };
    measure("put", [&] { table.put(small); });
    measure("conditional put (if_absent)",
            [&] { table.put(Account{.id = "b", .owner = "bob"}, pksk::if_absent); });
    measure("update (add)", [&] { (void)table.update(small, pksk::add(&Account::balance, 1LL)); });
    measure("erase", [&] { (void)table.erase(Account{.id = "b"}); });
    table.put(Account{.id = "c", .owner = "cy"});
    measure("conditional erase (when)", [&] {
      (void)table.erase(Account{.id = "c"}, pksk::when(pksk::attr(&Account::owner) == "cy"));
    });
    measure("transaction of 10 puts", [&] {
      auto tx = table.transact();
      for (int i = 0; i < 10; ++i) tx.put(Account{.id = "t" + std::to_string(i), .owner = "t"});
      tx.commit();
    });
  }
  return 0;
}
