// SPDX-License-Identifier: BSL-1.0
#pragma once
// DynamoDB's number type: a decimal of at most 38 significant digits, compared and added
// exactly. Numbers reach pksk as text (JSON numbers in an SQLite body, {"N": "..."} from
// DynamoDB), so conditions and `add` work on that text rather than on doubles: 59.98 + 5
// must be 64.98 on SQLite as it is on DynamoDB, not 64.97999999999999.

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace pksk {

namespace backend {

// A decimal number as DynamoDB holds one (up to 38 significant digits), exact: what the SQLite
// backend computes with for ADD and compares conditions by.
class Decimal {
 public:
  // DynamoDB's limits: 38 significant digits, magnitude in [1e-130, 1e126) (1E-130 to
  // 9.9999999999999999999999999999999999999E+125): both bounds are on the most significant
  // digit, so 6.666666666666666e-121 (least significant digit at 1e-136) is held.
  static constexpr std::size_t max_digits = 38;
  static constexpr int min_exponent = -130;  // of the most significant digit
  static constexpr int max_adjusted = 125;   // of the most significant digit

  // Throws: nothing.
  // Exception safety: nothrow.
  Decimal() = default;  // zero

  // A JSON number ("-12.50", "1e+20"), or nullopt for text that is not one.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  static std::optional<Decimal> parse(std::string_view text) {
    Decimal d;
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) d.negative_ = text[i++] == '-';
    bool any_digit = false;
    bool point = false;
    long long exponent = 0;
    for (; i < text.size(); ++i) {
      const char c = text[i];
      if (c >= '0' && c <= '9') {
        any_digit = true;
        if (!(c == '0' && d.digits_.empty())) d.digits_ += c;
        if (point) --exponent;
      } else if (c == '.' && !point) {
        point = true;
      } else {
        break;
      }
    }
    if (!any_digit) return std::nullopt;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
      ++i;
      bool exponent_negative = false;
      if (i < text.size() && (text[i] == '-' || text[i] == '+'))
        exponent_negative = text[i++] == '-';
      if (i == text.size()) return std::nullopt;
      long long e = 0;
      for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        if (e < 100000) e = e * 10 + (text[i] - '0');
      }
      exponent += exponent_negative ? -e : e;
    }
    if (i != text.size()) return std::nullopt;
    // Digits dropped before the point ("0.05" keeps "5") already moved the exponent.
    d.exponent_ = static_cast<int>(std::clamp(exponent, -1000000LL, 1000000LL));
    d.normalize();
    return d;
  }

  // Significant digits and where they stand, read from number text without allocating: what
  // the item-size measure needs for every number a put writes.
  struct Shape {
    std::size_t digits = 0;  // 0 for zero
    int adjusted = 0;        // exponent of the most significant digit
    int least = 0;           // exponent of the least significant digit
    // Whether DynamoDB can store a number of this shape.
    // Throws: nothing.
    // Exception safety: nothrow.
    bool fits_dynamodb() const noexcept {
      return digits == 0 ||
             (digits <= max_digits && adjusted >= min_exponent && adjusted <= max_adjusted);
    }
  };
  // Assumes a well-formed number (as std::to_chars writes one).
  // Throws: nothing.
  // Exception safety: nothrow.
  static Shape shape(std::string_view text) noexcept {
    Shape out;
    long long point_position = 0;  // digits before the point, counted from the first nonzero
    long long first = -1, last = -1, position = 0;
    bool point = false;
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    for (; i < text.size(); ++i) {
      const char c = text[i];
      if (c == '.') {
        point = true;
        point_position = position;
        continue;
      }
      if (c < '0' || c > '9') break;
      if (c != '0') {
        if (first < 0) first = position;
        last = position;
      }
      ++position;
    }
    if (!point) point_position = position;
    long long exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
      ++i;
      const bool negative = i < text.size() && text[i] == '-';
      if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
      for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        if (exponent < 100000) exponent = exponent * 10 + (text[i] - '0');
      }
      if (negative) exponent = -exponent;
    }
    if (first < 0) return out;
    out.digits = static_cast<std::size_t>(last - first + 1);
    out.adjusted = static_cast<int>(point_position - first - 1 + exponent);
    out.least = static_cast<int>(point_position - last - 1 + exponent);
    return out;
  }

  // Whether parse would take the text, found without building the Decimal.
  // Throws: nothing.
  // Exception safety: nothrow.
  static bool well_formed(std::string_view text) noexcept {
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    bool any_digit = false;
    bool point = false;
    for (; i < text.size(); ++i) {
      if (text[i] >= '0' && text[i] <= '9') {
        any_digit = true;
      } else if (text[i] == '.' && !point) {
        point = true;
      } else {
        break;
      }
    }
    if (!any_digit) return false;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
      ++i;
      if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
      if (i == text.size()) return false;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    }
    return i == text.size();
  }

  // Whether it is zero.
  // Throws: nothing.
  // Exception safety: nothrow.
  bool is_zero() const noexcept { return digits_.empty(); }
  // Whether it is below zero.
  // Throws: nothing.
  // Exception safety: nothrow.
  bool negative() const noexcept { return negative_; }
  // How many significant digits it has (0 for zero).
  // Throws: nothing.
  // Exception safety: nothrow.
  std::size_t significant_digits() const noexcept { return digits_.size(); }

  // Whether DynamoDB can store it: 38 digits at most, magnitude within its range.
  // Throws: nothing.
  // Exception safety: nothrow.
  bool fits_dynamodb() const noexcept {
    if (is_zero()) return true;
    return digits_.size() <= max_digits && adjusted() >= min_exponent && adjusted() <= max_adjusted;
  }

  // Plain notation, no exponent: what both backends store and what decodes into any C++
  // number type whose range holds the value.
  // Throws: only std::bad_alloc.
  // Exception safety: strong.
  std::string to_string() const {
    if (is_zero()) return "0";
    std::string out;
    if (negative_) out += '-';
    if (exponent_ >= 0) {
      out += digits_;
      out.append(static_cast<std::size_t>(exponent_), '0');
    } else {
      const auto fraction = static_cast<std::size_t>(-exponent_);
      if (fraction >= digits_.size()) {
        out += "0.";
        out.append(fraction - digits_.size(), '0');
        out += digits_;
      } else {
        out.append(digits_, 0, digits_.size() - fraction);
        out += '.';
        out.append(digits_, digits_.size() - fraction);
      }
    }
    return out;
  }

  friend int compare(const Decimal& a, const Decimal& b) noexcept {
    if (a.is_zero() || b.is_zero() || a.negative_ != b.negative_) {
      const int sa = a.is_zero() ? 0 : (a.negative_ ? -1 : 1);
      const int sb = b.is_zero() ? 0 : (b.negative_ ? -1 : 1);
      return sa < sb ? -1 : (sa > sb ? 1 : 0);
    }
    const int magnitude = compare_magnitude(a, b);
    return a.negative_ ? -magnitude : magnitude;
  }
  friend bool operator==(const Decimal& a, const Decimal& b) noexcept { return compare(a, b) == 0; }

  friend Decimal operator+(const Decimal& a, const Decimal& b) {
    if (a.is_zero()) return b;
    if (b.is_zero()) return a;
    const int exponent = std::min(a.exponent_, b.exponent_);
    const std::string x =
        a.digits_ + std::string(static_cast<std::size_t>(a.exponent_ - exponent), '0');
    const std::string y =
        b.digits_ + std::string(static_cast<std::size_t>(b.exponent_ - exponent), '0');
    Decimal sum;
    sum.exponent_ = exponent;
    if (a.negative_ == b.negative_) {
      sum.negative_ = a.negative_;
      sum.digits_ = add_magnitudes(x, y);
    } else {
      const int order = compare_integers(x, y);
      if (order == 0) return Decimal{};
      sum.negative_ = order > 0 ? a.negative_ : b.negative_;
      sum.digits_ = order > 0 ? subtract_magnitudes(x, y) : subtract_magnitudes(y, x);
    }
    sum.normalize();
    return sum;
  }

 private:
  // The exponent of the most significant digit.
  int adjusted() const noexcept { return exponent_ + static_cast<int>(digits_.size()) - 1; }

  void normalize() {
    const std::size_t first = digits_.find_first_not_of('0');
    if (first == std::string::npos) {
      digits_.clear();
      negative_ = false;
      exponent_ = 0;
      return;
    }
    digits_.erase(0, first);
    const std::size_t last = digits_.find_last_not_of('0');
    exponent_ += static_cast<int>(digits_.size() - 1 - last);
    digits_.erase(last + 1);
  }

  static int compare_magnitude(const Decimal& a, const Decimal& b) noexcept {
    if (a.adjusted() != b.adjusted()) return a.adjusted() < b.adjusted() ? -1 : 1;
    const std::size_t n = std::max(a.digits_.size(), b.digits_.size());
    for (std::size_t i = 0; i < n; ++i) {
      const char x = i < a.digits_.size() ? a.digits_[i] : '0';
      const char y = i < b.digits_.size() ? b.digits_[i] : '0';
      if (x != y) return x < y ? -1 : 1;
    }
    return 0;
  }

  // Non-negative integers as digit strings without leading zeros.
  static int compare_integers(const std::string& x, const std::string& y) noexcept {
    if (x.size() != y.size()) return x.size() < y.size() ? -1 : 1;
    const int c = x.compare(y);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }

  static std::string add_magnitudes(const std::string& x, const std::string& y) {
    std::string out;
    int carry = 0;
    for (std::size_t i = 0; i < std::max(x.size(), y.size()) || carry; ++i) {
      int digit = carry;
      if (i < x.size()) digit += x[x.size() - 1 - i] - '0';
      if (i < y.size()) digit += y[y.size() - 1 - i] - '0';
      out += static_cast<char>('0' + digit % 10);
      carry = digit / 10;
    }
    std::reverse(out.begin(), out.end());
    return out;
  }

  // x >= y.
  static std::string subtract_magnitudes(const std::string& x, const std::string& y) {
    std::string out;
    int borrow = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      int digit = (x[x.size() - 1 - i] - '0') - borrow;
      if (i < y.size()) digit -= y[y.size() - 1 - i] - '0';
      borrow = digit < 0 ? 1 : 0;
      out += static_cast<char>('0' + (digit + 10) % 10);
    }
    std::reverse(out.begin(), out.end());
    return out;
  }

  bool negative_ = false;
  std::string digits_;  // significant digits, no leading or trailing zeros; empty for zero
  int exponent_ = 0;    // value = digits * 10^exponent
};

}  // namespace backend

