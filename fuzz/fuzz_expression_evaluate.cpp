// SPDX-License-Identifier: BSL-1.0
// Fuzz target: the expression evaluator (evaluate, apply), which the SQLite backend runs on every
// stored item a condition, a filter or an update touches, and the renderers the DynamoDB
// backend sends.
//
// The input is split into a stored body (plain JSON, as a SQLite file holds it, possibly edited
// by hand) and a byte stream that builds a random condition tree and update actions over paths
// into that item. Properties:
// - a body either parses or throws DecodeError; evaluating never throws; apply throws only
//   ValidationError; rendering never throws;
// - NOT inverts, a == b equals b == a, a < b equals b > a, a <= b equals b >= a, a <> b is
//   not a == b, exists and not_exists disagree;
// - after a successful SET of a value, the path equals it (unless it appended past a list's
//   end); after REMOVE of a member, it does not exist;
// - an updated item written as plain JSON parses back equal to itself.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include <pksk/pksk.hpp>

#include "fuzz_entities.hpp"

namespace {

constexpr std::string_view names[] = {"a", "b", "items", "qty", "tags", "x"};

// A string as the typed front end lets through: valid UTF-8 (the codec refuses the rest).
std::string random_string(FuzzedDataProvider& in, std::size_t max_length) {
  std::string s = in.ConsumeRandomLengthString(max_length);
  s.resize(std::min(s.size(), pksk::detail::find_invalid_utf8(s)));
  return s;
}

pksk::backend::AttributePath random_path(FuzzedDataProvider& in, const pksk::AttributeValue& item) {
  pksk::backend::AttributePath path;
  // The first step names an attribute of the item when there is one, so paths reach real data.
  if (!item.map.empty() && in.ConsumeBool()) {
    path.steps.push_back(
        {item.map[in.ConsumeIntegralInRange<std::size_t>(0, item.map.size() - 1)].first, 0, false});
  } else {
    path.steps.push_back({std::string(in.PickValueInArray(names)), 0, false});
  }
  const std::size_t more = in.ConsumeIntegralInRange<std::size_t>(0, 3);
  for (std::size_t i = 0; i < more; ++i) {
    if (in.ConsumeBool()) {
      path.steps.push_back({"", in.ConsumeIntegralInRange<std::size_t>(0, 3), true});
    } else {
      path.steps.push_back({std::string(in.PickValueInArray(names)), 0, false});
    }
  }
  return path;
}

// A number as the typed front end makes them: valid decimal text within DynamoDB's range.
pksk::AttributeValue random_number(FuzzedDataProvider& in) {
  const std::string text = in.ConsumeRandomLengthString(24);
  const auto decimal = pksk::backend::Decimal::parse(text);
  if (!decimal || !decimal->fits_dynamodb()) {
    return pksk::AttributeValue::from_number(std::to_string(in.ConsumeIntegral<std::int16_t>()));
  }
  return pksk::AttributeValue::from_number(decimal->to_string());
}

pksk::AttributeValue random_value(FuzzedDataProvider& in, int depth = 0) {
  switch (in.ConsumeIntegralInRange(0, depth < 2 ? 6 : 3)) {
    case 0:
      return pksk::AttributeValue::null_value();
    case 1:
      return pksk::AttributeValue::from_bool(in.ConsumeBool());
    case 2:
      return random_number(in);
    case 3:
      return pksk::AttributeValue::from_string(random_string(in, 16));
    case 4: {
      auto list = pksk::AttributeValue::empty_list();
      const auto n = in.ConsumeIntegralInRange(0, 3);
      for (int i = 0; i < n; ++i) list.list.push_back(random_value(in, depth + 1));
      return list;
    }
    case 5: {
      auto map = pksk::AttributeValue::empty_map();
      const auto n = in.ConsumeIntegralInRange(0, 3);
      for (int i = 0; i < n; ++i) {
        map.assign(in.PickValueInArray(names), random_value(in, depth + 1));
      }
      return map;
    }
    default: {
      std::vector<std::string> strings;
      const auto n = in.ConsumeIntegralInRange(1, 3);
      for (int i = 0; i < n; ++i) strings.push_back(random_string(in, 8));
      return pksk::AttributeValue::from_set(std::move(strings));
    }
  }
}

pksk::backend::Operand path_operand(pksk::backend::AttributePath path) {
  pksk::backend::Operand operand;
  operand.kind = pksk::backend::Operand::Kind::path;
  operand.path = std::move(path);
  return operand;
}

pksk::backend::Operand random_operand(FuzzedDataProvider& in, const pksk::AttributeValue& item) {
  pksk::backend::Operand operand;
  switch (in.ConsumeIntegralInRange(0, 2)) {
    case 0:
      return path_operand(random_path(in, item));
    case 1:
      operand.kind = pksk::backend::Operand::Kind::size;
      operand.path = random_path(in, item);
      return operand;
    default:
      operand.value = random_value(in);
      return operand;
  }
}

pksk::backend::Condition binary(pksk::backend::Condition::Op op, pksk::backend::Operand a,
                                pksk::backend::Operand b) {
  pksk::backend::Condition c;
  c.op = op;
  c.operands = {std::move(a), std::move(b)};
  return c;
}

pksk::backend::Condition random_condition(FuzzedDataProvider& in, const pksk::AttributeValue& item,
                                          int depth = 0) {
  using Op = pksk::backend::Condition::Op;
  pksk::backend::Condition c;
  const int last = depth < 3 ? 14 : 11;
  switch (in.ConsumeIntegralInRange(0, last)) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:  // eq ne lt le gt ge
      return binary(static_cast<Op>(static_cast<int>(Op::eq) + in.ConsumeIntegralInRange(0, 5)),
                    random_operand(in, item), random_operand(in, item));
    case 6:
      c.op = Op::between;
      c.operands = {random_operand(in, item), random_operand(in, item), random_operand(in, item)};
      return c;
    case 7: {
      c.op = Op::in;
      c.operands.push_back(random_operand(in, item));
      const int n = in.ConsumeIntegralInRange(1, 4);
      for (int i = 0; i < n; ++i) c.operands.push_back(random_operand(in, item));
      return c;
    }
    case 8:
      return binary(Op::begins_with, path_operand(random_path(in, item)), random_operand(in, item));
    case 9:
      return binary(Op::contains, path_operand(random_path(in, item)), random_operand(in, item));
    case 10:
      c.op = Op::exists;
      c.operands.push_back(path_operand(random_path(in, item)));
      return c;
    case 11:
      c.op = Op::not_exists;
      c.operands.push_back(path_operand(random_path(in, item)));
      return c;
    case 12:
      c.op = Op::negate;
      c.children.push_back(random_condition(in, item, depth + 1));
      return c;
    default: {
      c.op = in.ConsumeBool() ? Op::all : Op::any;
      const int n = in.ConsumeIntegralInRange(1, 3);
      for (int i = 0; i < n; ++i) c.children.push_back(random_condition(in, item, depth + 1));
      return c;
    }
  }
}

