// SPDX-License-Identifier: BSL-1.0
#include "cli.hpp"

#include <charconv>
#include <exception>
#include <optional>
#include <ostream>

#include "location.hpp"
#include "patterns.hpp"
#include "report.hpp"
#include "transfer.hpp"

namespace pksk::inspect {

namespace {

constexpr const char* usage_text =
    R"(usage: pksk-inspect [OPTIONS] LOCATION

Looks inside a pksk table without its entity definitions: what it holds, one collection, the
design a program stored with it, or all of it as DynamoDB JSON.

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

Options:
  --table NAME          the table, when the file holds several (or a new one, for --import)
  --batch N             --import: items per write transaction or batch (default 1000)
  --top N               the report: how many of the largest collections to list (default 10)
  --warn-share PERCENT  the report: warn of a collection past PERCENT of DynamoDB's 10 GB per
                        collection (default 50; it always warns at 10000 items and at 1 GiB)
  --pk-attribute NAME, --sk-attribute NAME, --type-attribute NAME
                        the key and type attributes of a DynamoDB table or of a new SQLite
                        table (default pk, sk, type; an SQLite file's tables say their own)
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
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto value = [&]() -> const std::string& {
      if (i + 1 == args.size()) throw UsageError(arg + " needs a value");
      return args[++i];
    };
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
    } else if (arg == "--pk-attribute") {
      c.names.pk = value();
    } else if (arg == "--sk-attribute") {
      c.names.sk = value();
    } else if (arg == "--type-attribute") {
      c.names.type = value();
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

}  // namespace

int run(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  Command c;
  try {
    bool help = false;
    c = parse(args, help);
    if (help) {
      out << usage_text;
      return 0;
    }
  } catch (const UsageError& e) {
    err << "pksk-inspect: " << e.what() << "\n(pksk-inspect --help says how to call it)\n";
    return 2;
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
    err << "pksk-inspect: " << e.what() << "\n(pksk-inspect --help says how to call it)\n";
    return 2;
  } catch (const std::exception& e) {
    err << "pksk-inspect: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace pksk::inspect
