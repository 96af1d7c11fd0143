// SPDX-License-Identifier: BSL-1.0
// A ticket sale on one table: events, their seat inventory, tickets and attendees.
//
//   PK              | SK               | Type      | tix (index)                   | refunds
//   (index) EVENT#jazz      | EVENT            | Event     |                               |
//   EVENT#jazz      | INVENTORY        | Inventory |                               |
//   EVENT#jazz      | TICKET#ada       | Ticket    | ATTENDEE#ada / TICKET#jazz    | only once
//   asked ATTENDEE#ada    | PROFILE          | Attendee  | ATTENDEE#ada / PROFILE        |
//
// - A sale is a transaction: the inventory's count goes up only while seats are left, and the
//   ticket is written only if the attendee has none yet. Six buyers at once, four seats: four
//   tickets, two refusals, never a fifth.
// - The event's description is versioned: a clerk's write from a stale copy fails, carrying
//   the newer copy, which the clerk's change is merged into.
// - An attendee's profile and tickets live in different partitions of the table (the tickets
//   under their events) and in one partition of the index "tix": one query reads them together.
// - A refund request makes a ticket appear in the sparse index "refunds" (an optional member of
//   its key): the event's refund desk reads only those.

#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Event {
  std::string event;
  std::string name;
  std::string venue;
  int rev{};
};
struct Inventory {
  std::string event;
  int capacity{};
  int left{};  // seats for sale
};
struct Ticket {
  std::string event;
  std::string attendee;
  double price{};
  std::optional<std::string> refund;  // the day a refund was asked for
};
struct Attendee {
  std::string attendee;
  std::string name;
};

template <>
struct pksk::Entity<Event> {
  static constexpr std::string_view type = "Event";
  static constexpr std::string_view pk = "EVENT#{event}";
  static constexpr std::string_view sk = "EVENT";
  static constexpr std::string_view version = "rev";
};
template <>
struct pksk::Entity<Inventory> {
  static constexpr std::string_view type = "Inventory";
  static constexpr std::string_view pk = "EVENT#{event}";
  static constexpr std::string_view sk = "INVENTORY";
};
template <>
struct pksk::Entity<Ticket> {
  static constexpr std::string_view type = "Ticket";
  static constexpr std::string_view pk = "EVENT#{event}";
  static constexpr std::string_view sk = "TICKET#{attendee}";
  static constexpr std::array indexes = {
      pksk::Index{"tix", "ATTENDEE#{attendee}", "TICKET#{event}"},
      pksk::Index{"refunds", "REFUNDS#{event}", "{refund}#{attendee}"}};
};
template <>
struct pksk::Entity<Attendee> {
  static constexpr std::string_view type = "Attendee";
  static constexpr std::string_view pk = "ATTENDEE#{attendee}";
  static constexpr std::string_view sk = "PROFILE";
  static constexpr std::array indexes = {pksk::Index{"tix", "ATTENDEE#{attendee}", "PROFILE"}};
};

using Tables = pksk::Table<pksk::sqlite::Backend>;

// One seat for `who`, or false when the event is sold out (or they hold a ticket already).
bool buy(Tables& table, const std::string& event, const std::string& who, double price) {
  try {
    table.transact()
        .update(Inventory{.event = event}, pksk::add(&Inventory::left, -1),
                pksk::when(pksk::attr(&Inventory::left) > 0))
        .put(Ticket{.event = event, .attendee = who, .price = price}, pksk::if_absent)
        .commit();
    return true;
  } catch (const pksk::TransactionCanceled&) {
    return false;
  }
}

// The clerk's change, made to the copy they read; on a stale copy, made again to the newer one.
void rename(Tables& table, Event copy, const std::string& name) {
  for (;;) {
    copy.name = name;
    try {
      table.put(copy, pksk::return_stored_on_failure);
      return;
    } catch (const pksk::ConditionFailed& e) {
      if (e.stored() == nullptr) throw;
      copy = pksk::decode_body<Event>(*e.stored());
      std::printf("stale copy: rev %d is stored (venue %s); renaming that one\n", copy.rev,
                  copy.venue.c_str());
    }
  }
}

