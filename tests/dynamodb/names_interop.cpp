// SPDX-License-Identifier: BSL-1.0
// pksk's half of the stored-names interop test (check_names_interop.py drives it with boto3):
//
//   names_interop write <endpoint> <table>   creates the table (PK, SK, Type) and writes seed
//                                             004's customer 123 and its orders
//   names_interop read <endpoint> <table>    reads customer 456's collection, which boto3 wrote,
//                                             and prints every item typed, one line each
//   names_interop write_blobs <endpoint> <table>   creates a table keyed by PK alone and writes
//                                             blob b1: binary, number and binary sets, a NULL
//   names_interop read_blobs <endpoint> <table>    reads blobs b2 and b3, which boto3 wrote
//   names_interop write_numbers <endpoint> <table> creates a table whose sort key is a number
//                                             (SK RANGE N) and writes two events of stream s1
//   names_interop read_numbers <endpoint> <table>  reads stream s1, boto3's events with pksk's,
//                                             in numeric order, and a range of it
//   names_interop create_terms <endpoint> <table>  creates a table with a KEYS_ONLY index
//   names_interop read_terms <endpoint> <table>    reads the enrolments boto3 wrote through that
//                                             index and from the table
//
// The entities store their attributes in PascalCase, one renamed, as a DynamoDB user's table
// names them.

#include <cstddef>
#include <cstdint>
#include <iostream>
#include <map>
#include <optional>
#include <pksk/dynamodb.hpp>
#include <pksk/entity_code.hpp>  // the entities' code, with PKSK_SEPARATE_COMPILATION too
#include <pksk/pksk.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Address {
  std::string street_name;
  int zip_code{};
};
struct Customer {
  std::string id;
  std::string full_name;
  std::string email;
};
struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double amount{};
  std::optional<std::string> gift_note;
  std::set<std::string> labels;
  std::vector<std::string> skus;
  std::map<std::string, int> quantities;
  long long item_count{};
  bool paid{};
  Address ship_to;
};

// An item of a table keyed by its partition key alone, with DynamoDB's binary and set types.
struct Blob {
  std::string id;
  std::vector<std::uint8_t> data;
  std::set<double> readings;
  std::set<std::vector<std::byte>> chunks;
  std::optional<std::string> note;
};

// An event of a stream, numbered: a table whose sort key is a number (RANGE N).
struct Event {
  std::string stream;
  std::int32_t seq{};
  std::string kind;
};

// An enrolment whose term, grade and credits another tool keeps in its index keys alone.
struct Enrolment {
  std::string course;
  std::string student;
  std::string term;
  std::string grade;
  std::int32_t credits{};
  std::string advisor;
};

}  // namespace

template <>
struct pksk::Entity<Event> {
  static constexpr std::string_view type = "Event";
  static constexpr std::string_view pk = "STREAM#{stream}";
  static constexpr std::string_view sk = "{seq:number}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
};

template <>
struct pksk::Entity<Enrolment> {
  static constexpr std::string_view type = "Enrolment";
  static constexpr std::string_view pk = "COURSE#{course}";
  static constexpr std::string_view sk = "STUDENT#{student}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array indexes = {
      pksk::Index{"lean", "TERM#{term}", "GRADE#{grade}#{credits}#{student}"}};
};

template <>
struct pksk::Entity<Blob> {
  static constexpr std::string_view type = "Blob";
  static constexpr std::string_view pk = "BLOB#{id}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr bool empty_optional_as_null = true;
};

template <>
struct pksk::Attributes<Address> {
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
};
template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"id", "CustomerId"}};
};
template <>
struct pksk::Entity<Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
  static constexpr pksk::Case attribute_case = pksk::Case::pascal;
  static constexpr std::array renames = {pksk::Rename{"amount", "Total"},
                                         pksk::Rename{"gift_note", "Gift Note"}};
};

