#pragma once
// An item's size as DynamoDB measures it (attribute names plus values), computed by walking the
// entity with the codec: the same figure on every backend, so that both refuse the same items
// (400 KB) and end 1 MB pages at the same key. See attribute_value.hpp for the rules.

#include <cstddef>
#include <string>
#include <string_view>

#include "attribute_value.hpp"
#include "codec.hpp"
#include "decimal.hpp"
#include "detail/json_path.hpp"
#include "detail/json_writer.hpp"

namespace pksk {

// DynamoDB's item size limit.
inline constexpr std::size_t max_item_bytes = 400 * 1024;

namespace detail {

// A codec writer that writes nothing and counts DynamoDB's bytes; it also refuses numbers
// DynamoDB cannot hold (more than 38 digits, magnitude beyond 1e126 or below 1e-130), so that
// the SQLite backend stores only what DynamoDB would.
class SizeWriter {
 public:
  static constexpr bool omits_empty_sets = true;
  std::size_t bytes = 0;

  void begin_item() {}
  void end_item() {}
  // A nested record is a map: each member costs a byte more than a top-level attribute.
  void field(std::string_view name) { bytes += name.size() + (depth_ > 0 ? 1 : 0); }
  void map_key(std::string_view key) { bytes += 1 + key.size(); }
  void element() { bytes += 1; }
  void set_element(std::string_view s) { bytes += s.size(); }

  void string(std::string_view s) { bytes += s.size(); }
  void boolean(bool) { bytes += 1; }
  void null() { bytes += 1; }
  template <class Number>
  void number(Number n) {
    char buf[64];
    const auto end = std::to_chars(buf, buf + sizeof buf, n).ptr;
    const std::string_view text(buf, static_cast<std::size_t>(end - buf));
    const Decimal::Shape shape = Decimal::shape(text);
    if (!shape.fits_dynamodb()) [[unlikely]] {
      throw_pathed("the number " + std::string(text) +
                   " is outside DynamoDB's range (38 significant digits, magnitude 1e-130 to "
                   "1e126)");
    }
    bytes += (std::max<std::size_t>(1, shape.digits) + 1) / 2 + 1;
  }
  void begin_record() {
    bytes += 3;
    ++depth_;
  }
  void end_record() { --depth_; }
  void begin_map() { bytes += 3; }
  void end_map() {}
  void begin_list() { bytes += 3; }
  void end_list() {}
  void begin_string_set() {}
  void end_string_set() {}

 private:
  int depth_ = 0;
};

}  // namespace detail

// The size of the attributes of `record` alone.
template <Reflectable T>
std::size_t attributes_size(const T& record) {
  detail::SizeWriter w;
  try {
    detail::encode_fields(w, record);
  } catch (const detail::PathedFailure& failure) {
    throw EncodeError("cannot encode " + failure.full_path() + ": " + failure.what);
  }
  return w.bytes;
}

// The whole item: its key attributes and discriminator (each a string) plus its members.
struct KeyAttributeSizes {
  std::string_view pk_name, pk;
  std::string_view sk_name, sk;
  std::string_view type_name, type;
  std::size_t total() const noexcept {
    return pk_name.size() + pk.size() + sk_name.size() + sk.size() + type_name.size() + type.size();
  }
};

template <Reflectable T>
std::size_t item_size(const KeyAttributeSizes& keys, const T& record) {
  return keys.total() + attributes_size(record);
}

}  // namespace pksk
