// SPDX-License-Identifier: BSL-1.0
#include "cli.hpp"

#include <charconv>
#include <exception>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <pksk/error.hpp>

#include "copy.hpp"
#include "location.hpp"
#include "patterns.hpp"
#include "report.hpp"
#include "transfer.hpp"

namespace pksk::inspect {

namespace {

constexpr const char* usage_text =
    R"(usage: pksk-inspect [OPTIONS] LOCATION
       pksk-inspect copy [OPTIONS] SOURCE TARGET
       pksk-inspect verify [OPTIONS] SOURCE TARGET

Looks inside a pksk table without its entity definitions: what it holds, one collection, the
design a program stored with it, or all of it as DynamoDB JSON; copies a table between SQLite
and DynamoDB, and compares two.

LOCATION is an SQLite file (FILE.db) or a DynamoDB table:
  dynamodb://TABLE?endpoint=URL&region=REGION   (credentials: the usual AWS chain;
                                                 create=1 lets --import create the table)

Commands (none: the report of every table: items and bytes per type, size distribution,
largest collections, warnings):
  --pk VALUE            the items of one collection, in sort-key order
  --json                with --pk: each item as one JSON object per line
  --patterns            the design a program stored with the table (entities, key templates,
                        collections, access patterns) as Markdown; an SQLite file only
  --export FILE         every item as DynamoDB JSON, one {"Item":{...}} per line
                        (FILE.gz: gzip; -: standard output)
  --import FILE         puts every item of a DynamoDB JSON export (FILE.gz: gzip; -: standard
                        input); an item replaces the one with its key, so a rerun is harmless

copy SOURCE TARGET      writes every item of SOURCE into TARGET (either an SQLite file or a
                        DynamoDB table; the target table is created when missing), batch by
                        batch, showing its progress (a bar on a terminal, else a line every
                        tenth or 2 s). SIGINT or SIGTERM ends it after the batch being written
                        (exit status 130); the same command then continues from its checkpoint
verify SOURCE TARGET    compares the two tables collection by collection (item count and a
                        checksum of the items); lists the collections that differ, exit status
                        1 if any does

Options:
  --table NAME          the table, when the file holds several (or a new one, for --import)
  --batch N             --import, copy: items per write transaction or batch (default 1000)
  --top N               the report: how many of the largest collections to list (default 10)
  --warn-share PERCENT  the report: warn of a collection past PERCENT of DynamoDB's 10 GB per
                        collection (default 50; it always warns at 10000 items and at 1 GiB)
  --target-table NAME   copy, verify: the target's table in an SQLite file (default: the
                        source's name); a DynamoDB address names its own, and another
                        name here is refused
  --checkpoint FILE     copy: where it records how far it got (default
                        pksk-inspect-copy.checkpoint; removed when the copy is done)
  --rate N              copy: write at most N items per second
  --quiet               copy: no progress
  --verify              copy: verify once the copy is done
  --stop-after N        copy, for testing: stop as if interrupted after N items
  --pk-attribute NAME, --sk-attribute NAME, --type-attribute NAME
                        the key and type attributes of a DynamoDB table or of a new SQLite
                        table (default pk, sk, type; an SQLite file's tables say their own)
  --sk-type S|N         whether a DynamoDB table's sort key is a string (S, the default) or a
                        number (N); an SQLite file's tables say their own
  -h, --help            this help

Exit status: 0 done, 1 the command failed, 2 the command line is wrong, 3 --patterns: the
table has no stored design.
)";

std::size_t parse_count(const std::string& option, const std::string& value, std::size_t min) {
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size() || n < min) {
    throw UsageError(option + " takes a whole number of at least " + std::to_string(min) +
                     ", not '" + value + "'");
  }
  return n;
}

// Walks the arguments; value() takes the one after the current option.
class Arguments {
 public:
  Arguments(std::span<const std::string> args, std::size_t first) : args_(args), i_(first) {}
  bool done() const { return i_ >= args_.size(); }
  const std::string& current() const { return args_[i_]; }
  void next() { ++i_; }
  const std::string& value() {
    if (i_ + 1 == args_.size()) throw UsageError(current() + " needs a value");
    return args_[++i_];
  }

 private:
  std::span<const std::string> args_;
  std::size_t i_;
};

// The key attributes' names, which every command that opens a location takes alike.
bool parse_key_name(Arguments& a, KeyNames& names) {
  const std::string& arg = a.current();
  if (arg == "--pk-attribute") {
    names.pk = a.value();
  } else if (arg == "--sk-attribute") {
    names.sk = a.value();
  } else if (arg == "--type-attribute") {
    names.type = a.value();
  } else if (arg == "--sk-type") {
    const std::string type = a.value();
    if (type != "S" && type != "N") throw UsageError("--sk-type takes S or N, not " + type);
    names.sk_type = type == "N" ? KeyType::number : KeyType::string;
  } else {
    return false;
  }
  return true;
}

int usage_error(std::ostream& err, const UsageError& e) {
  err << "pksk-inspect: " << e.what() << "\n(pksk-inspect --help says how to call it)\n";
  return 2;
}

