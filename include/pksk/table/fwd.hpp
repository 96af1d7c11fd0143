// SPDX-License-Identifier: BSL-1.0
#pragma once
// The Table layer's class templates, declared: Table hands out a Transaction, an Each and an
// IndexRef, and each of those refers back to its Table. Their headers name one another through
// these declarations, so that table.hpp includes the others and none includes table.hpp.

#include "../backend/backend.hpp"

namespace pksk {

// The typed API of one table of a backend (table/table.hpp).
template <Backend B>
class Table;

// Writes on several items, all applied or none (table/transaction.hpp).
template <Backend B>
class Transaction;

// A lazy range over a query's or a scan's items (table/each.hpp).
template <Backend B, class R>
class Each;

// The queries of one secondary index of a Table (table/index_ref.hpp).
template <Backend B>
class IndexRef;

// maintenance/maintenance.hpp: what keeps a table in shape, off the Table.
template <Backend B>
class Maintenance;

}  // namespace pksk
