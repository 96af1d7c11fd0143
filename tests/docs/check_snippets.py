#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Compiles every ```cpp block of the given Markdown files (the test docs.snippets).

Each block is its own translation unit, checked with `<compiler> -std=c++20 -fsyntax-only`
and the flags after `--`. What a block is, is said by an HTML comment on the line before its
fence (invisible on a rendered page), or by the block itself:

  (no comment, the block has `int main`)  a whole program, compiled as it stands
  <!-- snippet: declarations -->           namespace-scope code, after PRELUDE
  <!-- snippet: fragment -->               the body of main, after PRELUDE and FRAGMENT_SETUP
  <!-- snippet: show -->                   not compiled: counted and listed

A block without a comment and without `int main` fails the test, so that no block is left
out by accident. docs/README.md ("About the examples") describes the same for readers.

usage: check_snippets.py --compiler CXX --work-dir DIR [--jobs N] FILE.md|DIR... -- FLAG...
"""
import argparse
import concurrent.futures
import pathlib
import re
import subprocess
import sys

PRELUDE = """\
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include <pksk/dynamodb.hpp>
#include <pksk/pksk.hpp>
#include <pksk/sqlite.hpp>

// The entities of examples/customer_orders, with the README's key templates.
struct LineItem {
  std::string sku;
  int qty{};
  double price{};
};
struct Customer {
  std::string id;
  std::string name;
  std::string email;
};
struct Order {
  std::string customer_id;
  std::string order_id;
  std::string status;
  double total{};
  std::vector<LineItem> items;
  std::optional<std::string> note;
};
template <>
struct pksk::Entity<Customer> {
  static constexpr std::string_view type = "Customer";
  static constexpr std::string_view pk = "CUSTOMER#{id}";
  static constexpr std::string_view sk = "A";
};
template <>
struct pksk::Entity<Order> {
  static constexpr std::string_view type = "Order";
  static constexpr std::string_view pk = "CUSTOMER#{customer_id}";
  static constexpr std::string_view sk = "#ORDER#{order_id}";
};
"""

FRAGMENT_SETUP = """\
  pksk::sqlite::Backend backend{":memory:"};
  pksk::Table table{backend, "shop"};
  const pksk::PartitionKey pk = pksk::partition(Customer{.id = "123"});
"""

KINDS = ("program", "declarations", "fragment", "show")
MARKER = re.compile(r"^<!--\s*snippet:\s*([a-z]+)\s*-->\s*$")
MAIN = re.compile(r"\bint\s+main\s*\(")


def snippets(path):
    """Yields (line, kind, code) for every ```cpp block of a Markdown file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```cpp":
            start = i + 1
            marker = MARKER.match(lines[i - 1].strip()) if i > 0 else None
            end = start
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            if end == len(lines):
                raise SystemExit(f"{path}:{start}: unclosed ```cpp block")
            code = "\n".join(lines[start:end]) + "\n"
            if marker:
                kind = marker.group(1)
                if kind not in KINDS[1:]:
                    raise SystemExit(f"{path}:{start}: unknown snippet kind '{kind}'")
            elif MAIN.search(code):
                kind = "program"
            else:
                raise SystemExit(
                    f"{path}:{start}: a ```cpp block without int main needs a marker before it: "
                    "<!-- snippet: declarations|fragment|show -->")
            yield start + 1, kind, code
            i = end
        i += 1


def translation_unit(path, line, kind, code):
    """The block as a source file; all but whole programs start from PRELUDE, which the
    compiler is given precompiled (-include), so it is parsed once and not once a block."""
    where = f'#line {line} "{path}"\n'
    if kind == "declarations":
        return where + code
    if kind == "fragment":
        return "int main() {\n" + FRAGMENT_SETUP + "  {\n" + where + code + "  }\n}\n"
    return where + code


def precompile_prelude(compiler, flags, work_dir):
    """Writes PRELUDE to work_dir/prelude.hpp and precompiles it with the blocks' own flags
    (a header precompiled with other flags is not used); returns the flags that include it."""
    header = work_dir / "prelude.hpp"
    header.write_text(PRELUDE, encoding="utf-8")
    version = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout
    if "clang" in version:
        output, use = work_dir / "prelude.hpp.pch", ["-include-pch"]
    else:
        output, use = work_dir / "prelude.hpp.gch", ["-Winvalid-pch", "-include"]
    result = subprocess.run([compiler, "-std=c++20", *flags, "-x", "c++-header", str(header),
                             "-o", str(output)], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit("the snippet prelude does not compile:\n" + result.stdout + result.stderr)
    return use + [str(output if "clang" in version else header)]


def main():
    argv = sys.argv[1:]
    flags = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser()
    parser.add_argument("--compiler", required=True)
    parser.add_argument("--work-dir", required=True, type=pathlib.Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("files", nargs="+", type=pathlib.Path,
                        help="Markdown files, or directories whose *.md files are read")
    args = parser.parse_args(argv)
    files = []
    for path in args.files:
        files.extend(sorted(path.glob("*.md")) if path.is_dir() else [path])

    args.work_dir.mkdir(parents=True, exist_ok=True)
    for old in args.work_dir.glob("*.cpp"):
        old.unlink()
    jobs, shown, counts = [], [], {kind: 0 for kind in KINDS}
    for path in files:
        for line, kind, code in snippets(path):
            counts[kind] += 1
            if kind == "show":
                shown.append(f"{path}:{line}")
                continue
            source = args.work_dir / f"{path.stem}_{line}.cpp"
            source.write_text(translation_unit(path, line, kind, code), encoding="utf-8")
            jobs.append((f"{path}:{line} ({kind})", source, kind))
    if not jobs:
        raise SystemExit("no ```cpp block found: wrong files?")

    prelude = precompile_prelude(args.compiler, flags, args.work_dir)

    def compile_one(job):
        name, source, kind = job
        extra = [] if kind == "program" else prelude
        result = subprocess.run(
            [args.compiler, "-std=c++20", "-fsyntax-only", *flags, *extra, str(source)],
            capture_output=True, text=True)
        return name, result.returncode, result.stdout + result.stderr

    failures = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for name, returncode, output in pool.map(compile_one, jobs):
            print(f"{'ok  ' if returncode == 0 else 'FAIL'} {name}")
            if returncode != 0:
                failures += 1
                print(output)
    print(", ".join(f"{counts[k]} {k}" for k in KINDS) + f"; compiled {len(jobs)}, "
          f"failed {failures}")
    for where in shown:
        print(f"not compiled (marked show): {where}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
