// SPDX-License-Identifier: BSL-1.0
// Golden tests: the exact DynamoDB request JSON each write renders to (PutItem, UpdateItem,
// DeleteItem, TransactWriteItems, BatchWriteItem, BatchGetItem). The HTTP transport sends these
// bytes; pinning them here keeps the contract honest before a server answers them.

#include <catch2/catch.hpp>
#include <optional>
#include <pksk/dynamodb/detail/request.hpp>
#include <pksk/entity_code.hpp>  // this file's entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <span>
#include <string>
#include <vector>

struct LineItem {
  std::string sku;
  int qty{};
  double price{};
};
struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double total{};
  std::vector<LineItem> items;
  std::optional<std::string> note;
};

struct Customer {
  std::string id;
  std::string name;
};

template <>
struct pksk::Entity<Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
};
template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};

namespace {
namespace request = pksk::dynamodb::detail;
using pksk::attr;

const pksk::backend::TableSpec spec{"shop"};

std::string av_body(const Order& o) {
  std::string body;
  pksk::encode<pksk::BodyFormat::attribute_value>(o, body);
  return body;
}

// A backend that renders each update and query as the DynamoDB backend sends it and keeps the
// JSON: what Table adds to the user's actions and options. It answers nothing else.
class RecordingBackend {
 public:
  using TableHandle = int;
  static constexpr pksk::BodyFormat body_format = pksk::BodyFormat::attribute_value;

  std::vector<std::string> updates;
  std::vector<std::string> queries;

  TableHandle open_table(const pksk::backend::TableSpec& spec) {
    spec_ = spec;
    return 0;
  }
  void update(TableHandle, const pksk::backend::UpdateRequest& r, pksk::backend::ItemVisitor) {
    updates.push_back(request::update_item(spec_, r));
  }
  bool get(TableHandle, pksk::backend::ItemKey, pksk::backend::ItemVisitor) { return false; }
  pksk::backend::QueryOutcome query(TableHandle, const pksk::backend::RawQuery& q,
                                    pksk::backend::ItemVisitor) {
    queries.push_back(request::query(spec_, q).body);
    return {};
  }
  pksk::backend::ScanOutcome scan(TableHandle, const pksk::backend::RawScan&,
                                  pksk::backend::ItemVisitor) {
    return {};
  }
  void put(TableHandle, const pksk::backend::PutRequest&) {}
  bool erase(TableHandle, const pksk::backend::EraseRequest&) { return false; }
  void transact(TableHandle, std::span<const pksk::backend::WriteRequest>) {}
  void batch_write(TableHandle, std::span<const pksk::backend::WriteRequest>,
                   std::vector<std::size_t>&) {}
  void batch_get(TableHandle, std::span<const pksk::backend::ItemKey>,
                 pksk::backend::IndexedItemVisitor, std::vector<std::size_t>&) {}

 private:
  pksk::backend::TableSpec spec_{""};
};
static_assert(pksk::Backend<RecordingBackend>);
}  // namespace