namespace {

pksk::dynamodb::Options options(std::string endpoint) {
  return {.endpoint = std::move(endpoint),
          .region = "us-east-1",
          .credentials = pksk::dynamodb::Credentials{"pksk", "interop", ""},
          .create_missing_tables = true};
}

pksk::TableOptions classic() {
  return {.pk_attribute = "PK", .sk_attribute = "SK", .type_attribute = "Type"};
}

void write(pksk::dynamodb::Backend& backend, const std::string& name) {
  pksk::Table table{backend, name, classic()};
  table.put(Customer{.id = "123", .full_name = "Ada Lovelace", .email = "ada@example.com"});
  for (const char* id : {"2020-11-25", "2020-12-01", "2020-12-06"}) {
    table.put(Order{.customer_id = "123",
                    .order_id = id,
                    .status = "shipped",
                    .amount = 59.98,
                    .gift_note = std::nullopt,
                    .labels = {},
                    .skus = {},
                    .quantities = {},
                    .item_count = 0,
                    .paid = false,
                    .ship_to = {}});
  }
  table.put(Order{.customer_id = "123",
                  .order_id = "2020-12-07",
                  .status = "pending",
                  .amount = 12.5,
                  .gift_note = "for you",
                  .labels = {"gift", "rush"},
                  .skus = {"sku-1", "sku-2"},
                  .quantities = {{"sku-1", 2}},
                  .item_count = 3,
                  .paid = true,
                  .ship_to = {"Rue de Rivoli", 75001}});
}

void read(pksk::dynamodb::Backend& backend, const std::string& name) {
  pksk::Table table{backend, name, classic()};
  using CustomerOrders = pksk::ItemCollection<Customer, Order>;
  const auto all = table.query<CustomerOrders>(pksk::partition(Customer{.id = "456"}));
  for (const auto& item : all) {
    if (const auto* c = std::get_if<Customer>(&item)) {
      std::cout << "Customer " << c->id << " " << c->full_name << " " << c->email << "\n";
    } else {
      const auto& o = std::get<Order>(item);
      std::cout << "Order " << o.customer_id << " " << o.order_id << " " << o.status << " "
                << o.amount << " note=" << o.gift_note.value_or("-") << " labels=";
      for (const std::string& l : o.labels) std::cout << l << ";";
      std::cout << " skus=";
      for (const std::string& s : o.skus) std::cout << s << ";";
      std::cout << " quantities=";
      for (const auto& [sku, n] : o.quantities) std::cout << sku << ":" << n << ";";
      std::cout << " items=" << o.item_count << " paid=" << o.paid
                << " ship_to=" << o.ship_to.street_name << "," << o.ship_to.zip_code << "\n";
    }
  }
  std::cout << "unknown " << all.unknown().size() << "\n";
}

pksk::TableOptions unsorted() {
  return {.pk_attribute = "PK", .sk_attribute = "", .type_attribute = "Type"};
}

void write_blobs(pksk::dynamodb::Backend& backend, const std::string& name) {
  pksk::Table table{backend, name, unsorted()};
  table.put(Blob{.id = "b1",
                 .data = {1, 2, 255},
                 .readings = {1.5, -2},
                 .chunks = {std::vector<std::byte>{std::byte{0}},
                            std::vector<std::byte>{std::byte{7}, std::byte{8}}},
                 .note = std::nullopt});
}

void read_blobs(pksk::dynamodb::Backend& backend, const std::string& name) {
  pksk::Table table{backend, name, unsorted()};
  for (const char* id : {"b2", "b3"}) {
    const std::optional<Blob> blob = table.get(Blob{.id = id});
    if (!blob) {
      std::cout << id << " missing\n";
      continue;
    }
    std::cout << blob->id << " data=";
    for (const std::uint8_t b : blob->data) std::cout << int{b} << ";";
    std::cout << " readings=";
    for (const double r : blob->readings) std::cout << r << ";";
    std::cout << " chunks=";
    for (const auto& chunk : blob->chunks) {
      for (const std::byte b : chunk) std::cout << std::to_integer<int>(b) << ",";
      std::cout << ";";
    }
    std::cout << " note=" << blob->note.value_or("-") << "\n";
  }
}

pksk::TableOptions numbered() {
  return {.pk_attribute = "PK",
          .sk_attribute = "SK",
          .sk_type = pksk::KeyType::number,
          .type_attribute = "Type"};
}

void write_numbers(pksk::dynamodb::Backend& backend, const std::string& name) {
  pksk::Table table{backend, name, numbered()};
  table.put(Event{.stream = "s1", .seq = 42, .kind = "opened"});
  table.put(Event{.stream = "s1", .seq = -7, .kind = "created"});
}

void read_numbers(pksk::dynamodb::Backend& backend, const std::string& name) {
  pksk::Table table{backend, name, numbered()};
  const pksk::PartitionKey s1 = pksk::partition(Event{.stream = "s1"});
  for (const Event& e : table.query<Event>(s1)) {
    std::cout << e.stream << " " << e.seq << " " << e.kind << "\n";
  }
  std::cout << "between 0 and 50:";
  using Seq = pksk::sort_key_of<Event>;
  for (const Event& e : table.query<Event>(s1, {.sk = Seq::between<&Event::seq>(0, 50)})) {
    std::cout << " " << e.seq;
  }
  std::cout << "\n";
}

pksk::TableOptions with_terms() {
  pksk::TableOptions options = classic();
  options.indexes = {
      pksk::TableIndex{"lean", "GSI1PK", "GSI1SK", pksk::IndexProjection::keys_only}};
  return options;
}

void create_terms(pksk::dynamodb::Backend& backend, const std::string& name) {
  const pksk::Table table{backend, name, with_terms()};
}

void print(std::string_view how, const Enrolment& e) {
  std::cout << how << " " << e.course << " " << e.student << " " << e.term << " " << e.grade << " "
            << e.credits << " advisor=" << e.advisor << "\n";
}

void read_terms(pksk::dynamodb::Backend& backend, const std::string& name) {
  pksk::Table table{backend, name, with_terms()};
  const auto term = pksk::partition<"lean">(Enrolment{.term = "2027-spring"});
  for (const Enrolment& e : table.index("lean").query<Enrolment>(term)) {
    print("lean", e);
    print("get", table.get(Enrolment{.course = e.course, .student = e.student}).value());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: names_interop write|read|write_blobs|read_blobs|write_numbers|"
                 "read_numbers|create_terms|read_terms <endpoint> <table>\n";
    return 2;
  }
  try {
    pksk::dynamodb::Backend backend{options(argv[2])};
    const std::string_view command = argv[1];
    if (command == "write") {
      write(backend, argv[3]);
    } else if (command == "read") {
      read(backend, argv[3]);
    } else if (command == "write_blobs") {
      write_blobs(backend, argv[3]);
    } else if (command == "read_blobs") {
      read_blobs(backend, argv[3]);
    } else if (command == "write_numbers") {
      write_numbers(backend, argv[3]);
    } else if (command == "read_numbers") {
      read_numbers(backend, argv[3]);
    } else if (command == "create_terms") {
      create_terms(backend, argv[3]);
    } else if (command == "read_terms") {
      read_terms(backend, argv[3]);
    } else {
      std::cerr << "unknown command " << command << "\n";
      return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << "names_interop: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
