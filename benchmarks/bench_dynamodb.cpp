// SPDX-License-Identifier: BSL-1.0
// The DynamoDB backend against hand-written code doing the same work, in one run:
//
//   BM_DynamoQuery/pksk   table.query<CustomerOrders>(pk) of a 1,000-item collection
//   BM_DynamoQuery/pksk_hook  the same, with Options::on_request set (a hook that does nothing):
//                         what measuring each request costs
//   BM_DynamoQuery/hand   the same Query requests (signed, over one reused libcurl handle)
//                         with the answer decoded by hand with simdjson On-Demand
//   BM_DynamoUpdate/pksk  table.update(order, add(&Order::total, 1.0)): one UpdateItem with
//                         ReturnValues ALL_NEW, the item as written decoded into an Order
//   BM_DynamoUpdate/pksk_hook  the same, with the hook set
//   BM_DynamoUpdate/hand  the same request body (captured from pksk once), signed and sent over
//                         one reused libcurl handle, its Attributes decoded by hand
//   BM_DecodeQuery/pksk   the bytes of that answer decoded into entities as the backend does
//                         (each item's view, then the typed decode), no network
//   BM_DecodeQuery/hand   the same bytes decoded by hand with simdjson On-Demand
//
// The two query cases need DynamoDB Local (or any endpoint): PKSK_DYNAMODB_ENDPOINT, which
// benchmarks/run_dynamodb.sh sets after starting it. Items/s are reported; the checksums of
// both sides must agree (the decode cases compare them and fail otherwise).

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <pksk/dynamodb.hpp>
#include <pksk/dynamodb/detail/response.hpp>  // the decoder it measures, with PKSK_SEPARATE_COMPILATION too
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "hand_dynamodb.hpp"
#include "model.hpp"
#include "model_entities.hpp"

