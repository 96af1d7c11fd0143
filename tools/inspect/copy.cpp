// SPDX-License-Identifier: BSL-1.0
#include "copy.hpp"

#include <signal.h>

#include <csignal>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <utility>
#include <vector>

#include <pksk/codec/attribute_value_json.hpp>

#include "items.hpp"
#include "rate.hpp"

namespace pksk::inspect {

namespace {

// --- the checkpoint ------------------------------------------------------------------------

// Keys are any bytes (a newline too): the file holds them in hexadecimal, one per line.
std::string hex(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::optional<std::string> unhex(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int high = digit(text[i]), low = digit(text[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    out += static_cast<char>(high * 16 + low);
  }
  return out;
}

constexpr std::string_view checkpoint_header = "pksk-inspect copy checkpoint 1";

struct Checkpoint {
  std::string source, target, table;
  std::size_t items = 0;
  std::string pk, sk;  // the last key written, in the source's scan order
};

// The checkpoint in `file`, if there is one; a Failure for a file that is not one.
std::optional<Checkpoint> load_checkpoint(const std::string& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  const auto bad = [&](const std::string& why) {
    return Failure("the checkpoint " + file + " is not one pksk-inspect copy wrote (" + why +
                   "); remove it to copy from the start");
  };
  std::string line;
  if (!std::getline(in, line) || line != checkpoint_header) throw bad("its first line");
  Checkpoint c;
  const auto field = [&](std::string_view name) {
    if (!std::getline(in, line) || !line.starts_with(name) || line.size() <= name.size() ||
        line[name.size()] != ' ') {
      throw bad("no " + std::string(name) + " line");
    }
    return line.substr(name.size() + 1);
  };
  c.source = field("source");
  c.target = field("target");
  c.table = field("table");
  const std::string items = field("items");
  try {
    c.items = std::stoull(items);
  } catch (const std::exception&) {
    throw bad("items '" + items + "'");
  }
  const auto key = [&](std::string_view name) {
    std::optional<std::string> bytes = unhex(field(name));
    if (!bytes) throw bad(std::string(name) + " is not hexadecimal");
    return std::move(*bytes);
  };
  c.pk = key("pk");
  c.sk = key("sk");
  return c;
}

// Written beside the file and renamed over it: a checkpoint is the old one or the new one,
// whenever the program stops.
void save_checkpoint(const std::string& file, const Checkpoint& c) {
  const std::string temporary = file + ".new";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << checkpoint_header << "\nsource " << c.source << "\ntarget " << c.target << "\ntable "
        << c.table << "\nitems " << c.items << "\npk " << hex(c.pk) << "\nsk " << hex(c.sk) << '\n';
    out.close();
    if (!out) throw Failure("cannot write the checkpoint " + temporary);
  }
  std::error_code error;
  std::filesystem::rename(temporary, file, error);
  if (error) throw Failure("cannot write the checkpoint " + file + ": " + error.message());
}

// --- interruptions -------------------------------------------------------------------------

volatile std::sig_atomic_t signal_received = 0;

extern "C" void note_signal(int signal) {
  signal_received = signal;
}

// SIGINT and SIGTERM end the batch being written rather than the program: the copy then saves
// its checkpoint and stops. The previous handlers come back afterwards.
class SignalsEndTheBatch {
 public:
  SignalsEndTheBatch() {
    signal_received = 0;
    struct sigaction action {};
    action.sa_handler = note_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  SignalsEndTheBatch(const SignalsEndTheBatch&) = delete;
  SignalsEndTheBatch& operator=(const SignalsEndTheBatch&) = delete;
  ~SignalsEndTheBatch() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  static int received() { return signal_received; }

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

// --- reading the source ----------------------------------------------------------------------

// Scans every item from after `start` a page at a time: each row to `row`, then `page_done`
// once the page's read is over (the rows' views do not outlive it).
template <class Row, class PageDone>
void scan_pages(const Location& where, const AnyBackend::TableHandle& handle,
                const std::optional<backend::ItemKey>& start, Row&& row, PageDone&& page_done) {
  std::string last_pk, last_sk;
  backend::RawScan scan;
  scan.consistent = true;
  scan.exclusive_start = start;
  for (;;) {
    const backend::ScanOutcome outcome = where.backend.scan(handle, scan, row);
    page_done();
    if (!outcome.last_evaluated_pk) return;
    last_pk = *outcome.last_evaluated_pk;
    last_sk = *outcome.last_evaluated_sk;
    scan.exclusive_start = backend::ItemKey{last_pk, last_sk};
  }
}

std::size_t count_items(const Location& where, const AnyBackend::TableHandle& handle) {
  // Only the keys, which come back whatever the projection: it names an attribute no item is
  // expected to have (naming a key attribute makes DynamoDB refuse the overlapping paths).
  const std::string_view keys[] = {"pksk_inspect_count_only"};
  std::size_t count = 0;
  std::string last_pk, last_sk;
  backend::RawScan scan;
  scan.projection = keys;
  for (;;) {
    const backend::ScanOutcome outcome =
        where.backend.scan(handle, scan, [&](const backend::ItemView&) { ++count; });
    if (!outcome.last_evaluated_pk) return count;
    last_pk = *outcome.last_evaluated_pk;
    last_sk = *outcome.last_evaluated_sk;
    scan.exclusive_start = backend::ItemKey{last_pk, last_sk};
  }
}

}  // namespace

TransferCount copy_items(const Location& source, const backend::TableSpec& table,
                         const Location& target, const backend::TableSpec& target_table,
                         const CopyOptions& options, std::ostream& progress_out) {
  const auto from = source.backend.open_table(table);
  const auto to = target.backend.open_table(target_table);
  const BodyFormat from_format = source.backend.body_format(from);
  const BodyFormat to_format = target.backend.body_format(to);

  Checkpoint checkpoint{.source = source.text,
                        .target = target.text,
                        .table = table.name,
                        .items = 0,
                        .pk = {},
                        .sk = {}};
  std::optional<backend::ItemKey> start;
  if (std::optional<Checkpoint> found = load_checkpoint(options.checkpoint)) {
    if (found->source != source.text || found->target != target.text ||
        found->table != table.name) {
      throw Failure("the checkpoint " + options.checkpoint + " is of another copy (" +
                    found->source + " table " + found->table + " to " + found->target +
                    "): remove it, or name another with --checkpoint");
    }
    checkpoint = std::move(*found);
    start = backend::ItemKey{checkpoint.pk, checkpoint.sk};
  }
  const std::size_t resumed_at = checkpoint.items;

  const std::size_t total = count_items(source, from);
  Progress progress(progress_out, options.progress, std::max(total, resumed_at), resumed_at);
  RateLimit limit(options.rate);
  // With a rate, a batch is at most a second's worth: the bucket then paces every batch.
  const std::size_t batch_size =
      options.rate > 0 ? std::min(options.batch, limit.capacity()) : options.batch;
  SignalsEndTheBatch signals;
  TransferCount count;

  const auto stop = [&](const std::string& why) {
    progress.finish(checkpoint.items);
    throw Interrupted(why + " after " + std::to_string(checkpoint.items) + " items (" +
                      std::to_string(count.items) + " in this run); the same command continues " +
                      "from the checkpoint " + options.checkpoint);
  };
  const auto write = [&](std::vector<StoredItem>& batch) {
    limit.acquire(batch.size());
    write_batch(target, to, batch);
    checkpoint.items += batch.size();
    checkpoint.pk = batch.back().pk;
    checkpoint.sk = batch.back().sk;
    save_checkpoint(options.checkpoint, checkpoint);
    for (const StoredItem& item : batch) count.bytes += item.size;
    count.items += batch.size();
    progress.update(checkpoint.items);
    batch.clear();
    if (SignalsEndTheBatch::received() != 0) {
      stop(SignalsEndTheBatch::received() == SIGINT ? "interrupted (SIGINT)"
                                                    : "interrupted (SIGTERM)");
    }
    if (options.stop_after && count.items >= *options.stop_after) stop("stopped (--stop-after)");
  };

  // A page is read whole before any of it is written: the source's read is over before the
  // target's write begins (they may be tables of one SQLite file).
  std::vector<StoredItem> page, batch;
  scan_pages(
      source, from, start,
      [&](const backend::ItemView& row) {
        page.push_back(stored_item(whole_item(row, from_format, table), to_format, target_table));
      },
      [&] {
        for (StoredItem& item : page) {
          batch.push_back(std::move(item));
          const bool stopping =
              options.stop_after && count.items + batch.size() >= *options.stop_after;
          if (batch.size() >= batch_size || stopping) write(batch);
        }
        page.clear();
      });
  if (!batch.empty()) write(batch);
  progress.finish(checkpoint.items);
  std::error_code ignored;
  std::filesystem::remove(options.checkpoint, ignored);
  return count;
}

namespace {

// The item with its attributes in name order at every depth, and a string set as the list of
// its strings (sorted already): one text per item whichever backend it was read from.
void make_canonical(AttributeValue& value) {
  switch (value.kind) {
    case AttributeValue::Kind::map:
      std::sort(value.map.begin(), value.map.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      for (auto& member : value.map) make_canonical(member.second);
      break;
    case AttributeValue::Kind::list:
      for (AttributeValue& element : value.list) make_canonical(element);
      break;
    case AttributeValue::Kind::string_set: {
      AttributeValue list = AttributeValue::empty_list();
      for (std::string& s : value.set)
        list.list.push_back(AttributeValue::from_string(std::move(s)));
      value = std::move(list);
      break;
    }
    default:
      break;
  }
}

// FNV-1a, then a finalising mix so that the sum of many spreads over all 64 bits.
std::uint64_t item_hash(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

struct Collection {
  std::size_t items = 0;
  std::uint64_t sum = 0;  // of the items' hashes: the same whatever order they come in
};

std::map<std::string, Collection> collections(const Location& where,
                                              const backend::TableSpec& table) {
  const auto handle = where.backend.open_table(table);
  const BodyFormat format = where.backend.body_format(handle);
  std::map<std::string, Collection> out;
  std::string text;
  scan_pages(
      where, handle, std::nullopt,
      [&](const backend::ItemView& row) {
        AttributeValue item = whole_item(row, format, table);
        make_canonical(item);
        text.clear();
        append_item_attribute_value_json(text, item);
        Collection& c = out[std::string(row.partition_key())];
        ++c.items;
        c.sum += item_hash(text);
      },
      [] {});
  return out;
}

constexpr std::size_t differences_listed = 100;

}  // namespace

VerifyOutcome verify_tables(const Location& source, const backend::TableSpec& table,
                            const Location& target, const backend::TableSpec& target_table,
                            std::ostream& out) {
  const std::map<std::string, Collection> a = collections(source, table);
  const std::map<std::string, Collection> b = collections(target, target_table);
  VerifyOutcome outcome;
  const auto differ = [&](const std::string& pk, const Collection& in_source,
                          const Collection& in_target) {
    ++outcome.differing;
    if (outcome.differing > differences_listed) return;
    out << "collection " << pk << ": ";
    if (in_source.items != in_target.items) {
      out << in_source.items << " items in the source, " << in_target.items << " in the target\n";
    } else {
      out << in_source.items << " items on each side, not the same ones\n";
    }
  };
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() || j != b.end()) {
    ++outcome.collections;
    if (j == b.end() || (i != a.end() && i->first < j->first)) {
      outcome.source_items += i->second.items;
      differ(i->first, i->second, {});
      ++i;
    } else if (i == a.end() || j->first < i->first) {
      outcome.target_items += j->second.items;
      differ(j->first, {}, j->second);
      ++j;
    } else {
      outcome.source_items += i->second.items;
      outcome.target_items += j->second.items;
      if (i->second.items != j->second.items || i->second.sum != j->second.sum)
        differ(i->first, i->second, j->second);
      ++i;
      ++j;
    }
  }
  if (outcome.differing > differences_listed)
    out << "... and " << outcome.differing - differences_listed << " more collections\n";
  if (outcome.differing == 0) {
    out << "verified: " << outcome.source_items << " items in " << outcome.collections
        << " collections, the same in " << source.text << " and " << target.text << '\n';
  } else {
    out << "differ: " << outcome.differing << " of " << outcome.collections << " collections ("
        << outcome.source_items << " items in " << source.text << ", " << outcome.target_items
        << " in " << target.text << ")\n";
  }
  return outcome;
}

}  // namespace pksk::inspect
