// SPDX-License-Identifier: BSL-1.0
// What each kind of write costs on DynamoDB, in capacity units, with exactly_once_writes off
// and on: the backend asks DynamoDB what each request consumed
// (Options::return_consumed_capacity), a CapacityTally sums it per write, and Options::on_request
// names the requests each write made. The table of docs/dynamodb.md ("Writes, lost answers and
// exactly once") is this program's output, on DynamoDB Local:
//   PKSK_DYNAMODB_ENDPOINT=http://127.0.0.1:8000 pksk_capacity_dynamodb

#include <cstdio>
#include <cstdlib>
#include <pksk/dynamodb.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <string>
#include <string_view>

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

using capacity::Account;

int main() {
  const char* endpoint = std::getenv("PKSK_DYNAMODB_ENDPOINT");
  if (endpoint == nullptr) {
    std::fprintf(stderr, "set PKSK_DYNAMODB_ENDPOINT\n");
    return 2;
  }
  std::string* requests = nullptr;  // the requests of the write being measured, when one is
  const auto name_request = [&](const pksk::dynamodb::RequestRecord& record) {
    if (requests == nullptr) return;
    if (!requests->empty()) *requests += " + ";
    *requests += record.operation;
  };

  std::printf("| write | exactly_once_writes | requests | write units | read units |\n");
  std::printf("|---|---|---|---|---|\n");
  for (const bool once : {false, true}) {
    pksk::dynamodb::Backend backend{
        {.endpoint = endpoint,
         .region = "us-east-1",
         .credentials = pksk::dynamodb::Credentials{"pksk", "capacity", ""},
         .create_missing_tables = true,
         .exactly_once_writes = once,
         .on_request = name_request,
         .return_consumed_capacity = pksk::dynamodb::ReturnConsumedCapacity::total}};
    pksk::Table table{backend, std::string("capacity_") + (once ? "once" : "plain")};
    const Account small{.id = "a", .balance = 10, .owner = "ada"};
    table.put(small);  // the item the others find
    const auto measure = [&](const char* what, auto&& write) {
      std::string made;
      requests = &made;
      const pksk::dynamodb::CapacityTally tally;
      write();
      requests = nullptr;
      std::printf("| %s | %s | %s | %g | %g |\n", what, once ? "on" : "off", made.c_str(),
                  tally.consumed().write_units, tally.consumed().read_units);
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