namespace {

using CustomerOrders = pksk::ItemCollection<Customer, Order>;
constexpr int kOrders = 999;  // with the customer, 1,000 items

pksk::dynamodb::Options options() {
  return {.endpoint = pksk_bench::dynamodb_endpoint(),
          .region = "us-east-1",
          .credentials = pksk::dynamodb::Credentials{"pksk", "bench", ""},
          .create_missing_tables = true};
}

Order order(int i) {
  char id[32];
  std::snprintf(id, sizeof id, "2024-01-01T00:%02d:%02d.%03dZ", i / 60 % 60, i % 60, i % 1000);
  Order o{.customer_id = "42",
          .order_id = id,
          .status = i % 3 ? "shipped" : "pending",
          .total = 10.25 + i,
          .items = {{"SKU-1", 1, 9.99}, {"SKU-22", 2, 0.5}, {"SKU-333", 3, 100}}};
  if (i % 4 == 0) o.note = "leave at the door";
  return o;
}

// The order the update cases change: another customer's, so that the queries' checksums do not
// depend on how often it was updated (the cases may run interleaved).
Order updated_order() {
  Order o = order(7);
  o.customer_id = "43";
  return o;
}

pksk::dynamodb::Options hooked_options() {
  pksk::dynamodb::Options o = options();
  o.on_request = [](const pksk::dynamodb::RequestRecord& record) {
    benchmark::DoNotOptimize(record.latency);
  };
  return o;
}

// The table, filled once per process; `hooked` is the same table through a backend whose
// requests are measured (Options::on_request).
struct Fixture {
  pksk::dynamodb::Backend backend{options()};
  pksk::dynamodb::Backend hooked_backend{hooked_options()};
  std::string name = "bench_" + std::to_string(::getpid());
  pksk::Table<pksk::dynamodb::Backend> table{backend, name};
  pksk::Table<pksk::dynamodb::Backend> hooked{hooked_backend, name};
  Fixture() {
    table.put(Customer{.id = "42", .name = "Ada Lovelace", .email = "ada@example.com"});
    std::vector<Order> orders;
    for (int i = 0; i < kOrders; ++i) orders.push_back(order(i));
    table.put_all(orders);
    table.put(updated_order());  // outside the queried collection
  }
  static Fixture& get() {
    static Fixture f;
    return f;
  }
};

// ------------------------------------------------------------------------ the hand-written side

std::string_view string_of(simdjson::ondemand::value v) {
  return std::string_view(v.find_field("S").get_string().value());
}
double number_of(simdjson::ondemand::value v) {
  std::string_view text = v.find_field("N").get_string().value();
  double out = 0;
  std::from_chars(text.data(), text.data() + text.size(), out);
  return out;
}

// An item of the answer ({"pk":{"S":..},"name":{"S":..},...}) into a Customer or an Order.
void decode_item(simdjson::ondemand::object item, std::vector<std::variant<Customer, Order>>& out) {
  // The type is needed first; DynamoDB writes attributes in no fixed order.
  std::string_view type = string_of(item.find_field_unordered("type").value());
  item.reset();
  if (type == "Customer") {
    Customer& c = std::get<Customer>(out.emplace_back(std::in_place_type<Customer>));
    for (auto field : item) {
      const std::string_view key = field.unescaped_key().value();
      if (key == "id")
        c.id = string_of(field.value());
      else if (key == "name")
        c.name = string_of(field.value());
      else if (key == "email")
        c.email = string_of(field.value());
    }
    return;
  }
  Order& o = std::get<Order>(out.emplace_back(std::in_place_type<Order>));
  for (auto field : item) {
    const std::string_view key = field.unescaped_key().value();
    if (key == "customer_id")
      o.customer_id = string_of(field.value());
    else if (key == "order_id")
      o.order_id = string_of(field.value());
    else if (key == "status")
      o.status = string_of(field.value());
    else if (key == "total")
      o.total = number_of(field.value());
    else if (key == "note")
      o.note = std::string(string_of(field.value()));
    else if (key == "items") {
      for (auto element : field.value().find_field("L").get_array()) {
        LineItem& l = o.items.emplace_back();
        for (auto m : element.find_field("M").get_object()) {
          const std::string_view k = m.unescaped_key().value();
          if (k == "sku")
            l.sku = string_of(m.value());
          else if (k == "qty")
            l.qty = static_cast<int>(number_of(m.value()));
          else if (k == "price")
            l.price = number_of(m.value());
        }
      }
    }
  }
}

// A Query answer: its items decoded, and its LastEvaluatedKey's sort key ("" when none).
std::string decode_answer(simdjson::ondemand::parser& parser, std::string& body,
                          std::vector<std::variant<Customer, Order>>& out) {
  const std::size_t size = body.size();
  body.reserve(size + simdjson::SIMDJSON_PADDING);
  simdjson::ondemand::document doc = parser.iterate(body.data(), size, body.capacity());
  std::string last;
  for (auto field : doc.get_object()) {
    const std::string_view key = field.unescaped_key().value();
    if (key == "Items") {
      for (auto item : field.value().get_array()) decode_item(item.get_object(), out);
    } else if (key == "LastEvaluatedKey") {
      last = std::string(string_of(field.value().find_field_unordered("sk").value()));
    }
  }
  return last;
}

struct HandClient : pksk_bench::HandDynamoDbClient {
  simdjson::ondemand::parser parser;

  // One UpdateItem with ReturnValues ALL_NEW: its Attributes decoded into an Order.
  Order update(const std::string& json) {
    send("UpdateItem", json);
    std::vector<std::variant<Customer, Order>> out;
    const std::size_t size = body.size();
    body.reserve(size + simdjson::SIMDJSON_PADDING);
    simdjson::ondemand::document doc = parser.iterate(body.data(), size, body.capacity());
    decode_item(doc.find_field("Attributes").get_object(), out);
    return std::get<Order>(out.at(0));
  }

  // One Query request, as pksk renders it, signed, sent, and its answer decoded.
  std::string query(const std::string& table, const std::string& start,
                    std::vector<std::variant<Customer, Order>>& out) {
    std::string json =
        R"({"TableName":")" + table +
        R"(","KeyConditionExpression":"#n0 = :v0","ExpressionAttributeNames":{"#n0":"pk"},)"
        R"("ExpressionAttributeValues":{":v0":{"S":"CUSTOMER#42"}})";
    if (!start.empty()) {
      json += R"(,"ExclusiveStartKey":{"pk":{"S":"CUSTOMER#42"},"sk":{"S":")" + start + R"("}})";
    }
    json += '}';
    send("Query", std::move(json));
    return decode_answer(parser, body, out);
  }
};

