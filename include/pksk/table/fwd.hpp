// SPDX-License-Identifier: BSL-1.0
#pragma once
// The Table layer's class templates, declared: Table hands out a Transaction, an Each and an
// IndexRef, and each of those refers back to its Table. Their headers name one another through
// these declarations, so that table.hpp includes the others and none includes table.hpp.

#include "../backend/backend.hpp"

namespace pksk {

template <Backend B>
// table/table.hpp: the typed API of one table of a backend.
class Table;

template <Backend B>
// table/transaction.hpp: writes all applied or none.
class Transaction;

template <Backend B, class R>
// table/each.hpp: a lazy range of a query's or scan's items.
class Each;

template <Backend B>
// table/index_ref.hpp: the queries of one secondary index.
class IndexRef;

// maintenance/maintenance.hpp: what keeps a table in shape, off the Table.
template <Backend B>
class Maintenance;

}  // namespace pksk