struct Command {
  std::string location;
  std::optional<std::string> pk, export_file, import_file;
  bool json = false;
  bool patterns = false;
  std::string table;
  std::size_t batch = 1000;
  ReportOptions report;
  KeyNames names;
};

Command parse(std::span<const std::string> args, bool& help) {
  Command c;
  for (Arguments a{args, 0}; !a.done(); a.next()) {
    const std::string& arg = a.current();
    const auto value = [&]() -> const std::string& { return a.value(); };
    if (parse_key_name(a, c.names)) continue;
    if (arg == "-h" || arg == "--help") {
      help = true;
    } else if (arg == "--pk") {
      c.pk = value();
    } else if (arg == "--json") {
      c.json = true;
    } else if (arg == "--patterns") {
      c.patterns = true;
    } else if (arg == "--export") {
      c.export_file = value();
    } else if (arg == "--import") {
      c.import_file = value();
    } else if (arg == "--table") {
      c.table = value();
    } else if (arg == "--batch") {
      c.batch = parse_count(arg, value(), 1);
    } else if (arg == "--top") {
      c.report.top = parse_count(arg, value(), 0);
    } else if (arg == "--warn-share") {
      const std::size_t percent = parse_count(arg, value(), 1);
      if (percent > 100) throw UsageError("--warn-share takes a percentage from 1 to 100");
      c.report.warn_share = static_cast<double>(percent) / 100;
    } else if (arg.size() > 1 && arg.starts_with('-')) {
      throw UsageError("unknown option " + arg);
    } else if (!c.location.empty()) {
      throw UsageError("one location only: " + c.location + " and " + arg);
    } else {
      c.location = arg;
    }
  }
  if (help) return c;
  if (c.location.empty()) throw UsageError("no location (FILE.db or dynamodb://TABLE)");
  const int commands = int{c.pk.has_value()} + int{c.export_file.has_value()} +
                       int{c.import_file.has_value()} + int{c.patterns};
  if (commands > 1) throw UsageError("--pk, --export, --import and --patterns go one at a time");
  if (c.json && !c.pk) throw UsageError("--json goes with --pk");
  return c;
}

// copy and verify: two locations, and their own options.
struct TwoTables {
  std::string verb, source, target;
  std::string table, target_table;
  KeyNames names;
  CopyOptions copy;
  bool quiet = false, verify = false;
};

double parse_rate(const std::string& value) {
  std::size_t end = 0;
  double rate = 0;
  try {
    rate = std::stod(value, &end);
  } catch (const std::exception&) {
    end = 0;
  }
  if (end == 0 || end != value.size() || !(rate > 0))
    throw UsageError("--rate takes a number of items per second above 0, not '" + value + "'");
  return rate;
}

TwoTables parse_two_tables(std::span<const std::string> args) {
  TwoTables c;
  c.verb = args[0];
  c.copy.checkpoint = "pksk-inspect-copy.checkpoint";
  std::vector<std::string> locations;
  for (Arguments a{args, 1}; !a.done(); a.next()) {
    const std::string& arg = a.current();
    const auto value = [&]() -> const std::string& { return a.value(); };
    const auto copy_only = [&] {
      if (c.verb != "copy") throw UsageError(arg + " goes with copy");
    };
    if (parse_key_name(a, c.names)) continue;
    if (arg == "--table") {
      c.table = value();
    } else if (arg == "--target-table") {
      c.target_table = value();
    } else if (arg == "--batch") {
      copy_only();
      c.copy.batch = parse_count(arg, value(), 1);
    } else if (arg == "--rate") {
      copy_only();
      c.copy.rate = parse_rate(value());
    } else if (arg == "--checkpoint") {
      copy_only();
      c.copy.checkpoint = value();
    } else if (arg == "--stop-after") {
      copy_only();
      c.copy.stop_after = parse_count(arg, value(), 1);
    } else if (arg == "--quiet") {
      copy_only();
      c.quiet = true;
    } else if (arg == "--verify") {
      copy_only();
      c.verify = true;
    } else if (arg.size() > 1 && arg.starts_with('-')) {
      throw UsageError("unknown option " + arg + " for " + c.verb);
    } else {
      locations.push_back(arg);
    }
  }
  if (locations.size() != 2)
    throw UsageError(c.verb + " takes two locations, SOURCE and TARGET; found " +
                     std::to_string(locations.size()));
  c.source = locations[0];
  c.target = locations[1];
  return c;
}

