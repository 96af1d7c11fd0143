// SPDX-License-Identifier: BSL-1.0
// An ItemCollection with a member that has no pksk::Entity specialization, queried with a
// projection and scanned: the one error names the member and the collection's members:
// expect: item_collection_member_is_not_an_entity<Note, Customer, Note>
#include <string>

#include <pksk/sqlite.hpp>

#include "shop.hpp"

struct Note {
  std::string text;
};

using CustomerNotes = pksk::ItemCollection<Customer, Note>;

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  const CustomerNotes one = table.query<CustomerNotes>(pksk::PartitionKey{"CUSTOMER#1"},
                                                       {.select = pksk::members(&Customer::name)});
  const CustomerNotes all = table.scan<CustomerNotes>();
  return static_cast<int>(one.size() + all.count<Customer>());
}