std::uint64_t checksum(const std::vector<std::variant<Customer, Order>>& items) {
  bench::Checksum sum;
  for (const auto& item : items) std::visit([&](const auto& e) { sum.add(e); }, item);
  return sum.value;
}
std::uint64_t checksum(const CustomerOrders& items) {
  bench::Checksum sum;
  for (const auto& item : items) std::visit([&](const auto& e) { sum.add(e); }, item);
  return sum.value;
}

// ------------------------------------------------------------------------------------- cases

void query_through(benchmark::State& state, pksk::Table<pksk::dynamodb::Backend>& table) {
  const pksk::PartitionKey pk{"CUSTOMER#42"};
  std::uint64_t sum = 0;
  for (auto _ : state) {
    const CustomerOrders all = table.query<CustomerOrders>(pk);
    if (all.size() != kOrders + 1) state.SkipWithError("wrong number of items");
    sum = checksum(all);
    benchmark::DoNotOptimize(sum);
  }
  state.counters["checksum"] = static_cast<double>(sum);
  state.SetItemsProcessed(state.iterations() * (kOrders + 1));
}

void BM_DynamoQuery_pksk(benchmark::State& state) {
  query_through(state, Fixture::get().table);
}
BENCHMARK(BM_DynamoQuery_pksk)->Name("BM_DynamoQuery/pksk")->Unit(benchmark::kMillisecond);

void BM_DynamoQuery_pksk_hook(benchmark::State& state) {
  query_through(state, Fixture::get().hooked);
}
BENCHMARK(BM_DynamoQuery_pksk_hook)
    ->Name("BM_DynamoQuery/pksk_hook")
    ->Unit(benchmark::kMillisecond);

void BM_DynamoQuery_hand(benchmark::State& state) {
  Fixture& f = Fixture::get();
  HandClient client;
  std::uint64_t sum = 0;
  for (auto _ : state) {
    std::vector<std::variant<Customer, Order>> items;
    std::string start;
    do {
      start = client.query(f.name, start, items);
    } while (!start.empty());
    if (items.size() != kOrders + 1) state.SkipWithError("wrong number of items");
    sum = checksum(items);
    benchmark::DoNotOptimize(sum);
  }
  state.counters["checksum"] = static_cast<double>(sum);
  state.SetItemsProcessed(state.iterations() * (kOrders + 1));
}
BENCHMARK(BM_DynamoQuery_hand)->Name("BM_DynamoQuery/hand")->Unit(benchmark::kMillisecond);

// PKSK_BENCH_ITERATIONS=N runs each update case for exactly N iterations, once: under
// callgrind, the difference of two such runs (say 300 and 100) is the cost of the extra updates
// alone, without the fixture, the warm-up and Google Benchmark's own estimate runs.
void fixed_iterations(benchmark::internal::Benchmark* b) {
  if (const char* n = std::getenv("PKSK_BENCH_ITERATIONS"); n != nullptr && *n != '\0')
    b->Iterations(std::atoll(n));
}

// The body pksk sends for the update below, captured once through a recording transport.
const std::string& update_body() {
  static const std::string captured = [] {
    std::string body;
    pksk::dynamodb::Options recording = options();
    recording.create_missing_tables = false;
    recording.transport = [&](const pksk::dynamodb::HttpRequest& request) {
      for (const auto& h : request.headers) {
        if (h.value == "DynamoDB_20120810.UpdateItem") body = request.body;
      }
      if (body.empty()) {  // DescribeTable
        return pksk::dynamodb::HttpResponse{
            .status = 200,
            .body = R"({"Table":{"TableStatus":"ACTIVE","KeySchema":[)"
                    R"({"AttributeName":"pk","KeyType":"HASH"},)"
                    R"({"AttributeName":"sk","KeyType":"RANGE"}],"AttributeDefinitions":[)"
                    R"({"AttributeName":"pk","AttributeType":"S"},)"
                    R"({"AttributeName":"sk","AttributeType":"S"}]}})"};
      }
      return pksk::dynamodb::HttpResponse{.status = 200, .body = "{}"};
    };
    pksk::dynamodb::Backend backend{std::move(recording)};
    pksk::Table<pksk::dynamodb::Backend> table{backend, Fixture::get().name};
    (void)table.update(updated_order(), pksk::add(&Order::total, 1.0));
    if (body.empty()) throw std::runtime_error("no UpdateItem was sent");
    return body;
  }();
  return captured;
}

