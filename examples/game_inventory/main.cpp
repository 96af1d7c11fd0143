// SPDX-License-Identifier: BSL-1.0
// Seed 000's item collection designs for one game account and one product catalog:
//
// - A hierarchical sort key: an account, its characters' stats and their inventories in one
//   partition. One query reads the whole account, a begins_with one character, and a filter
//   that the sort key contains "#inventory::" every inventory across characters.
// - Entity-attribute-value: a product's attributes as items of their own, the sort key naming
//   the attribute, so that a product without a colour has no "color" item. The table stores no
//   type attribute: the items are told apart by their sort keys.
//
//   pk            | sk
//   account_456   | ACCOUNT#metadata
//   account_456   | CHARACTER#warrior#inventory::armor
//   product_123   | price

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Account {
  std::string account;
  int level{};
  long long xp{};
};
struct Stats {
  std::string account;
  std::string character;
  int hp{};
  int strength{};
};
struct Inventory {
  std::string account;
  std::string character;
  std::string slot;
  std::vector<std::string> items;
};

// One attribute of a product: its value is a text or a number.
struct ProductAttribute {
  std::string product;
  std::string name;
  std::optional<std::string> text;
  std::optional<double> number;
};

template <>
struct pksk::Entity<Account> {
  static constexpr std::string_view type = "Account";
  static constexpr std::string_view pk = "{account}";
  static constexpr std::string_view sk = "ACCOUNT#metadata";
};
template <>
struct pksk::Entity<Stats> {
  static constexpr std::string_view type = "Stats";
  static constexpr std::string_view pk = "{account}";
  static constexpr std::string_view sk = "CHARACTER#{character}#stats";
};
template <>
struct pksk::Entity<Inventory> {
  static constexpr std::string_view type = "Inventory";
  static constexpr std::string_view pk = "{account}";
  static constexpr std::string_view sk = "CHARACTER#{character}#inventory::{slot}";
};
template <>
struct pksk::Entity<ProductAttribute> {
  static constexpr std::string_view type = "ProductAttribute";
  static constexpr std::string_view pk = "{product}";
  static constexpr std::string_view sk = "{name}";
};

using AccountData = pksk::ItemCollection<Account, Stats, Inventory>;

void print(const AccountData& data) {
  for (const auto& item : data) {
    if (const auto* a = std::get_if<Account>(&item)) {
      std::printf("  account level %d, %lld xp\n", a->level, a->xp);
    } else if (const auto* s = std::get_if<Stats>(&item)) {
      std::printf("  %s: hp %d, strength %d\n", s->character.c_str(), s->hp, s->strength);
    } else if (const auto* i = std::get_if<Inventory>(&item)) {
      std::printf("  %s's %s:", i->character.c_str(), i->slot.c_str());
      for (const std::string& name : i->items) std::printf(" %s", name.c_str());
      std::printf("\n");
    }
  }
}

int main(int argc, char** argv) {
  pksk::sqlite::Backend backend{argc > 1 ? argv[1] : "game.db"};

  pksk::Table game{backend, "game"};
  game.put(Account{"account_456", 12, 48'200});
  game.put(Stats{"account_456", "warrior", 310, 42});
  game.put(Inventory{"account_456", "warrior", "armor", {"helmet", "chest"}});
  game.put(Inventory{"account_456", "warrior", "weapons", {"sword", "shield"}});
  game.put(Stats{"account_456", "mage", 140, 9});
  game.put(Inventory{"account_456", "mage", "armor", {"robe"}});

  const pksk::PartitionKey account{"account_456"};
  std::printf("all account data (%zu items):\n", game.query<AccountData>(account).size());
  print(game.query<AccountData>(account));
  std::printf("the warrior:\n");
  print(game.query<AccountData>(account, {.sk = pksk::begins_with("CHARACTER#warrior#")}));
  std::printf("every inventory:\n");
  print(game.query<AccountData>(
      account, {.filter = pksk::contains(pksk::sort_key, std::string("#inventory::"))}));

  // The catalog: no type attribute, an item per attribute a product has.
  pksk::Table catalog{backend, "catalog", {.type_attribute = ""}};
  catalog.put(ProductAttribute{"product_123", "name", "Laptop", std::nullopt});
  catalog.put(ProductAttribute{"product_123", "price", std::nullopt, 999.99});
  catalog.put(ProductAttribute{"product_123", "color", "silver", std::nullopt});
  catalog.put(ProductAttribute{"product_456", "name", "Mouse", std::nullopt});
  catalog.put(ProductAttribute{"product_456", "price", std::nullopt, 29.99});
  for (const char* product : {"product_123", "product_456"}) {
    std::printf("%s:", product);
    for (const ProductAttribute& a : catalog.query<ProductAttribute>(pksk::PartitionKey{product})) {
      if (a.text) std::printf(" %s=%s", a.name.c_str(), a.text->c_str());
      if (a.number) std::printf(" %s=%.2f", a.name.c_str(), *a.number);
    }
    std::printf("\n");
  }
  const auto colour = catalog.get(ProductAttribute{.product = "product_456", .name = "color"});
  std::printf("product_456 color: %s\n", colour ? colour->text->c_str() : "(none)");
}
