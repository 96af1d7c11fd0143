// SPDX-License-Identifier: BSL-1.0
// A lending library built the separate way: PKSK_SEPARATE_COMPILATION in every file, pksk's own
// code compiled once in pksk.cpp, each entity's in its own file (book.cpp, loan.cpp). This file
// includes no JSON reader and no <sqlite3.h>, and calls Book's and Loan's code out of line.

#include <pksk/sqlite.hpp>

#include <chrono>
#include <cstdio>
#include <string>

#include "library.hpp"

using library::Book;
using library::Loan;

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "library.db";
  pksk::sqlite::Backend backend{path};
  pksk::Table table{backend, "library"};

  using namespace std::chrono_literals;
  const auto day = std::chrono::sys_days{std::chrono::year{2024} / 3 / 1};
  table.put(Book{.isbn = "978-0262033848",
                 .title = "Introduction to Algorithms",
                 .authors = {"Cormen", "Leiserson", "Rivest", "Stein"},
                 .format = library::Format::hardback,
                 .copies = 2});
  table.put(Loan{.isbn = "978-0262033848", .member = "ada", .due = day + 14 * 24h});
  table.put(Loan{.isbn = "978-0262033848", .member = "alan", .due = day + 21 * 24h});
  table.update(Loan{.isbn = "978-0262033848", .member = "ada"}, pksk::set(&Loan::renewed, true),
               pksk::set(&Loan::note, std::string("renewed at the desk")));

  const auto shelf = table.query<library::Shelf>(pksk::partition(Book{.isbn = "978-0262033848"}));
  const Book* book = shelf.first<Book>();
  std::printf("%s, %zu authors, %u copies\n", book->title.c_str(), book->authors.size(),
              static_cast<unsigned>(book->copies));
  for (const Loan& loan : shelf.items<Loan>()) {
    const auto days = std::chrono::duration_cast<std::chrono::days>(loan.due - day).count();
    std::printf("  on loan to %s, due in %lld days%s%s\n", loan.member.c_str(),
                static_cast<long long>(days), loan.renewed ? ", renewed" : "",
                loan.note ? (": " + *loan.note).c_str() : "");
  }
  std::printf("%zu of %u copies out\n", shelf.count<Loan>(), static_cast<unsigned>(book->copies));
  try {
    table.put(Loan{.isbn = "978-0262033848", .member = "ada"}, pksk::if_absent);
  } catch (const pksk::ConditionFailed& e) {
    std::printf("a second loan to ada: %s\n", e.code().message().c_str());
  }
}
