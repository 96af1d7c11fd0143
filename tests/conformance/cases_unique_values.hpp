// SPDX-License-Identifier: BSL-1.0
// The conformance cases of unique members with options of their own (Entity<T>::unique_values),
// included by cases.hpp: a key-text function (here lower-casing, and trimming) keys the guard,
// so values differing in case collide and a change of case of an item's own value is none; a
// member with claim_empty = false lets any number of items hold the empty string. Every write
// path keeps to it: put, upsert, update, erase, transactions, takeovers and sweep_guards.

#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

namespace conformance {

inline std::string lower_case(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
struct Trimmed {
  std::string operator()(std::string_view text) const {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    return std::string(text);
  }
};

struct SignIn {
  std::string id;
  std::string email;
  std::string alias{};
  std::string code{};  // unique with no options: "" claims a guard
};
// The same items as another tool writes them: no guards kept.
struct SignInByHand {
  std::string id;
  std::string email;
  std::string alias{};
  std::string code{};
};

template <class Table>
bool login_claims(Table& table, const SignIn& login) {
  return can_claim(table, login);
}

}  // namespace conformance

template <>
struct pksk::Entity<conformance::SignIn> {
  static constexpr std::string_view type = "SignIn";
  static constexpr std::string_view pk = "SIGNIN#{id}";
  static constexpr std::string_view sk = "A";
  static constexpr std::array unique = {"email", "alias", "code"};
  static constexpr std::tuple unique_values{
      pksk::unique_value<"email">(conformance::lower_case),
      pksk::unique_value<"alias">(conformance::Trimmed{}, {.claim_empty = false})};
};
template <>
struct pksk::Entity<conformance::SignInByHand> {
  static constexpr std::string_view type = "SignIn";
  static constexpr std::string_view pk = "SIGNIN#{id}";
  static constexpr std::string_view sk = "A";
};

namespace conformance {
template <class Table>
bool email_claimable(Table& table, const std::string& email) {
  return can_claim(table, SignIn{.id = "probe", .email = email, .code = "probe"});
}
template <class Table>
bool alias_claimable(Table& table, const std::string& alias) {
  return can_claim(table,
                   SignIn{.id = "probe", .email = "probe@x.org", .alias = alias, .code = "probe"});
}
}  // namespace conformance

TEST_CASE("unique values: emails that differ in case collide under a lower-casing key text",
          "[conformance][unique]") {
  Store store;
  auto table = make_table(store);
  table.put(SignIn{.id = "1", .email = "A@x.org", .code = "1"});
  CHECK_THROWS_MATCHES(
      table.put(SignIn{.id = "2", .email = "a@x.org", .code = "2"}), pksk::ConditionFailed,
      WhatContains<pksk::ConditionFailed>({"put SignIn", "'email'", "'a@x.org'", "another item"}));
  CHECK_FALSE(table.get(SignIn{.id = "2"}));
  CHECK_FALSE(email_claimable(table, "A@X.ORG"));

  table.put(SignIn{.id = "2", .email = "b@x.org", .code = "2"});
  CHECK_THROWS_AS(
      table.update(SignIn{.id = "2"}, pksk::set(&SignIn::email, std::string("a@X.org"))),
      pksk::ConditionFailed);
  CHECK_THROWS_AS(table.upsert(SignIn{.id = "2", .email = "A@X.org", .code = "2"}),
                  pksk::ConditionFailed);
  CHECK_THROWS_AS(table.transact().put(SignIn{.id = "3", .email = "a@x.ORG", .code = "3"}).commit(),
                  pksk::TransactionCanceled);
  CHECK(table.get(SignIn{.id = "2"})->email == "b@x.org");
  CHECK_FALSE(table.get(SignIn{.id = "3"}));

  // Erasing the holder frees the value in every case.
  CHECK(table.erase(SignIn{.id = "1"}));
  CHECK(email_claimable(table, "a@x.org"));
  table.put(SignIn{.id = "3", .email = "a@X.org", .code = "3"});
  CHECK_FALSE(email_claimable(table, "A@x.org"));
}

TEST_CASE("unique values: a change of case of an item's own value is no conflict",
          "[conformance][unique]") {
  Store store;
  auto table = make_table(store);
  table.put(SignIn{.id = "1", .email = "kim@x.org", .code = "1"});
  table.put(SignIn{.id = "1", .email = "Kim@x.org", .code = "1"});
  CHECK(table.get(SignIn{.id = "1"})->email == "Kim@x.org");
  CHECK(
      table.update(SignIn{.id = "1"}, pksk::set(&SignIn::email, std::string("KIM@x.org"))).email ==
      "KIM@x.org");
  CHECK(table.upsert(SignIn{.id = "1", .email = "kim@X.org", .code = "1"}).email == "kim@X.org");
  table.transact()
      .update(SignIn{.id = "1"}, pksk::set(&SignIn::email, std::string("Kim@X.Org")))
      .commit();
  CHECK(table.get(SignIn{.id = "1"})->email == "Kim@X.Org");
  CHECK_FALSE(email_claimable(table, "kim@x.org"));
  // One guard, moved once the key text changes.
  table.put(SignIn{.id = "1", .email = "lee@x.org", .code = "1"});
  CHECK(email_claimable(table, "kim@x.org"));
  CHECK_FALSE(email_claimable(table, "LEE@x.org"));
  // Trimming: " ada " and "ada" are one alias.
  table.put(SignIn{.id = "2", .email = "ada@x.org", .alias = " ada ", .code = "2"});
  CHECK_FALSE(alias_claimable(table, "ada"));
  table.put(SignIn{.id = "2", .email = "ada@x.org", .alias = "ada", .code = "2"});
  CHECK_FALSE(alias_claimable(table, " ada"));
}

TEST_CASE("unique values: empty values claim nothing where claim_empty is false",
          "[conformance][unique]") {
  Store store;
  auto table = make_table(store);
  table.put(SignIn{.id = "1", .email = "a@x.org", .alias = "", .code = "1"});
  table.put(SignIn{.id = "2", .email = "b@x.org", .alias = "", .code = "2"});
  table.put(SignIn{.id = "3", .email = "c@x.org", .alias = "  ", .code = "3"});  // trimmed: empty
  table.transact().put(SignIn{.id = "4", .email = "d@x.org", .code = "4"}).commit();
  table.upsert(SignIn{.id = "5", .email = "e@x.org", .code = "5"});
  // Leaving a value for the empty one releases its guard; setting one claims it.
  table.put(SignIn{.id = "6", .email = "f@x.org", .alias = "six", .code = "6"});
  table.update(SignIn{.id = "6"}, pksk::set(&SignIn::alias, std::string()));
  CHECK(alias_claimable(table, "six"));
  table.update(SignIn{.id = "1"}, pksk::set(&SignIn::alias, std::string("one")));
  CHECK_FALSE(alias_claimable(table, "one"));
  CHECK(table.erase(SignIn{.id = "2"}));

  // A member without options claims the empty string as any other value.
  table.put(SignIn{.id = "7", .email = "g@x.org", .code = ""});
  CHECK_THROWS_MATCHES(table.put(SignIn{.id = "8", .email = "h@x.org", .code = ""}),
                       pksk::ConditionFailed,
                       WhatContains<pksk::ConditionFailed>({"'code'", "another item"}));
}

TEST_CASE("unique values: takeovers and sweeps compare key texts", "[conformance][unique]") {
  Store store;
  auto table = make_table(store);
  table.put(SignIn{.id = "1", .email = "a@x.org", .code = "1"});
  // Another tool changes the case only: the owner still holds the value, in every case.
  table.put(SignInByHand{.id = "1", .email = "A@x.org", .code = "1"});
  CHECK_FALSE(email_claimable(table, "a@x.org"));
  CHECK(pksk::maintenance(table).sweep_guards() == 0);
  CHECK_FALSE(email_claimable(table, "A@X.org"));

  // Another tool changes the value: it is free to take over, in any case.
  table.put(SignInByHand{.id = "1", .email = "z@x.org", .code = "1"});
  table.put(SignIn{.id = "2", .email = "A@X.ORG", .code = "2"});
  CHECK_FALSE(email_claimable(table, "a@x.org"));

  // A sweep removes the guard of an erased owner, and keeps the others.
  table.erase(SignInByHand{.id = "2"});
  CHECK(pksk::maintenance(table).sweep_guards() == 2);  // its email's and its code's
  CHECK(email_claimable(table, "a@x.org"));
  CHECK_FALSE(can_claim(table, SignIn{.id = "probe", .email = "p@x.org", .code = "1"}));
}