bool evaluates(const pksk::backend::Condition& c, const pksk::AttributeValue& item) {
  try {
    return pksk::backend::evaluate(c, item);
  } catch (const std::exception& e) {
    fuzz::fail("evaluate threw", std::string(pksk::backend::describe(c)) + ": " + e.what());
  }
}

void check_condition(const pksk::backend::Condition& c, const pksk::AttributeValue& item) {
  using Op = pksk::backend::Condition::Op;
  const bool holds = evaluates(c, item);
  pksk::backend::Condition negated;
  negated.op = Op::negate;
  negated.children.push_back(c);
  if (evaluates(negated, item) == holds)
    fuzz::fail("NOT does not invert", pksk::backend::describe(c));

  pksk::backend::ExpressionPlaceholders placeholders;
  (void)pksk::backend::render_condition(c, placeholders);

  if (c.operands.size() != 2 || static_cast<int>(c.op) > static_cast<int>(Op::ge)) return;
  const auto swapped = [&](Op op) { return binary(op, c.operands[1], c.operands[0]); };
  const auto same = [&](Op op) { return binary(op, c.operands[0], c.operands[1]); };
  switch (c.op) {
    case Op::eq:
      if (evaluates(swapped(Op::eq), item) != holds)
        fuzz::fail("= is not symmetric", pksk::backend::describe(c));
      if (evaluates(same(Op::ne), item) == holds)
        fuzz::fail("<> is not NOT =", pksk::backend::describe(c));
      break;
    case Op::lt:
      if (evaluates(swapped(Op::gt), item) != holds)
        fuzz::fail("a < b is not b > a", pksk::backend::describe(c));
      break;
    case Op::le:
      if (evaluates(swapped(Op::ge), item) != holds)
        fuzz::fail("a <= b is not b >= a", pksk::backend::describe(c));
      break;
    default:
      break;
  }
}

