// SPDX-License-Identifier: BSL-1.0
// Every write, get and transaction action on a struct that has no pksk::Entity specialization:
// it was an overload failure naming neither the struct nor the rule; the one error names the
// type written.
//
// expect: item_type_is_not_an_entity<Note>
#include <optional>
#include <string>
#include <vector>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Note {
  std::string id;
  std::string text;
};

int main() {
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "notes"};
  Note note{.id = "1", .text = "hello"};
  const std::vector<Note> notes{note};
  table.put(note);
  table.put(note, pksk::if_absent);
  const std::optional<Note> found = table.get(note);
  const Note updated = table.update(note);
  const Note upserted = table.upsert(note);
  const bool erased = table.erase(note);
  table.put_all(notes);
  table.erase_all(notes);
  const std::vector<Note> all = table.get_all(notes);
  table.transact()
      .put(note)
      .update(note)
      .erase(note)
      .upsert(note)
      .check(note, pksk::exists)
      .commit();
  return static_cast<int>(all.size() + updated.text.size() + upserted.text.size()) +
         (found ? 1 : 0) + (erased ? 1 : 0);
}
