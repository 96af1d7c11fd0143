// SPDX-License-Identifier: BSL-1.0
// A member of a type whose pksk::Value specialisation has `to` but no `from`.
//
// Public API only, as a user writes it. CheckCompileFail.cmake requires exactly one `error:`
// line, on g++-12 and clang++-16 alike, and that it contain the rule registered in
// CompileFail.cmake and every `expect:` text below.
// expect: Money
#include <cstdint>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Money {
  std::int64_t cents{};
};

template <>
struct pksk::Value<Money> {
  static std::int64_t to(const Money& m) { return m.cents; }
};

struct Order {
  std::string id;
  Money total;
  Money tax;
};

template <>
struct pksk::Entity<Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "ORDER#{id}";
  static constexpr std::string_view sk = "A";
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  table.put(Order{.id = "o1"});
  (void)table.get(Order{.id = "o1"});
  (void)table.update(Order{.id = "o1"}, pksk::set(&Order::total, Money{5}));
}