int main(int argc, char** argv) {
  pksk::sqlite::Backend backend{argc > 1 ? argv[1] : "ticketing.db"};
  Tables table{backend, "ticketing", {.indexes = {"tix", "refunds"}}};

  for (const std::string who : {"ada", "bob", "fay"}) {
    table.put(Attendee{.attendee = who, .name = "Ms " + who});
  }
  table.put(Event{.event = "jazz", .name = "Jazz night", .venue = "Hall A"});
  table.put(Inventory{.event = "jazz", .capacity = 4, .left = 4});
  table.put(Event{.event = "opera", .name = "Tosca", .venue = "Opera house"});
  table.put(Inventory{.event = "opera", .capacity = 100, .left = 100});

  // The sale: six buyers at once for four seats.
  const std::vector<std::string> buyers{"gus", "hal", "ivy", "jo", "kim", "lu"};
  std::vector<char> bought(buyers.size());
  {
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < buyers.size(); ++i) {
      threads.emplace_back([&, i] { bought[i] = buy(table, "jazz", buyers[i], 25.0); });
    }
    for (std::thread& t : threads) t.join();
  }
  int sold = 0;
  for (char b : bought) sold += b;
  const Inventory jazz = *table.get(Inventory{.event = "jazz"});
  const auto tickets = table.query<Ticket>(pksk::partition(Event{.event = "jazz"}));
  std::printf("jazz: %d of %d seats sold, %zu tickets, %zu buyers turned away\n",
              jazz.capacity - jazz.left, jazz.capacity, tickets.size(),
              buyers.size() - static_cast<std::size_t>(sold));
  std::printf("ada, for the sold-out jazz night: %s\n",
              buy(table, "jazz", "ada", 25.0) ? "sold" : "refused");
  buy(table, "opera", "ada", 80.0);
  buy(table, "opera", "bob", 80.0);
  std::printf("bob, a second ticket for the opera: %s\n",
              buy(table, "opera", "bob", 80.0) ? "sold" : "refused");

  // Two clerks read the event; one moves it, the other renames it from the older copy.
  const Event first = *table.get(Event{.event = "jazz"});
  Event moved = first;
  moved.venue = "Hall B";
  table.put(moved);
  rename(table, first, "Late jazz night");
  const Event now = *table.get(Event{.event = "jazz"});
  std::printf("jazz is now '%s' in %s, rev %d\n", now.name.c_str(), now.venue.c_str(), now.rev);

  // Everything of one attendee, through the index: the profile and the tickets of every event.
  for (const std::string who : {"ada", "bob", "fay"}) {
    const auto mine = table.index("tix").query<pksk::ItemCollection<Attendee, Ticket>>(
        pksk::partition<"tix">(Attendee{.attendee = who}));
    std::printf("%s:", mine.first<Attendee>()->name.c_str());
    for (const Ticket& t : mine.items<Ticket>()) std::printf(" %s", t.event.c_str());
    std::printf(mine.count<Ticket>() == 0 ? " no tickets\n" : "\n");
  }

  // Refunds: a ticket is in the refunds index only while a refund is asked for.
  const auto refund_desk = [&](const std::string& event) {
    std::printf("refunds asked for %s:", event.c_str());
    for (const Ticket& t :
         table.index("refunds").query<Ticket>(pksk::partition<"refunds">(Ticket{.event = event}))) {
      std::printf(" %s (%s)", t.attendee.c_str(), t.refund->c_str());
    }
    std::printf("\n");
  };
  refund_desk("opera");
  table.update(Ticket{.event = "opera", .attendee = "bob"},
               pksk::set(&Ticket::refund, std::string("2026-11-21")));
  table.update(Ticket{.event = "opera", .attendee = "ada"},
               pksk::set(&Ticket::refund, std::string("2026-11-22")));
  refund_desk("opera");
  // bob changes his mind: no refund after all, and his ticket leaves the index.
  table.update(Ticket{.event = "opera", .attendee = "bob"}, pksk::remove(&Ticket::refund));
  // ada's is refunded: the ticket is removed (and returned), and its seat goes back on sale.
  const std::optional<Ticket> refunded =
      table.erase(Ticket{.event = "opera", .attendee = "ada"}, pksk::return_old);
  const Inventory opera = table.update(Inventory{.event = "opera"}, pksk::add(&Inventory::left, 1));
  std::printf("refunded ada %.2f; opera seats left %d\n", refunded->price, opera.left);
  refund_desk("opera");
}