namespace detail {

// A JSON number in plain notation ("-12.50", "3", "0.25"): sign, integer digits, fraction
// digits, no exponent. Up to 18 digits in all, so that it is exact as an integer scaled by
// 10^fraction_digits.
struct PlainNumber {
  long long scaled = 0;  // the digits as one integer, the sign applied
  int fraction_digits = 0;

  static bool read(std::string_view text, PlainNumber& out) noexcept {
    std::size_t i = 0;
    const bool negative = !text.empty() && text[0] == '-';
    if (negative) ++i;
    long long value = 0;
    int digits = 0;
    int fraction = -1;  // -1 until the point
    for (; i < text.size(); ++i) {
      const char c = text[i];
      if (c == '.' && fraction < 0) {
        fraction = 0;
        continue;
      }
      if (c < '0' || c > '9' || ++digits > 18) return false;
      value = value * 10 + (c - '0');
      if (fraction >= 0) ++fraction;
    }
    if (digits == 0) return false;
    out.scaled = negative ? -value : value;
    out.fraction_digits = fraction < 0 ? 0 : fraction;
    return true;
  }
};

// a + b in backend::Decimal::to_string's notation, computed on 64-bit integers when both are plain
// numbers of up to 18 digits each that stay within 18 digits once scaled to one point. An ADD
// to a price or a counter is that; anything else (exponents, long numbers) answers false, and
// the caller takes backend::Decimal's exact digit-string arithmetic, which gives the same text.
inline bool add_plain_numbers(std::string_view a, std::string_view b, std::string& out) {
  constexpr long long powers[] = {1,
                                  10,
                                  100,
                                  1000,
                                  10000,
                                  100000,
                                  1000000,
                                  10000000,
                                  100000000,
                                  1000000000,
                                  10000000000,
                                  100000000000,
                                  1000000000000,
                                  10000000000000,
                                  100000000000000,
                                  1000000000000000,
                                  10000000000000000,
                                  100000000000000000,
                                  1000000000000000000};
  constexpr long long limit = 1000000000000000000;  // 10^18: below it, 18 digits
  PlainNumber x, y;
  if (!PlainNumber::read(a, x) || !PlainNumber::read(b, y)) return false;
  const int fraction = std::max(x.fraction_digits, y.fraction_digits);
  const long long scale_x = powers[fraction - x.fraction_digits];
  const long long scale_y = powers[fraction - y.fraction_digits];
  if (x.scaled >= limit / scale_x || -x.scaled >= limit / scale_x || y.scaled >= limit / scale_y ||
      -y.scaled >= limit / scale_y) {
    return false;
  }
  const long long sum = x.scaled * scale_x + y.scaled * scale_y;  // |sum| < 2 * 10^18
  unsigned long long magnitude =
      sum < 0 ? 0ULL - static_cast<unsigned long long>(sum) : static_cast<unsigned long long>(sum);
  int kept = fraction;  // fraction digits left once trailing zeros are dropped
  while (kept > 0 && magnitude % 10 == 0) {
    magnitude /= 10;
    --kept;
  }
  // Written from the end of a buffer, then assigned at once: `out` may be where `a` was read
  // from (an ADD applied in place), and one assign costs less than a push_back per digit.
  char text[24];
  char* at = text + sizeof text;
  int n = 0;
  do {
    if (n == kept && kept > 0) *--at = '.';
    *--at = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
    ++n;
  } while (magnitude != 0 || n <= kept);  // "0.05": the integer part and leading zeros
  if (sum < 0) *--at = '-';
  out.assign(at, static_cast<std::size_t>(text + sizeof text - at));
  return true;
}

}  // namespace detail

}  // namespace pksk
