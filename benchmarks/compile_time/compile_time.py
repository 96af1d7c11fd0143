#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Compile-time benchmark (issue 24): what an entity costs to compile.

Generates translation units with N entities (N = 0 is the includes-only TU) that use the API as
an application does, compiles each with every compiler at every optimisation level, and records
user+sys CPU seconds and peak RSS (/usr/bin/time), the median of --reps runs. Writes
results/compile_time.json, results/compile_time.md and a plot (results/compile_time.png with
matplotlib, else results/compile_time.svg).

    benchmarks/compile_time/compile_time.py                      # everything, 3 runs each
    benchmarks/compile_time/compile_time.py --reps 1 --opts O2   # quicker
    git archive <commit> | tar -x -C /tmp/old     # then, both trees in one run, alternating:
    benchmarks/compile_time/compile_time.py --baseline /tmp/old
    benchmarks/compile_time/compile_time.py --modes header-only separate --opts O2 --sizes 10

Modes: `header-only` compiles everything in the TU, as pksk is by default. `separate` is a
program built with PKSK_SEPARATE_COMPILATION: the TU declares each entity's code
`extern template struct pksk::EntityCode<E>;`, and the entities' code is compiled in their own
TUs (`template struct pksk::EntityCode<E>;`), the backend's in one with <pksk/src.hpp>. Besides
the using TU, separate mode times one entity's own TU and that TU's includes alone, and the
floor: the largest using TU with every pksk call declared only, which no build of pksk can beat
(its includes and the application's own code). It links the whole program once, untimed, to
show that it links.

Each entity is what an application's entity looks like: strings, a double, an int, an
optional and a vector of a nested struct, with put, get and a typed query. All entities share
one partition shape ("ACC#{acc}") with distinct sort-key prefixes ("E7#{id}"), so one
ItemCollection query of all of them is part of the TU too: the case that costs the most.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def entity_definition(i: int, separate: bool = False) -> str:
    promise = f"extern template struct pksk::EntityCode<E{i}>;\n" if separate else ""
    return f"""
struct Part{i} {{
  std::string sku;
  int qty{{}};
  double price{{}};
}};
struct E{i} {{
  std::string acc;
  std::string id;
  std::string name;
  double amount{{}};
  int count{{}};
  std::optional<std::string> note;
  std::vector<Part{i}> parts;
}};
template <>
struct pksk::Entity<E{i}> {{
  static constexpr std::string_view type = "E{i}";
  static constexpr std::string_view pk = "ACC#{{acc}}";
  static constexpr std::string_view sk = "E{i}#{{id}}";
}};
{promise}"""


def entity_use(i: int) -> str:
    return f"""
std::size_t use_e{i}(pksk::Table<pksk::sqlite::Backend>& table) {{
  table.put(E{i}{{.acc = "a", .id = "{i}", .name = "n", .amount = 1.5, .count = {i},
                 .note = "x", .parts = {{Part{i}{{"s", 1, 2.0}}}}}});
  const std::optional<E{i}> got = table.get(E{i}{{.acc = "a", .id = "{i}"}});
  const std::vector<E{i}> all = table.query<E{i}>(pksk::PartitionKey{{"ACC#a"}});
  return all.size() + (got ? got->parts.size() : 0);
}}
"""


def entity_source(i: int) -> str:
    return entity_definition(i) + entity_use(i)


HEAD = "#include <pksk/pksk.hpp>\n#include <pksk/sqlite.hpp>\n"
STD = "#include <optional>\n#include <string>\n#include <vector>\n"


def tu_source(n: int, separate: bool = False) -> str:
    head = HEAD
    if n == 0:
        return head + "\nint main() { return 0; }\n"
    body = [head, STD]
    if separate:
        body.append(f'#include "entities_{n}.hpp"\n')
        body += [entity_use(i) for i in range(n)]
    else:
        body += [entity_source(i) for i in range(n)]
    members = ", ".join(f"E{i}" for i in range(n))
    calls = " + ".join(f"use_e{i}(table)" for i in range(n))
    body.append(f"""
using All = pksk::ItemCollection<{members}>;

int main() {{
  pksk::sqlite::Backend backend{{":memory:"}};
  pksk::Table table{{backend, "t"}};
  std::size_t n = {calls};
  const All all = table.query<All>(pksk::PartitionKey{{"ACC#a"}});
  n += all.size() + all.count<E0>();
  return static_cast<int>(n % 2);
}}
""")
    return "".join(body)


def entities_header(n: int) -> str:
    """Separate mode: the entities and the promise that their code is compiled elsewhere."""
    return "#pragma once\n" + HEAD + STD + "".join(entity_definition(i, True) for i in range(n))


def entity_tu_source(i: int) -> str:
    """Separate mode: the one TU that compiles entity i's code."""
    return (f'#include <pksk/entity_code.hpp>\n#include "entities_{i + 1}.hpp"\n'
            f"template struct pksk::EntityCode<E{i}>;\n")


def floor_tu_source(n: int) -> str:
    """Separate mode's floor: the using TU of n entities with every pksk call declared only (a
    stand-in table whose members are never defined), so that what is left is the includes and
    the application's own code (building the entities, the vectors and optionals returned).
    No build of pksk can make the using TU cheaper than this."""
    stand_in = """
struct StandInTable {
  template <class T> void put(const T&);
  template <class T> std::optional<T> get(const T&);
  template <class R> std::vector<R> query(const pksk::PartitionKey&);
};
"""
    body = [HEAD, STD, f'#include "entities_{n}.hpp"\n', stand_in]
    body += [entity_use(i).replace("pksk::Table<pksk::sqlite::Backend>&", "StandInTable&")
             for i in range(n)]
    calls = " + ".join(f"use_e{i}(table)" for i in range(n))
    body.append(f"\nint main() {{\n  StandInTable table;\n  return static_cast<int>(({calls}) % 2);\n}}\n")
    return "".join(body)


def entity_includes_tu_source() -> str:
    """Separate mode: the entity TU without its one line of instantiation."""
    return entity_tu_source(0).rsplit("template struct", 1)[0]


# Separate mode's rows that are not a using TU of N entities, by the number they are filed under.
SPECIAL_ROWS = {-1: "one entity's own TU", -2: "floor: the largest using TU, pksk's calls declared only",
                -3: "the entity TU's includes only"}


def src_tu_source() -> str:
    return "#include <pksk/sqlite.hpp>\n#include <pksk/src.hpp>\n"


def link_separate(cxx: str, root: Path, n: int, tmpdir: Path) -> bool:
    """Compiles and links the separate-mode program with n entities once: it must link."""
    objects = []
    for name, source in [("main", tu_source(n, True)), ("src", src_tu_source())] + [
            (f"e{i}", entity_tu_source(i)) for i in range(n)]:
        path = tmpdir / f"link_{name}.cpp"
        path.write_text(source)
        obj = tmpdir / f"link_{name}.o"
        cmd = [cxx, "-std=c++20", "-O0", "-DPKSK_SEPARATE_COMPILATION", *include_flags(root),
               f"-I{tmpdir}", "-c", str(path), "-o", str(obj)]
        if subprocess.run(cmd, capture_output=True, text=True).returncode != 0:
            print(f"separate mode: {name} does not compile", file=sys.stderr)
            return False
        objects.append(str(obj))
    link = subprocess.run([cxx, *objects, "-o", str(tmpdir / "program"), "-lsqlite3",
                           "-lsimdjson"], capture_output=True, text=True)
    if link.returncode != 0:
        print(f"separate mode: the program does not link\n{link.stderr[-3000:]}", file=sys.stderr)
        return False
    return subprocess.run([str(tmpdir / "program")]).returncode in (0, 1)


def include_flags(root: Path) -> list[str]:
    # Boost, simdjson and SQLite are in /usr/include on Debian; PKSK_CT_INCLUDES adds others.
    extra = [d for d in os.environ.get("PKSK_CT_INCLUDES", "").split(":") if d]
    return [f"-I{root / 'include'}"] + [f"-I{d}" for d in extra]


def measure(cmd: list[str], workdir: Path) -> tuple[float, int]:
    """CPU seconds (user + sys) and peak RSS in MB of one compile."""
    report = workdir / "time.txt"
    proc = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", str(report)] + cmd,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        # Recorded, not fatal: a tree that cannot compile a size (clang refused a 30-member
        # ItemCollection before issue 24) is a result too.
        print(f"compile failed: {' '.join(cmd)}\n{proc.stderr[-2000:]}", file=sys.stderr)
        return float("nan"), 0
    user, system, rss_kb = report.read_text().split()[-3:]
    return float(user) + float(system), int(rss_kb) // 1024


def compiler_version(cxx: str) -> str:
    return subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[0]


def run(args) -> dict:
    roots = {"pksk": Path(args.root).resolve()}
    if args.baseline:
        roots["baseline"] = Path(args.baseline).resolve()
    results = {"machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                           "load_before": os.getloadavg()},
               "roots": {k: str(v) for k, v in roots.items()}, "reps": args.reps,
               "date": time.strftime("%Y-%m-%d %H:%M"), "compilers": {}, "cells": []}
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        sources = {}
        for mode in args.modes:
            separate = mode == "separate"
            for n in args.sizes:
                src = tmpdir / f"{mode}_entities_{n}.cpp"
                src.write_text(tu_source(n, separate))
                sources[(mode, n)] = src
            if separate:
                for n in range(1, max(args.sizes) + 1):
                    (tmpdir / f"entities_{n}.hpp").write_text(entities_header(n))
                for key, text in ((-1, entity_tu_source(0)),
                                  (-2, floor_tu_source(max(args.sizes))),
                                  (-3, entity_includes_tu_source())):
                    src = tmpdir / f"separate_special_{-key}.cpp"
                    src.write_text(text)
                    sources[(mode, key)] = src
        results["modes"] = args.modes
        for cxx in args.compilers:
            results["compilers"][cxx] = compiler_version(cxx)
            if "separate" in args.modes:
                # The tree measured, not a --baseline from before separate mode existed.
                results.setdefault("links", {})[cxx] = link_separate(
                    cxx, roots["pksk"], max(args.sizes), tmpdir)
                print(f"separate mode with {cxx}: links and runs: {results['links'][cxx]}")
            for opt in args.opts:
                for mode, n in sources:
                    flags = ["-DPKSK_SEPARATE_COMPILATION", f"-I{tmpdir}"] if mode == "separate" \
                        else []
                    # Trees alternate run by run, so that a change of load on a shared machine
                    # weighs on both alike.
                    # Separate mode is measured in the trees that have it: a --baseline older
                    # than it has no EntityCode.
                    labels = [label for label, root in roots.items()
                              if mode != "separate"
                              or (root / "include/pksk/entity_code.hpp").exists()]
                    runs = {label: [] for label in labels}
                    for _ in range(args.reps):
                        for label in labels:
                            root = roots[label]
                            cmd = [cxx, "-std=c++20", f"-{opt}", *flags, *include_flags(root),
                                   "-c", str(sources[(mode, n)]), "-o", str(tmpdir / "out.o")]
                            runs[label].append(measure(cmd, tmpdir))
                    for label, measured in runs.items():
                        cpu = [r[0] for r in measured]
                        rss = [r[1] for r in measured]
                        tree = label if mode == "header-only" else f"{label} {mode}"
                        cell = {"tree": tree, "compiler": cxx, "opt": opt,
                                "entities": n,
                                "cpu_s": statistics.median(cpu), "rss_mb": statistics.median(rss),
                                "runs_cpu_s": cpu, "runs_rss_mb": rss}
                        results["cells"].append(cell)
                        what = f"{n:3} entities" if n >= 0 else SPECIAL_ROWS[n]
                        print(f"{tree:16} {cxx:10} -{opt} {what}: {cell['cpu_s']:7.2f} s "
                              f"{cell['rss_mb']:5} MB  (runs "
                              f"{', '.join(f'{c:.2f}' for c in cpu)})", flush=True)
    results["machine"]["load_after"] = os.getloadavg()
    return results


def derived(results: dict) -> list[dict]:
    """Per compiler and level: ratio T_N / T_0 and per-entity cost (T_N - T_0) / N."""
    rows = []
    by_key = {(c["tree"], c["compiler"], c["opt"], c["entities"]): c for c in results["cells"]}
    for (tree, cxx, opt, n), cell in sorted(by_key.items()):
        base = by_key.get((tree, cxx, opt, 0))
        row = dict(cell)
        if n < 0:  # separate mode's special rows (SPECIAL_ROWS): reported as they are
            rows.append(row)
            continue
        if base and n > 0:
            row["ratio"] = cell["cpu_s"] / base["cpu_s"]
            row["per_entity_s"] = (cell["cpu_s"] - base["cpu_s"]) / n
            row["per_entity_mb"] = (cell["rss_mb"] - base["rss_mb"]) / n
        # The first entity also pays for the API code every entity shares (Table, the
        # backend, the decoder), so the cost of one more entity is the step from the next
        # smaller TU.
        smaller = [m for (t, c, o, m) in by_key if (t, c, o) == (tree, cxx, opt) and 0 < m < n]
        if smaller:
            prev = by_key[(tree, cxx, opt, max(smaller))]
            row["marginal_s"] = (cell["cpu_s"] - prev["cpu_s"]) / (n - max(smaller))
        rows.append(row)
    return rows


def markdown(results: dict, rows: list[dict]) -> str:
    out = [f"Compile time, median of {results['reps']} run(s), {results['date']}, "
           f"{results['machine']['cpus']} CPUs, load {results['machine']['load_before'][0]:.1f} "
           f"before / {results['machine']['load_after'][0]:.1f} after.", ""]
    for cxx, version in results["compilers"].items():
        out.append(f"- `{cxx}`: {version}")
    for label, root in results["roots"].items():
        out.append(f"- tree `{label}`: {root}")
    out += ["", "| tree | compiler | level | entities | CPU s | peak RSS MB | T_N / T_0 "
            "| s per entity (T_N - T_0) / N | s per added entity | MB per entity |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in sorted(rows, key=lambda r: (r["compiler"], r["opt"], r["tree"] != "pksk",
                                         r["entities"])):
        ratio = f"{r['ratio']:.2f}x" if "ratio" in r else (
            f"({SPECIAL_ROWS[r['entities']]})" if r["entities"] < 0 else "(includes only)")
        per = f"{r['per_entity_s']:.3f}" if "per_entity_s" in r else ""
        per_mb = f"{r['per_entity_mb']:.1f}" if "per_entity_mb" in r else ""
        marginal = f"{r['marginal_s']:.3f}" if "marginal_s" in r else ""
        if r["cpu_s"] != r["cpu_s"]:  # NaN: did not compile
            out.append(f"| {r['tree']} | {r['compiler']} | -{r['opt']} | {r['entities']} | "
                       "failed to compile | | | | | |")
            continue
        out.append(f"| {r['tree']} | {r['compiler']} | -{r['opt']} | {r['entities']} | "
                   f"{r['cpu_s']:.2f} | "
                   f"{r['rss_mb']} | {ratio} | {per} | {marginal} | {per_mb} |")
    return "\n".join(out) + "\n"


