#pragma once
// What Table derives from an entity to write it: its version member (optimistic locking), which
// members its keys are built from (an update may not touch them), and the conditions a write
// carries, combined into one tree.

#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../expr/attr.hpp"
#include "../../expr/expression.hpp"
#include "../../key/entity.hpp"
#include "../../key/key.hpp"
#include "../../reflect/reflect.hpp"

namespace pksk {

// An entity that declares `static constexpr std::string_view version = "rev";` (an integer
// member) has it checked and incremented on every write.
template <class T>
concept VersionedEntity = EntityType<T> && requires {
  { Entity<T>::version } -> std::convertible_to<std::string_view>;
};

namespace detail {

template <class T>
struct version_member_not_found {
  static_assert(field_index<T>(Entity<T>::version) < field_count_v<T>,
                "pksk: Entity<T>::version names no member of the entity (see T)");
  static constexpr std::size_t index = field_index<T>(Entity<T>::version);
};

template <VersionedEntity T>
inline constexpr std::size_t version_index_v = version_member_not_found<T>::index;

template <VersionedEntity T>
using version_type_t = field_type_t<T, version_index_v<T>>;

inline AttributePath top_level(std::string_view name) {
  return AttributePath{{{std::string(name), 0, false}}};
}

// The pieces of one write's condition, joined with AND.
class ConditionParts {
 public:
  void add(Condition c) { parts_.push_back(std::move(c)); }
  void item_absent(std::string_view pk_attribute) {
    add({Condition::Op::not_exists, {path_operand(top_level(pk_attribute))}, {}});
  }
  void item_present(std::string_view pk_attribute) {
    add({Condition::Op::exists, {path_operand(top_level(pk_attribute))}, {}});
  }
  // Optimistic locking: the stored version must be the one the caller read (0: a new item).
  template <std::integral V>
  void version_is(std::string_view pk_attribute, std::string_view version_member, V expected) {
    if (expected == 0) {
      item_absent(pk_attribute);
    } else {
      add({Condition::Op::eq,
           {path_operand(top_level(version_member)),
            value_operand(AttributeValue::from_number(std::to_string(expected)))},
           {}});
    }
  }
  std::optional<Condition> combined() && {
    if (parts_.empty()) return std::nullopt;
    if (parts_.size() == 1) return std::move(parts_.front());
    return Condition{Condition::Op::all, {}, std::move(parts_)};
  }

 private:
  std::vector<Condition> parts_;
};

}  // namespace detail
}  // namespace pksk
