// SPDX-License-Identifier: BSL-1.0
#pragma once
// A lending library's two entities, shared by every file of the program. Each ends with the
// promise that its code (encoder, decoders, keys) is compiled in its own file: book.cpp and
// loan.cpp. The rest of the program calls that code out of line.

#include <pksk/pksk.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace library {

enum class Format : std::uint8_t { hardback, paperback, audio };

struct Book {
  std::string isbn;
  std::string title;
  std::vector<std::string> authors;
  Format format{};
  std::uint16_t copies{};
};

struct Loan {
  std::string isbn;
  std::string member;
  std::chrono::system_clock::time_point due;
  bool renewed{};
  std::optional<std::string> note;
};

using Shelf = pksk::ItemCollection<Book, Loan>;

}  // namespace library

template <>
struct pksk::Entity<library::Book> {
  static constexpr std::string_view type = "Book";
  static constexpr std::string_view pk = "BOOK#{isbn}";
  static constexpr std::string_view sk = "A";
};
extern template struct pksk::EntityCode<library::Book>;

template <>
struct pksk::Entity<library::Loan> {
  static constexpr std::string_view type = "Loan";
  static constexpr std::string_view pk = "BOOK#{isbn}";
  static constexpr std::string_view sk = "LOAN#{member}";
};
extern template struct pksk::EntityCode<library::Loan>;
