#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Issue 15's targets from one run: Google Benchmark's JSON and callgrind.sh's output.

Prints a Markdown table: each target's value by median real time, by median CPU time and in
instructions where measured, and whether it is met. On a loaded shared machine real time includes
the time a query waits for a core; CPU time does not, so it is the steadier of the two.

    python3 benchmarks/summary.py results/results.json results/callgrind.txt
"""
import json
import re
import sys


def medians(path):
    with open(path) as f:
        data = json.load(f)
    has_median = any(b.get("aggregate_name") == "median" for b in data["benchmarks"])
    out = {}
    for b in data["benchmarks"]:
        if has_median and b.get("aggregate_name") != "median":
            continue
        out[b.get("run_name", b["name"])] = b
    return out


def instructions(path):
    per_query = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"^(\w+)\s+\d+\s+\d+\s+(\d+)\s+checksum=(\d+)", line)
            if m:
                per_query[m.group(1)] = (int(m.group(2)), m.group(3))
    return per_query


def main():
    runs = medians(sys.argv[1])
    ir = instructions(sys.argv[2]) if len(sys.argv) > 2 else {}

    def t(name, metric):
        return runs[name][metric]

    def ratio(a, b, metric):
        return t(a, metric) / t(b, metric)

    def same(a, b):
        return "equal" if runs[a].get("checksum") == runs[b].get("checksum") else "DIFFER"

    def verdict(ok):
        return "met" if ok else "**missed**"

    def both(real_ok, cpu_ok):
        missed = [k for k, ok in (("real time", real_ok), ("CPU time", cpu_ok)) if not ok]
        return "met" if not missed else "**missed** (" + ", ".join(missed) + ")"

    rows = []

    def time_row(label, a, b, target, ir_pair=None):
        real, cpu = ratio(a, b, "real_time"), ratio(a, b, "cpu_time")
        cells = [f"{real:.3f}x", f"{cpu:.3f}x"]
        oks = {"real time": real <= target, "CPU time": cpu <= target}
        if ir_pair and all(s in ir for s in ir_pair):
            x = ir[ir_pair[0]][0] / ir[ir_pair[1]][0]
            cells.append(f"{x:.3f}x ({ir[ir_pair[0]][0]:,} / {ir[ir_pair[1]][0]:,})")
            oks["instructions"] = x <= target
            eq = "equal" if ir[ir_pair[0]][1] == ir[ir_pair[1]][1] else "DIFFER"
            check = f"{same(a, b)} (callgrind: {eq})"
        else:
            cells.append("")
            check = same(a, b)
        missed = [k for k, ok in oks.items() if not ok]
        v = "met" if not missed else "**missed** (" + ", ".join(missed) + ")"
        rows.append([label, *cells, f"≤ {target:.2f}x", v, check])

    time_row("collection query, pksk / floor", "collection/pksk", "collection/floor", 1.10,
             ("pksk", "floor"))
    time_row('"A" + newest 10, pksk / floor', "newest10/pksk", "newest10/floor", 1.10,
             ("pksk_newest10", "newest10"))
    time_row("date range, pksk / floor", "range/pksk", "range/floor", 1.10)
    for v in ("normalised_3q", "normalised_join", "normalised_n+1"):
        time_row(f"collection, pksk / {v}", "collection/pksk", f"collection/{v}", 1.00)

    # Decode: throughput ratios (higher is better); Google Benchmark's rates use CPU time.
    p, s, n = runs["decode/pksk"], runs["decode/simdjson"], runs["decode/nlohmann"]
    real = s["real_time"] / p["real_time"]
    cpu = p["items_per_second"] / s["items_per_second"]
    rows.append(["decode, pksk / hand simdjson (throughput)", f"{real:.3f}x", f"{cpu:.3f}x", "",
                 "≥ 0.90x", both(real >= 0.9, cpu >= 0.9),
                 same("decode/pksk", "decode/simdjson")])
    rows.append(["decode, pksk / nlohmann (throughput)", f"{n['real_time'] / p['real_time']:.2f}x",
                 f"{p['items_per_second'] / n['items_per_second']:.2f}x", "", "(reported)", "",
                 same("decode/pksk", "decode/nlohmann")])

    scale = sorted({k.split("/")[0] for k in runs if k.startswith("scale_")},
                   key=lambda g: int(g.split("_")[1]))
    if len(scale) >= 2:
        lo, hi = scale[0], scale[-1]
        for side in ("pksk", "floor"):
            a, b = f"{hi}/{side}", f"{lo}/{side}"
            real, cpu = ratio(a, b, "real_time"), ratio(a, b, "cpu_time")
            rows.append([f"latency growth {lo[6:]} → {hi[6:]} items, {side}", f"{real:.3f}x",
                         f"{cpu:.3f}x", "", "≤ 1.50x", both(real <= 1.5, cpu <= 1.5), ""])

    for case in ("collection", "newest10", "range", "decode"):
        a = runs[f"{case}/pksk"]
        b = runs[f"{case}/{'simdjson' if case == 'decode' else 'floor'}"]
        ok = (a["allocs_per_item"] <= b["allocs_per_item"] + 1e-9
              and a["allocs_per_query"] <= b["allocs_per_query"] + 1e-9)
        rows.append([f"allocations, {case}: pksk vs {'simdjson' if case == 'decode' else 'floor'}",
                     f"{a['allocs_per_item']:.3f} vs {b['allocs_per_item']:.3f} per item",
                     f"{a['allocs_per_query']:.2f} vs {b['allocs_per_query']:.2f} per query", "",
                     "≤ floor", verdict(ok), ""])

    print("| target | real time | CPU time | instructions | target | verdict | checksums |")
    print("|---|---:|---:|---:|---:|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")

    print()
    print("| case | median real | median CPU | items/s (CPU) | MB/s (CPU) | allocs/query | allocs/item |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, b in runs.items():
        mbs = f"{b['bytes_per_second'] / 1e6:.0f}" if "bytes_per_second" in b else ""
        print(f"| {name} | {b['real_time']:.2f} {b['time_unit']} | {b['cpu_time']:.2f} {b['time_unit']} "
              f"| {b.get('items_per_second', 0) / 1e3:,.0f}k | {mbs} | {b['allocs_per_query']:.2f} "
              f"| {b['allocs_per_item']:.3f} |")


if __name__ == "__main__":
    main()
