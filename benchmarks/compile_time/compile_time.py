#!/usr/bin/env python3
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


def entity_source(i: int) -> str:
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
std::size_t use_e{i}(pksk::Table<pksk::sqlite::Backend>& table) {{
  table.put(E{i}{{.acc = "a", .id = "{i}", .name = "n", .amount = 1.5, .count = {i},
                 .note = "x", .parts = {{Part{i}{{"s", 1, 2.0}}}}}});
  const std::optional<E{i}> got = table.get(E{i}{{.acc = "a", .id = "{i}"}});
  const std::vector<E{i}> all = table.query<E{i}>(pksk::PartitionKey{{"ACC#a"}});
  return all.size() + (got ? got->parts.size() : 0);
}}
"""


def tu_source(n: int) -> str:
    head = "#include <pksk/pksk.hpp>\n#include <pksk/sqlite.hpp>\n"
    if n == 0:
        return head + "\nint main() { return 0; }\n"
    body = [head, "#include <optional>\n#include <string>\n#include <vector>\n"]
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
        for n in args.sizes:
            src = tmpdir / f"entities_{n}.cpp"
            src.write_text(tu_source(n))
            sources[n] = src
        for cxx in args.compilers:
            results["compilers"][cxx] = compiler_version(cxx)
            for opt in args.opts:
                for n in args.sizes:
                    # Trees alternate run by run, so that a change of load on a shared machine
                    # weighs on both alike.
                    runs = {label: [] for label in roots}
                    for _ in range(args.reps):
                        for label, root in roots.items():
                            cmd = [cxx, "-std=c++20", f"-{opt}", *include_flags(root), "-c",
                                   str(sources[n]), "-o", str(tmpdir / "out.o")]
                            runs[label].append(measure(cmd, tmpdir))
                    for label, measured in runs.items():
                        cpu = [r[0] for r in measured]
                        rss = [r[1] for r in measured]
                        cell = {"tree": label, "compiler": cxx, "opt": opt, "entities": n,
                                "cpu_s": statistics.median(cpu), "rss_mb": statistics.median(rss),
                                "runs_cpu_s": cpu, "runs_rss_mb": rss}
                        results["cells"].append(cell)
                        print(f"{label:8} {cxx:10} -{opt} {n:3} entities: {cell['cpu_s']:7.2f} s "
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
        ratio = f"{r['ratio']:.2f}x" if "ratio" in r else "(includes only)"
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
    parser.add_argument("--emit", type=int, metavar="N", help="print the TU with N entities")
    parser.add_argument("--report", metavar="JSON", help="render a compile_time.json again")
    args = parser.parse_args()
    if args.emit is not None:
        print(tu_source(args.emit), end="")
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