def plot(rows: list[dict], outdir: Path) -> Path:
    series = {}
    for r in rows:
        if r["entities"] < 0:
            continue
        label = f"{r['compiler']} -{r['opt']}" + ("" if r["tree"] == "pksk" else f" ({r['tree']})")
        series.setdefault(label, []).append((r["entities"], r["cpu_s"]))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return svg_plot(series, outdir / "compile_time.svg")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, points in series.items():
        xs, ys = zip(*sorted(points))
        ax.plot(xs, ys, marker="o", label=label)
    ax.set_xlabel("entities in the TU (0 = includes only)")
    ax.set_ylabel("CPU seconds (user + sys), median")
    ax.set_title("pksk: compile time per translation unit")
    ax.grid(True, alpha=0.3)
    ax.set_ylim(bottom=0)
    ax.legend()
    fig.tight_layout()
    path = outdir / "compile_time.png"
    fig.savefig(path, dpi=110)
    return path


def svg_plot(series: dict, path: Path) -> Path:
    """A plain line chart for machines without matplotlib."""
    w, h, m = 640, 400, 50
    xmax = max(x for pts in series.values() for x, _ in pts) or 1
    ymax = max(y for pts in series.values() for _, y in pts) or 1
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
    sx = lambda x: m + (w - 2 * m) * x / xmax
    sy = lambda y: h - m - (h - 2 * m) * y / ymax
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'font-family="sans-serif" font-size="11">',
             f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="black"/>',
             f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="black"/>',
             f'<text x="{w / 2}" y="{h - 10}" text-anchor="middle">entities</text>',
             f'<text x="10" y="{m - 10}">CPU s (max {ymax:.1f})</text>']
    for k, (label, pts) in enumerate(series.items()):
        pts = sorted(pts)
        c = colours[k % len(colours)]
        line = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in pts)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{c}"/>')
        parts.append(f'<text x="{w - m - 150}" y="{m + 15 * k}" fill="{c}">{label}</text>')
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=str(ROOT), help="pksk source tree (its include/)")
    parser.add_argument("--baseline", help="another pksk tree to measure in the same run, "
                        "alternating with --root (e.g. an export of an older commit)")
    parser.add_argument("--out", default=str(HERE / "results"), help="results directory")
    parser.add_argument("--compilers", nargs="+", default=["g++-12", "clang++-16"])
    parser.add_argument("--opts", nargs="+", default=["O0", "O2"])
    parser.add_argument("--sizes", nargs="+", type=int, default=[0, 1, 10, 30])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--modes", nargs="+", default=["header-only"],
                        choices=["header-only", "separate"])
    parser.add_argument("--emit", type=int, metavar="N", help="print the TU with N entities")
    parser.add_argument("--report", metavar="JSON", help="render a compile_time.json again")
    args = parser.parse_args()
    if args.emit is not None:
        print(tu_source(args.emit, "separate" in args.modes), end="")
        return
    if args.report:  # renders a results file again, without compiling
        results = json.loads(Path(args.report).read_text())
        rows = derived(results)
        (Path(args.report).parent / "compile_time.md").write_text(markdown(results, rows))
        print(markdown(results, rows))
        print(f"plot: {plot(rows, Path(args.report).parent)}")
        return
    if 0 not in args.sizes:
        args.sizes.insert(0, 0)  # every ratio is against the includes-only TU of the same run
    results = run(args)
    rows = derived(results)
    outdir = Path(args.out)
    outdir.mkdir(parents=True, exist_ok=True)
    (outdir / "compile_time.json").write_text(
        json.dumps({**results, "derived": rows}, indent=2) + "\n")
    (outdir / "compile_time.md").write_text(markdown(results, rows))
    print(markdown(results, rows))
    print(f"plot: {plot(rows, outdir)}")


if __name__ == "__main__":
    main()