// A backend's error as the command line's user should read it: the DynamoDB backend's missing
// table names its C++ option (Options::create_missing_tables), which the command line spells
// create=1 in the address, and which only --import takes (a read creates nothing; copy creates
// its target itself).
std::string missing_table_hint(const BackendError& e, bool importing) {
  std::string message = e.what();
  if (e.code() != errc::missing_table) return message;
  constexpr std::string_view cpp_hint = "Options::create_missing_tables";
  const std::size_t open = message.rfind(" (", message.find(cpp_hint));
  if (message.find(cpp_hint) == std::string::npos || open == std::string::npos) return message;
  const std::size_t close = message.find(')', open);
  message.replace(open, close == std::string::npos ? std::string::npos : close - open + 1,
                  importing ? " (create it, or add create=1 to the address: "
                              "dynamodb://TABLE?endpoint=...&create=1)"
                            : " (create it, or copy a table into it: pksk-inspect copy SOURCE "
                              "dynamodb://TABLE?..., which creates it; create=1 in the address "
                              "lets --import create it)");
  return message;
}

int run_two_tables(const TwoTables& c, std::ostream& out, std::ostream& err, bool err_terminal) {
  const Location source = open_location(c.source, Access::read, c.names, {});
  const backend::TableSpec& table = choose_table(source, c.table);
  // The target's key attributes are the source's: the items carry those names.
  const KeyNames names{table.pk_attribute, table.sk_attribute, table.type_attribute, table.sk_type};
  const std::string target_name = c.target_table.empty() ? table.name : c.target_table;
  const Location target =
      open_location(c.target, c.verb == "copy" ? Access::create : Access::read, names, target_name);
  const bool dynamodb_target = c.target.starts_with("dynamodb://");
  if (dynamodb_target && !c.target_table.empty() && c.target_table != target.tables.front().name) {
    // A DynamoDB address names its table: writing to it instead of --target-table's would merge
    // the copy into a table the command line did not name, and writing elsewhere would ignore
    // the address.
    throw UsageError("--target-table " + c.target_table + " names another table than the target " +
                     c.target + ", whose address names " + target.tables.front().name +
                     ": name the table in the address (dynamodb://" + c.target_table +
                     "?...) and drop --target-table");
  }
  const backend::TableSpec& target_table =
      choose_table(target, dynamodb_target ? std::string() : target_name);
  if (c.verb == "copy") {
    CopyOptions options = c.copy;
    options.progress = c.quiet        ? ProgressStyle::quiet
                       : err_terminal ? ProgressStyle::bar
                                      : ProgressStyle::lines;
    const TransferCount n = copy_items(source, table, target, target_table, options, err);
    err << "copied " << n.items << " items (" << n.bytes << " bytes) from " << c.source << " to "
        << c.target << '\n';
    if (!c.verify) return 0;
  }
  const VerifyOutcome v = verify_tables(source, table, target, target_table, out);
  out.flush();
  return v.differing == 0 ? 0 : 1;
}

}  // namespace

int run(std::span<const std::string> args, std::ostream& out, std::ostream& err,
        bool err_terminal) {
  if (!args.empty() && (args[0] == "copy" || args[0] == "verify")) {
    try {
      return run_two_tables(parse_two_tables(args), out, err, err_terminal);
    } catch (const UsageError& e) {
      return usage_error(err, e);
    } catch (const Interrupted& e) {
      err << "pksk-inspect: " << e.what() << '\n';
      return 130;
    } catch (const BackendError& e) {
      err << "pksk-inspect: " << missing_table_hint(e, false) << '\n';
      return 1;
    } catch (const std::exception& e) {
      err << "pksk-inspect: " << e.what() << '\n';
      return 1;
    }
  }
  Command c;
  try {
    bool help = false;
    c = parse(args, help);
    if (help) {
      out << usage_text;
      return 0;
    }
  } catch (const UsageError& e) {
    return usage_error(err, e);
  }
  try {
    if (c.import_file) {
      const Location where = open_location(c.location, Access::write, c.names, c.table);
      const TransferCount n =
          import_items(where, choose_table(where, c.table), *c.import_file, c.batch);
      err << "imported " << n.items << " items (" << n.bytes << " bytes) into " << c.location
          << '\n';
      return 0;
    }
    const Location where = open_location(c.location, Access::read, c.names, {});
    if (c.export_file) {
      const TransferCount n = export_items(where, choose_table(where, c.table), *c.export_file);
      // On standard error: standard output may be the export itself.
      err << "exported " << n.items << " items (" << n.bytes << " bytes) from " << c.location
          << '\n';
    } else if (c.patterns) {
      const backend::TableSpec& table = choose_table(where, c.table);
      if (!print_patterns(out, where, table)) {
        err << "pksk-inspect: table " << table.name << " in " << c.location
            << " has no stored design"
            << (where.kind == "SQLite" ? " (a program stores one with pksk::sqlite::store_design)\n"
                                       : " (only an SQLite file keeps one)\n");
        return 3;
      }
    } else if (c.pk) {
      list_collection(out, where, choose_table(where, c.table), *c.pk, c.json);
    } else {
      report(out, where, c.report);
    }
    out.flush();
    return 0;
  } catch (const UsageError& e) {
    return usage_error(err, e);
  } catch (const BackendError& e) {
    err << "pksk-inspect: " << missing_table_hint(e, c.import_file.has_value()) << '\n';
    return 1;
  } catch (const std::exception& e) {
    err << "pksk-inspect: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace pksk::inspect
