// SPDX-License-Identifier: BSL-1.0
// Every read of a type that has no pksk::Entity specialization (query, query_page, scan,
// scan_page, each, scan_each, count and an index's query and count): the one error names the
// type read.
// expect: read_type_is_neither_an_entity_nor_an_item_collection<Note>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Note {
  std::string id;
  std::string text;
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  const pksk::PartitionKey pk{"NOTE#1"};
  const auto notes = table.query<Note>(pk);
  const auto page = table.query_page<Note>(pk, {.limit = 10});
  const auto all = table.scan<Note>();
  const auto part = table.scan_page<Note>({.segment = 0, .segments = 2});
  const auto indexed = table.index("gsi1").query<Note>(pk);
  std::size_t n = notes.size() + page.items.size() + all.size() + part.items.size();
  for (const Note& note : table.each<Note>(pk)) n += note.text.size();
  for (const Note& note : table.scan_each<Note>()) n += note.text.size();
  n += table.count<Note>(pk) + table.index("gsi1").count<Note>(pk);
  return static_cast<int>(n + indexed.size());
}
