// SPDX-License-Identifier: BSL-1.0
// A log line for each request the DynamoDB backend sends, as a service writes to its log
// (Options::on_request): the operation, the table, the milliseconds it took with its retries,
// how often it was sent, the capacity DynamoDB says it consumed, and DynamoDB's error; then what
// the whole unit of work consumed (CapacityTally). On the endpoint PKSK_DYNAMODB_ENDPOINT names
// (DynamoDB Local's, say), with credentials and region as the AWS SDKs find them.

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <pksk/dynamodb.hpp>

struct Customer {
  std::string id;
  std::string name;
};

struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double total{};
};

template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};

template <>
struct pksk::Entity<Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
};

namespace {

// One line per request in logfmt (key=value pairs, which log pipelines index). Called on the
// thread that made the call, from every thread that does: printf writes a line at a time.
void log_request(const pksk::dynamodb::RequestRecord& r) {
  char capacity[32] = "-";
  if (r.consumed_capacity) {
    std::snprintf(capacity, sizeof capacity, "%.1f", r.consumed_capacity->units);
  }
  // DynamoDB's error type when it answered with one; else pksk's code (a timeout, say).
  std::string error = "-";
  if (r.error != pksk::errc{}) {
    error = r.error_type.empty() ? make_error_code(r.error).message() : std::string(r.error_type);
  }
  std::printf("dynamodb op=%.*s table=%.*s ms=%.2f attempts=%d capacity=%s error=%s\n",
              static_cast<int>(r.operation.size()), r.operation.data(),
              static_cast<int>(r.table.size()), r.table.data(),
              std::chrono::duration<double, std::milli>(r.latency).count(), r.attempts, capacity,
              error.c_str());
}

}  // namespace

int main() {
  const char* endpoint = std::getenv("PKSK_DYNAMODB_ENDPOINT");
  if (endpoint == nullptr || *endpoint == '\0') {
    std::fprintf(stderr, "set PKSK_DYNAMODB_ENDPOINT to a DynamoDB endpoint\n");
    return 2;
  }
  // A service finds its table made by its deployment; this setup step stands in for that.
  {
    pksk::dynamodb::Backend setup{{.endpoint = endpoint, .create_missing_tables = true}};
    pksk::Table created{setup, "request_logging"};
  }

  pksk::dynamodb::Backend backend{
      {.endpoint = endpoint,
       .on_request = log_request,
       .return_consumed_capacity = pksk::dynamodb::ReturnConsumedCapacity::total}};
  pksk::Table table{backend, "request_logging"};  // DescribeTable: checks its key schema

  const pksk::dynamodb::CapacityTally tally;  // what this thread's requests consume from here
  table.put(Customer{.id = "42", .name = "Ada Lovelace"});
  std::vector<Order> orders;
  for (const char* day : {"2024-03-01", "2024-03-02", "2024-03-03"}) {
    orders.push_back({.customer_id = "42", .order_id = day, .status = "pending", .total = 20});
  }
  table.put_all(orders);
  (void)table.get(Customer{.id = "42"});
  (void)table.update(orders[0], pksk::set(&Order::status, std::string("shipped")));
  const auto collection =
      table.query<pksk::ItemCollection<Customer, Order>>(pksk::partition(Customer{.id = "42"}));
  try {
    table.put(Customer{.id = "42", .name = "Someone Else"}, pksk::if_absent);
  } catch (const pksk::ConditionFailed&) {
    std::printf("customer 42 exists: not replaced\n");
  }
  table.transact()
      .update(orders[1], pksk::set(&Order::status, std::string("shipped")))
      .update(orders[2], pksk::set(&Order::status, std::string("shipped")))
      .commit();
  (void)table.erase(orders[0]);
  std::printf("%zu items read; %.1f capacity units (%.1f read, %.1f write) in %d requests\n",
              collection.size(), tally.consumed().units, tally.consumed().read_units,
              tally.consumed().write_units, tally.requests());
}
