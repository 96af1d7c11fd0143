// SPDX-License-Identifier: BSL-1.0
#pragma once
// The Table layer's class templates, declared: Table hands out a Transaction, an Each and an
// IndexRef, and each of those refers back to its Table. Their headers name one another through
// these declarations, so that table.hpp includes the others and none includes table.hpp.

#include "../backend/backend.hpp"

namespace pksk {

// table/table.hpp: the typed API of one table of a backend.
template <Backend B>
class Table;

// table/transaction.hpp: writes all applied or none.
template <Backend B>
class Transaction;

// table/each.hpp: a lazy range of a query's or scan's items.
template <Backend B, class R>
class Each;

// table/index_ref.hpp: the queries of one secondary index.
template <Backend B>
class IndexRef;

// maintenance/maintenance.hpp: what keeps a table in shape, off the Table.
template <Backend B>
class Maintenance;

}  // namespace pksk