TEST_CASE("PutItem with a condition on reserved words", "[dynamodb][golden]") {
  const Order o{"123", "2020-12-06", "pending", 59.98, {{"a1", 2, 9.99}}, std::nullopt};
  const std::string body = av_body(o);
  const auto condition =
      pksk::when(attr(&Order::status) == "pending" || pksk::not_exists(attr(&Order::status)));
  const pksk::backend::PutRequest put{{"CUSTOMER#123", "#ORDER#2020-12-06", "Order", body, 0},
                                      &condition.node};
  CHECK(
      request::put_item(spec, put) ==
      R"j({"TableName":"shop","Item":{"pk":{"S":"CUSTOMER#123"},"sk":{"S":"#ORDER#2020-12-06"},)j"
      R"j("type":{"S":"Order"},"customer_id":{"S":"123"},"order_id":{"S":"2020-12-06"},)j"
      R"j("status":{"S":"pending"},"total":{"N":"59.98"},"items":{"L":[{"M":{"sku":{"S":"a1"},)j"
      R"j("qty":{"N":"2"},"price":{"N":"9.99"}}}]}},)j"
      R"j("ConditionExpression":"(#n0 = :v0) OR (attribute_not_exists(#n0))",)j"
      R"j("ExpressionAttributeNames":{"#n0":"status"},"ExpressionAttributeValues":{":v0":{"S":"pending"}}})j");
  // No condition: no expression members at all.
  const pksk::backend::PutRequest plain{{"CUSTOMER#1", "A", "Customer", "{}", 0}, nullptr};
  CHECK(
      request::put_item(spec, plain) ==
      R"j({"TableName":"shop","Item":{"pk":{"S":"CUSTOMER#1"},"sk":{"S":"A"},"type":{"S":"Customer"}}})j");
  // An item with no type (written by another program, copied by pksk-inspect) gets no type
  // attribute rather than an empty one: it reads back as it was.
  const pksk::backend::PutRequest untyped{{"P", "S", "", R"({"a":{"N":"1"}})", 0}, nullptr};
  CHECK(request::put_item(spec, untyped) ==
        R"j({"TableName":"shop","Item":{"pk":{"S":"P"},"sk":{"S":"S"},"a":{"N":"1"}}})j");
}

TEST_CASE("UpdateItem: SET, ADD, REMOVE, list_append, if_not_exists, ALL_NEW",
          "[dynamodb][golden]") {
  const std::vector<pksk::backend::UpdateAction> actions{
      pksk::set(&Order::status, "shipped").action,
      pksk::add(&Order::total, 5.0).action,
      pksk::remove(&Order::note).action,
      pksk::append(&Order::items, LineItem{"b", 1, 2.5}).action,
      pksk::if_not_exists(attr(&Order::items)[0]->*&LineItem::qty, 1).action,
  };
  const auto condition =
      pksk::when(attr(&Order::total) >= 10.0 && attr(&Order::status) != "cancelled");
  const pksk::backend::UpdateRequest update{
      {"CUSTOMER#123", "#ORDER#2020-12-06"}, "Order", actions, &condition.node};
  // Placeholders are numbered as the actions are rendered, in the order given.
  CHECK(
      request::update_item(spec, update) ==
      R"j({"TableName":"shop","Key":{"pk":{"S":"CUSTOMER#123"},"sk":{"S":"#ORDER#2020-12-06"}},)j"
      R"j("UpdateExpression":"SET #n0 = :v0, #n3 = list_append(if_not_exists(#n3, :v2), :v3), )j"
      R"j(#n3[0].#n4 = if_not_exists(#n3[0].#n4, :v4), #n5 = :v5 ADD #n1 :v1 REMOVE #n2",)j"
      R"j("ConditionExpression":"(#n1 >= :v6) AND (#n0 <> :v7)",)j"
      R"j("ExpressionAttributeNames":{"#n0":"status","#n1":"total","#n2":"note","#n3":"items",)j"
      R"j("#n4":"qty","#n5":"type"},)j"
      R"j("ExpressionAttributeValues":{":v0":{"S":"shipped"},":v1":{"N":"5"},":v2":{"L":[]},)j"
      R"j(":v3":{"L":[{"M":{"sku":{"S":"b"},"qty":{"N":"1"},"price":{"N":"2.5"}}}]},":v4":{"N":"1"},)j"
      R"j(":v5":{"S":"Order"},":v6":{"N":"10"},":v7":{"S":"cancelled"}},"ReturnValues":"ALL_NEW"})j");
}

TEST_CASE("Table's UpdateItem gives an item it creates its key members", "[dynamodb][golden]") {
  RecordingBackend backend;
  pksk::Table table{backend, "shop"};
  table.update(Order{.customer_id = "123", .order_id = "2020-12-06"},
               pksk::set(&Order::status, "shipped"));
  // Each key member where it is absent, then the user's actions, then the type.
  REQUIRE(backend.updates.size() == 1);
  CHECK(backend.updates[0] ==
        R"j({"TableName":"shop","Key":{"pk":{"S":"CUSTOMER#123"},"sk":{"S":"#ORDER#2020-12-06"}},)j"
        R"j("UpdateExpression":"SET #n0 = if_not_exists(#n0, :v0), )j"
        R"j(#n1 = if_not_exists(#n1, :v1), #n2 = :v2, #n3 = :v3",)j"
        R"j("ExpressionAttributeNames":{"#n0":"customer_id","#n1":"order_id","#n2":"status",)j"
        R"j("#n3":"type"},)j"
        R"j("ExpressionAttributeValues":{":v0":{"S":"123"},":v1":{"S":"2020-12-06"},)j"
        R"j(":v2":{"S":"shipped"},":v3":{"S":"Order"}},"ReturnValues":"ALL_NEW"})j");
}

TEST_CASE("DeleteItem with if-exists", "[dynamodb][golden]") {
  const pksk::backend::Condition exists{
      pksk::backend::Condition::Op::exists,
      {{pksk::backend::Operand::Kind::path, {{{"pk", 0, false}}}, {}}},
      {}};
  CHECK(
      request::delete_item(spec, pksk::backend::EraseRequest{{"CUSTOMER#1", "A"}, &exists}) ==
      R"j({"TableName":"shop","Key":{"pk":{"S":"CUSTOMER#1"},"sk":{"S":"A"}},)j"
      R"j("ConditionExpression":"attribute_exists(#n0)","ExpressionAttributeNames":{"#n0":"pk"},)j"
      R"j("ReturnValues":"ALL_OLD"})j");
}

TEST_CASE("TransactWriteItems: one entry per action, placeholders per action, a token",
          "[dynamodb][golden]") {
  const std::string body = av_body(Order{"1", "o1", "paid", 1.5, {}, "gift"});
  const auto paid = pksk::when(attr(&Order::status) == "paid");
  const auto in_stock = pksk::when(pksk::between(attr(&Order::total), 1.0, 2.0));
  const std::vector<pksk::backend::UpdateAction> actions{
      pksk::set(&Order::status, "shipped").action};
  const std::vector<pksk::backend::WriteRequest> writes{
      pksk::backend::PutRequest{{"CUSTOMER#1", "#ORDER#o1", "Order", body, 0}, nullptr},
      pksk::backend::UpdateRequest{{"CUSTOMER#1", "#ORDER#o0"}, "Order", actions, &paid.node},
      pksk::backend::EraseRequest{{"CUSTOMER#1", "#ORDER#old"}, nullptr},
      pksk::backend::CheckRequest{{"CUSTOMER#2", "#ORDER#o9"}, &in_stock.node},
  };
  CHECK(
      request::transact_write_items(spec, writes, "token-1") ==
      R"j({"TransactItems":[)j"
      R"j({"Put":{"TableName":"shop","Item":{"pk":{"S":"CUSTOMER#1"},"sk":{"S":"#ORDER#o1"},)j"
      R"j("type":{"S":"Order"},"customer_id":{"S":"1"},"order_id":{"S":"o1"},"status":{"S":"paid"},)j"
      R"j("total":{"N":"1.5"},"items":{"L":[]},"note":{"S":"gift"}}}},)j"
      R"j({"Update":{"TableName":"shop","Key":{"pk":{"S":"CUSTOMER#1"},"sk":{"S":"#ORDER#o0"}},)j"
      R"j("UpdateExpression":"SET #n0 = :v0, #n1 = :v1","ConditionExpression":"#n0 = :v2",)j"
      R"j("ExpressionAttributeNames":{"#n0":"status","#n1":"type"},)j"
      R"j("ExpressionAttributeValues":{":v0":{"S":"shipped"},":v1":{"S":"Order"},":v2":{"S":"paid"}}}},)j"
      R"j({"Delete":{"TableName":"shop","Key":{"pk":{"S":"CUSTOMER#1"},"sk":{"S":"#ORDER#old"}}}},)j"
      R"j({"ConditionCheck":{"TableName":"shop","Key":{"pk":{"S":"CUSTOMER#2"},"sk":{"S":"#ORDER#o9"}},)j"
      R"j("ConditionExpression":"#n0 BETWEEN :v0 AND :v1","ExpressionAttributeNames":{"#n0":"total"},)j"
      R"j("ExpressionAttributeValues":{":v0":{"N":"1"},":v1":{"N":"2"}}}}],)j"
      R"j("ClientRequestToken":"token-1"})j");
}

TEST_CASE("BatchWriteItem and BatchGetItem", "[dynamodb][golden]") {
  const std::vector<pksk::backend::WriteRequest> writes{
      pksk::backend::PutRequest{{"P", "a", "T", R"j({"x":{"N":"1"}})j", 0}, nullptr},
      pksk::backend::EraseRequest{{"P", "b"}, nullptr},
  };
  CHECK(
      request::batch_write_item(spec, writes) ==
      R"j({"RequestItems":{"shop":[{"PutRequest":{"Item":{"pk":{"S":"P"},"sk":{"S":"a"},)j"
      R"j("type":{"S":"T"},"x":{"N":"1"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"P"},"sk":{"S":"b"}}}}]}})j");
  const std::vector<pksk::backend::ItemKey> keys{{"P", "a"}, {"P", "\"quoted\""}};
  CHECK(request::batch_get_item(spec, keys) ==
        R"j({"RequestItems":{"shop":{"Keys":[{"pk":{"S":"P"},"sk":{"S":"a"}},)j"
        R"j({"pk":{"S":"P"},"sk":{"S":"\"quoted\""}}],"ConsistentRead":true}}})j");
}