void update_through(benchmark::State& state, pksk::Table<pksk::dynamodb::Backend>& table) {
  const Order key = updated_order();
  double total = 0;
  for (auto _ : state) {
    total = table.update(key, pksk::add(&Order::total, 1.0)).total;
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_DynamoUpdate_pksk(benchmark::State& state) {
  update_through(state, Fixture::get().table);
}
BENCHMARK(BM_DynamoUpdate_pksk)
    ->Name("BM_DynamoUpdate/pksk")
    ->Unit(benchmark::kMicrosecond)
    ->Apply(fixed_iterations);

void BM_DynamoUpdate_pksk_hook(benchmark::State& state) {
  update_through(state, Fixture::get().hooked);
}
BENCHMARK(BM_DynamoUpdate_pksk_hook)
    ->Name("BM_DynamoUpdate/pksk_hook")
    ->Unit(benchmark::kMicrosecond)
    ->Apply(fixed_iterations);

void BM_DynamoUpdate_hand(benchmark::State& state) {
  (void)Fixture::get();
  const std::string& json = update_body();
  HandClient client;
  double total = 0;
  for (auto _ : state) {
    const Order written = client.update(json);
    if (written.customer_id != "43") state.SkipWithError("wrong item");
    total = written.total;
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DynamoUpdate_hand)
    ->Name("BM_DynamoUpdate/hand")
    ->Unit(benchmark::kMicrosecond)
    ->Apply(fixed_iterations);

// The bytes of the whole collection's Query answer, captured once.
const std::string& captured_answer() {
  static const std::string answer = [] {
    Fixture& f = Fixture::get();
    HandClient client;
    std::vector<std::variant<Customer, Order>> items;
    if (!client.query(f.name, "", items).empty())
      throw std::runtime_error("the collection does not fit one answer");
    return client.body;
  }();
  return answer;
}

void BM_DecodeQuery_pksk(benchmark::State& state) {
  std::string body = captured_answer();
  const pksk::backend::TableSpec spec{"t"};
  simdjson::ondemand::parser parser;
  pksk::BodyDecoder decoder;
  std::uint64_t sum = 0;
  for (auto _ : state) {
    CustomerOrders all;
    const std::size_t size = body.size();
    body.reserve(size + simdjson::SIMDJSON_PADDING);
    simdjson::ondemand::document doc = parser.iterate(body.data(), size, body.capacity());
    for (auto field : doc.get_object()) {
      if (field.unescaped_key().value() != "Items") continue;
      for (auto item : field.value().get_array()) {
        simdjson::ondemand::object object = item.get_object();
        const pksk::backend::ItemView view = pksk::dynamodb::detail::item_view(object, spec);
        pksk::backend::CollectionBuilder::append_decoded<pksk::BodyFormat::attribute_value>(
            all, view.partition_key(), view.sort_key(), view.type, view.body, decoder, view.live);
      }
    }
    sum = checksum(all);
    benchmark::DoNotOptimize(sum);
  }
  state.counters["checksum"] = static_cast<double>(sum);
  state.SetItemsProcessed(state.iterations() * (kOrders + 1));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(body.size()));
}
BENCHMARK(BM_DecodeQuery_pksk)->Name("BM_DecodeQuery/pksk");

void BM_DecodeQuery_hand(benchmark::State& state) {
  std::string body = captured_answer();
  simdjson::ondemand::parser parser;
  std::uint64_t sum = 0;
  for (auto _ : state) {
    std::vector<std::variant<Customer, Order>> items;
    decode_answer(parser, body, items);
    sum = checksum(items);
    benchmark::DoNotOptimize(sum);
  }
  state.counters["checksum"] = static_cast<double>(sum);
  state.SetItemsProcessed(state.iterations() * (kOrders + 1));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(body.size()));
}
BENCHMARK(BM_DecodeQuery_hand)->Name("BM_DecodeQuery/hand");

}  // namespace

BENCHMARK_MAIN();