void check_update(FuzzedDataProvider& in, pksk::AttributeValue& item) {
  using Kind = pksk::backend::UpdateAction::Kind;
  pksk::backend::UpdateAction action;
  action.kind = static_cast<Kind>(in.ConsumeIntegralInRange(0, 4));
  action.path = random_path(in, item);
  switch (action.kind) {
    case Kind::add:
      action.value = in.ConsumeBool() ? random_number(in)
                                      : pksk::AttributeValue::from_set({random_string(in, 8)});
      break;
    case Kind::append:
      action.value = pksk::AttributeValue::empty_list();
      action.value.list.push_back(random_value(in));
      break;
    default:
      action.value = random_value(in);
      break;
  }
  // SET past a list's end appends (as in DynamoDB), so the value lands at another index.
  pksk::backend::Condition existed;
  existed.op = pksk::backend::Condition::Op::exists;
  existed.operands.push_back(path_operand(action.path));
  const bool appends = action.path.steps.back().is_index && !evaluates(existed, item);

  pksk::AttributeValue updated = item;
  try {
    pksk::backend::apply(action, updated);
  } catch (const pksk::ValidationError&) {
    return;
  } catch (const std::exception& e) {
    fuzz::fail("apply threw other than ValidationError", e.what());
  }
  std::vector<pksk::backend::UpdateAction> actions{action};
  pksk::backend::ExpressionPlaceholders placeholders;
  (void)pksk::backend::render_update(actions, placeholders);

  if (action.kind == Kind::set && !appends) {
    pksk::backend::Operand value;
    value.value = action.value;
    if (!evaluates(binary(pksk::backend::Condition::Op::eq, path_operand(action.path), value),
                   updated))
      fuzz::fail("after SET the path does not equal the value", action.path.to_string());
  }
  // REMOVE of a list element shifts the later ones down, so only a member must be gone.
  if (action.kind == Kind::remove && !action.path.steps.back().is_index) {
    pksk::backend::Condition gone;
    gone.op = pksk::backend::Condition::Op::not_exists;
    gone.operands.push_back(path_operand(action.path));
    if (!evaluates(gone, updated))
      fuzz::fail("after REMOVE the path exists", action.path.to_string());
  }

  std::string json;
  pksk::append_plain_json(json, updated);
  pksk::AttributeValue again;
  try {
    again = pksk::parse_plain_body(json);
  } catch (const pksk::DecodeError& e) {
    fuzz::fail("an updated item's plain JSON does not parse", json + "\n" + e.what());
  }
  if (!(again == updated)) fuzz::fail("plain JSON round trip changed the updated item", json);
  (void)pksk::attributes_size(updated);
  item = std::move(updated);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const std::string body = in.ConsumeRandomLengthString(512);
  pksk::AttributeValue item;
  try {
    item = pksk::parse_plain_body(body);
  } catch (const pksk::DecodeError&) {
    item = pksk::AttributeValue::empty_map();
  }
  while (in.remaining_bytes() > 0) {
    if (in.ConsumeBool()) {
      check_condition(random_condition(in, item), item);
    } else {
      check_update(in, item);
    }
  }
  return 0;
}