TEST_CASE("Query with a key condition, a FilterExpression, a projection and paging",
          "[dynamodb][golden]") {
  const pksk::Filter filter = attr(&Order::total) > 100.0 && attr(&Order::status) != "cancelled";
  const pksk::backend::Condition condition = filter.resolve("sk", "type", "Order");
  const pksk::KeyCondition sk = pksk::begins_with("#ORDER#2020");
  const std::string_view members[] = {"order_id", "total"};
  const std::string start = "#ORDER#2020-12-06";
  const pksk::backend::RawQuery q{.pk = "CUSTOMER#123",
                                  .sk = &sk,
                                  .forward = false,
                                  .limit = 10,
                                  .exclusive_start_sk = start,
                                  .filter = &condition,
                                  .projection = members};
  const request::ReadRequest r = request::query(spec, q);
  CHECK(!r.client_filter);
  CHECK(
      r.body ==
      R"j({"TableName":"shop","KeyConditionExpression":"#n0 = :v0 AND begins_with(#n1, :v1)",)j"
      R"j("FilterExpression":"(#n2 > :v2) AND (#n3 <> :v3)",)j"
      R"j("ProjectionExpression":"#n0, #n1, #n4, #n5, #n2","Limit":10,)j"
      R"j("ExclusiveStartKey":{"pk":{"S":"CUSTOMER#123"},"sk":{"S":"#ORDER#2020-12-06"}},)j"
      R"j("ScanIndexForward":false,)j"
      R"j("ExpressionAttributeNames":{"#n0":"pk","#n1":"sk","#n2":"total","#n3":"status",)j"
      R"j("#n4":"type","#n5":"order_id"},"ExpressionAttributeValues":{":v0":{"S":"CUSTOMER#123"},)j"
      R"j(":v1":{"S":"#ORDER#2020"},":v2":{"N":"100"},":v3":{"S":"cancelled"}}})j");
}

TEST_CASE("Query of an index that projects less asks only for what it holds, and its keys",
          "[dynamodb][golden]") {
  pksk::TableOptions options;
  options.indexes = {
      pksk::TableIndex{"noted", "gsi1pk", "gsi1sk", pksk::IndexProjection::include, {"note"}}};
  const pksk::backend::TableSpec indexed{"shop", options};
  const std::string_view members[] = {"term", "note"};
  const pksk::backend::RawQuery q{.pk = "TERM#t", .projection = members, .index = "noted"};
  // No type, no term: DynamoDB refuses a projection naming what the index does not hold. The
  // term comes back from gsi1pk.
  CHECK(request::query(indexed, q).body ==
        R"j({"TableName":"shop","IndexName":"noted","KeyConditionExpression":"#n0 = :v0",)j"
        R"j("ProjectionExpression":"#n1, #n2, #n0, #n3, #n4",)j"
        R"j("ExpressionAttributeNames":{"#n0":"gsi1pk","#n1":"pk","#n2":"sk","#n3":"gsi1sk",)j"
        R"j("#n4":"note"},"ExpressionAttributeValues":{":v0":{"S":"TERM#t"}}})j");
}

TEST_CASE("Query filters on the sort key go to the client; a collection filter keeps its type",
          "[dynamodb][golden]") {
  // DynamoDB refuses a FilterExpression on a key attribute: that conjunct comes back.
  const pksk::Filter filter =
      pksk::contains(pksk::sort_key, "#inventory::") && attr(&Order::total) > 1.0;
  const pksk::backend::Condition condition = filter.resolve("sk", "type");
  const pksk::backend::RawQuery q{.pk = "CUSTOMER#123", .filter = &condition};
  const request::ReadRequest r = request::query(spec, q);
  REQUIRE(r.client_filter);
  // Eventually consistent unless asked: no ConsistentRead in the request.
  CHECK(r.body.find("ConsistentRead") == std::string::npos);
  const pksk::backend::RawQuery consistent{.pk = "CUSTOMER#1", .consistent = true};
  CHECK(request::query(spec, consistent).body ==
        R"j({"TableName":"shop","KeyConditionExpression":"#n0 = :v0","ConsistentRead":true,)j"
        R"j("ExpressionAttributeNames":{"#n0":"pk"},)j"
        R"j("ExpressionAttributeValues":{":v0":{"S":"CUSTOMER#1"}}})j");
  CHECK(pksk::backend::describe(*r.client_filter) == R"(contains(sk, "#inventory::"))");
  CHECK(r.body ==
        R"j({"TableName":"shop","KeyConditionExpression":"#n0 = :v0",)j"
        R"j("FilterExpression":"(#n1 = :v1) AND (#n2 > :v2)",)j"
        R"j("ExpressionAttributeNames":{"#n0":"pk","#n1":"type","#n2":"total"},)j"
        R"j("ExpressionAttributeValues":{":v0":{"S":"CUSTOMER#123"},":v1":{"S":"Order"},)j"
        R"j(":v2":{"N":"1"}}})j");
}

TEST_CASE("Scan of one segment with a filter", "[dynamodb][golden]") {
  const pksk::backend::Condition condition =
      pksk::Filter(attr(&Order::status) == "pending").resolve("sk", "type");
  const std::string pk = "CUSTOMER#9", sk = "A";
  const pksk::backend::RawScan s{.segment = 1,
                                 .segments = 4,
                                 .limit = 100,
                                 .exclusive_start = pksk::backend::ItemKey{pk, sk},
                                 .filter = &condition,
                                 .consistent = true};
  CHECK(request::scan(spec, s).body ==
        R"j({"TableName":"shop","FilterExpression":"(#n0 = :v0) AND (#n1 = :v1)","Limit":100,)j"
        R"j("ExclusiveStartKey":{"pk":{"S":"CUSTOMER#9"},"sk":{"S":"A"}},"Segment":1,)j"
        R"j("TotalSegments":4,"ConsistentRead":true,)j"
        R"j("ExpressionAttributeNames":{"#n0":"type","#n1":"status"},)j"
        R"j("ExpressionAttributeValues":{":v0":{"S":"Order"},":v1":{"S":"pending"}}})j");
}

TEST_CASE("TransactGetItems: a Get per key, in the order of the keys", "[dynamodb][golden]") {
  const std::vector<pksk::backend::ItemKey> keys{{"CUSTOMER#1", "A"},
                                                 {"CUSTOMER#1", "#ORDER#\"o1\""}};
  CHECK(request::transact_get_items(spec, keys) ==
        R"j({"TransactItems":[{"Get":{"TableName":"shop","Key":{"pk":{"S":"CUSTOMER#1"},)j"
        R"j("sk":{"S":"A"}}}},{"Get":{"TableName":"shop","Key":{"pk":{"S":"CUSTOMER#1"},)j"
        R"j("sk":{"S":"#ORDER#\"o1\""}}}}]})j");
}

TEST_CASE("A count-only Query is Select=COUNT, unless the client filters", "[dynamodb][golden]") {
  const std::string_view members[] = {"total"};
  const pksk::backend::RawQuery q{
      .pk = "CUSTOMER#1", .limit = 7, .projection = members, .count_only = true};
  const request::ReadRequest r = request::query(spec, q);
  CHECK(r.count);
  // No projection: DynamoDB refuses one beside Select=COUNT.
  CHECK(r.body == R"j({"TableName":"shop","KeyConditionExpression":"#n0 = :v0","Select":"COUNT",)j"
                  R"j("Limit":7,"ExpressionAttributeNames":{"#n0":"pk"},)j"
                  R"j("ExpressionAttributeValues":{":v0":{"S":"CUSTOMER#1"}}})j");
  // A filter on the sort key is the client's: the items come back to be filtered and counted.
  const pksk::backend::Condition on_sk =
      pksk::Filter(pksk::contains(pksk::sort_key, "x")).resolve("sk", "type");
  const pksk::backend::RawQuery client{.pk = "CUSTOMER#1", .filter = &on_sk, .count_only = true};
  const request::ReadRequest items = request::query(spec, client);
  CHECK_FALSE(items.count);
  REQUIRE(items.client_filter);
  CHECK(items.body.find("Select") == std::string::npos);
}

TEST_CASE("Table's count: the types counted, then the user's filter", "[dynamodb][golden]") {
  RecordingBackend backend;
  pksk::Table table{backend, "shop"};
  const pksk::PartitionKey pk{"CUSTOMER#123"};
  CHECK(table.count<Order>(pk, {.filter = attr(&Order::total) > 1.0}) == 0);
  CHECK(table.count<pksk::ItemCollection<Customer, Order>>(pk, {.limit = 5}) == 0);
  REQUIRE(backend.queries.size() == 2);
  CHECK(backend.queries[0] ==
        R"j({"TableName":"shop","KeyConditionExpression":"#n0 = :v0 AND begins_with(#n1, :v1)",)j"
        R"j("FilterExpression":"(#n2 = :v2) AND (#n3 > :v3)","Select":"COUNT",)j"
        R"j("ExpressionAttributeNames":{"#n0":"pk","#n1":"sk","#n2":"type","#n3":"total"},)j"
        R"j("ExpressionAttributeValues":{":v0":{"S":"CUSTOMER#123"},":v1":{"S":"#ORDER#"},)j"
        R"j(":v2":{"S":"Order"},":v3":{"N":"1"}}})j");
  CHECK(backend.queries[1] ==
        R"j({"TableName":"shop","KeyConditionExpression":"#n0 = :v0",)j"
        R"j("FilterExpression":"#n1 IN (:v1, :v2)","Select":"COUNT","Limit":5,)j"
        R"j("ExpressionAttributeNames":{"#n0":"pk","#n1":"type"},)j"
        R"j("ExpressionAttributeValues":{":v0":{"S":"CUSTOMER#123"},":v1":{"S":"Customer"},)j"
        R"j(":v2":{"S":"Order"}}})j");
}
