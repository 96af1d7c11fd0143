// SPDX-License-Identifier: BSL-1.0
// An item collection whose members share partitions only in an index ("tix"), queried on the
// table, where their partition keys differ in shape: the query could only ever find the items
// of one of them. Reading it on the index compiles; on the table, one error names the members
// and their table templates.
//
// expect: item_collection_members_have_different_partition_key_shapes<Attendee,
// expect: {"ATTENDEE#{attendee}"}, Pass,
// expect: {"EVENT#{event}"}>
#include <string>

#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

struct Attendee {
  std::string attendee;
};
struct Pass {
  std::string event;
  std::string pass;
  std::string attendee;
};

template <>
struct pksk::Entity<Attendee> {
  static constexpr std::string_view type = "Attendee";
  static constexpr std::string_view pk = "ATTENDEE#{attendee}";
  static constexpr std::string_view sk = "PROFILE";
  static constexpr std::array indexes = {pksk::Index{"tix", "ATTENDEE#{attendee}", "PROFILE"}};
};
template <>
struct pksk::Entity<Pass> {
  static constexpr std::string_view type = "Pass";
  static constexpr std::string_view pk = "EVENT#{event}";
  static constexpr std::string_view sk = "PASS#{pass}";
  static constexpr std::array indexes = {pksk::Index{"tix", "ATTENDEE#{attendee}", "PASS#{pass}"}};
};

int main() {
  pksk::sqlite::Backend db(":memory:");
  pksk::Table table(db, "tickets", {.indexes = {"tix"}});
  const pksk::PartitionKey ada = pksk::partition(Attendee{.attendee = "ada"});
  (void)table.index("tix").query<pksk::ItemCollection<Attendee, Pass>>(ada);  // fine
  return static_cast<int>(table.query<pksk::ItemCollection<Attendee, Pass>>(ada).size());
}
