// SPDX-License-Identifier: BSL-1.0
// transact_get on a Table whose backend has the operations pksk::Backend requires but not the
// optional transact_get (pksk::TransactGetBackend). The one error names the backend:
// expect: backend_has_no_transact_get_operation<LegacyBackend>
#include <cstddef>
#include <span>
#include <vector>

#include <pksk/backend.hpp>

#include "shop.hpp"

// A backend written before transact_get existed: declared only, as a syntax check needs.
struct LegacyBackend {
  using TableHandle = int;
  static constexpr pksk::BodyFormat body_format = pksk::BodyFormat::json;
  TableHandle open_table(const pksk::backend::TableSpec& spec);
  bool get(TableHandle, pksk::backend::ItemKey, pksk::backend::ItemVisitor);
  pksk::backend::QueryOutcome query(TableHandle, const pksk::backend::RawQuery&,
                                    pksk::backend::ItemVisitor);
  pksk::backend::ScanOutcome scan(TableHandle, const pksk::backend::RawScan&,
                                  pksk::backend::ItemVisitor);
  void put(TableHandle, const pksk::backend::PutRequest&);
  void update(TableHandle, const pksk::backend::UpdateRequest&, pksk::backend::ItemVisitor);
  bool erase(TableHandle, const pksk::backend::EraseRequest&);
  void transact(TableHandle, std::span<const pksk::backend::WriteRequest>);
  void batch_write(TableHandle, std::span<const pksk::backend::WriteRequest>,
                   std::vector<std::size_t>&);
  void batch_get(TableHandle, std::span<const pksk::backend::ItemKey>,
                 pksk::backend::IndexedItemVisitor, std::vector<std::size_t>&);
};

void read_both(pksk::Table<LegacyBackend>& table) {
  auto [customer, order] =
      table.transact_get(Customer{.id = "1"}, Order{.customer_id = "1", .order_id = "o1"});
}

int main() {}
