// SPDX-License-Identifier: BSL-1.0
// pksk-inspect copy into DynamoDB against a hand-written BatchWriteItem loop, in one run:
//
//   BM_CopyToDynamo/pksk  `pksk-inspect copy shop.db dynamodb://...` (in process, --quiet): the
//                         file's 1,000 items read, converted and written 1000 per batch,
//                         BatchWriteItem requests of 25
//   BM_CopyToDynamo/hand  the same items (as DynamoDB JSON, prepared once from the file), put by
//                         BatchWriteItem requests of 25 whose JSON this file builds, signed with
//                         pksk's SigV4 and sent over one reused libcurl handle; unprocessed items
//                         sent again
//
// Both write into DynamoDB Local: PKSK_DYNAMODB_ENDPOINT (benchmarks/run_dynamodb.sh sets it).
// Items/s are reported in real time (the writes wait on DynamoDB Local, another process); the
// ratio pksk/hand is the figure (benchmarks/README.md).

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <pksk/dynamodb.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/sqlite.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli.hpp"
#include "hand_dynamodb.hpp"
#include "model.hpp"
#include "model_entities.hpp"

namespace {

constexpr int kItems = 1000;

using pksk_bench::dynamodb_endpoint;

int inspect(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int status = pksk::inspect::run(args, out, err);
  if (status != 0) throw std::runtime_error("pksk-inspect: " + err.str());
  return status;
}

// The source file (10 customers of 99 orders each, and the customers) and the same items as
// DynamoDB JSON, one item's AttributeValue map a line, for the hand side.
struct Fixture {
  std::filesystem::path dir;
  std::string source, pksk_target, hand_table;
  std::vector<std::string> items;

  Fixture() {
    ::setenv("AWS_ACCESS_KEY_ID", "pksk", 1);
    ::setenv("AWS_SECRET_ACCESS_KEY", "bench", 1);
    dir =
        std::filesystem::temp_directory_path() / ("pksk_bench_copy_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    source = (dir / "shop.db").string();
    {
      pksk::sqlite::Backend backend{source};
      pksk::Table table{backend, "shop"};
      std::vector<bench::Order> orders;
      std::vector<bench::Customer> customers;
      for (int c = 0; c < 10; ++c) {
        customers.push_back({std::to_string(c), "Customer " + std::to_string(c), "c@example.com"});
        for (int i = 0; i < kItems / 10 - 1; ++i) {
          char id[32];
          std::snprintf(id, sizeof id, "2024-01-01T00:%02d:%02d.%03dZ", i / 60 % 60, i % 60, i);
          orders.push_back({.customer_id = std::to_string(c),
                            .order_id = id,
                            .status = i % 3 ? "shipped" : "pending",
                            .total = 10.25 + i,
                            .items = {{"SKU-1", 1, 9.99}, {"SKU-22", 2, 0.5}}});
        }
      }
      table.put_all(customers);
      table.put_all(orders);
    }
    const std::string suffix = std::to_string(::getpid());
    pksk_target = "dynamodb://bench_copy_pksk_" + suffix + "?endpoint=" + dynamodb_endpoint() +
                  "&region=us-east-1";
    hand_table = "bench_copy_hand_" + suffix;
    // The hand side's table, created as pksk-inspect creates its target.
    inspect({"copy", source,
             "dynamodb://" + hand_table + "?endpoint=" + dynamodb_endpoint() + "&region=us-east-1",
             "--quiet", "--checkpoint", (dir / "setup.checkpoint").string()});
    inspect({source, "--export", (dir / "items.json").string()});
    std::ifstream in(dir / "items.json");
    for (std::string line; std::getline(in, line);) {
      // {"Item":{...}} -> {...}
      items.push_back(line.substr(8, line.size() - 9));
    }
    if (items.size() != kItems) throw std::runtime_error("the export is not the file's items");
  }
  ~Fixture() { std::filesystem::remove_all(dir); }
  static Fixture& get() {
    static Fixture f;
    return f;
  }
};

struct HandClient : pksk_bench::HandDynamoDbClient {
  // Puts items[first, last) in one BatchWriteItem, again until none is left unprocessed.
  void batch_write(const std::string& table, const std::vector<std::string>& items,
                   std::size_t first, std::size_t last) {
    std::string json = R"({"RequestItems":{")" + table + R"(":[)";
    for (std::size_t i = first; i < last; ++i) {
      if (i != first) json += ',';
      json += R"({"PutRequest":{"Item":)";
      json += items[i];
      json += "}}";
    }
    json += "]}}";
    for (int attempt = 0;; ++attempt) {
      send("BatchWriteItem", json);
      if (body.find(R"("UnprocessedItems":{})") != std::string::npos) return;
      // Rare on DynamoDB Local: the whole request again (puts are idempotent).
      if (attempt == 10) throw std::runtime_error("items stayed unprocessed: " + body);
    }
  }
};

void BM_CopyToDynamo_pksk(benchmark::State& state) {
  Fixture& f = Fixture::get();
  const std::string checkpoint = (f.dir / "pksk.checkpoint").string();
  for (auto _ : state) {
    inspect({"copy", f.source, f.pksk_target, "--quiet", "--checkpoint", checkpoint});
  }
  state.SetItemsProcessed(state.iterations() * kItems);
}

void BM_CopyToDynamo_hand(benchmark::State& state) {
  Fixture& f = Fixture::get();
  HandClient client;
  for (auto _ : state) {
    for (std::size_t i = 0; i < f.items.size(); i += 25) {
      client.batch_write(f.hand_table, f.items, i, std::min(f.items.size(), i + 25));
    }
  }
  state.SetItemsProcessed(state.iterations() * kItems);
}

}  // namespace

BENCHMARK(BM_CopyToDynamo_pksk)
    ->Name("BM_CopyToDynamo/pksk")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_CopyToDynamo_hand)
    ->Name("BM_CopyToDynamo/hand")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK_MAIN();
