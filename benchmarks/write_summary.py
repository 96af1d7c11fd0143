#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Issue 19's write targets from one run: bench_write's Google Benchmark JSON and, optionally,
callgrind_write.sh's output. Prints a Markdown table: pksk / hand by median real time, median CPU
time and instructions, against each target.

    python3 benchmarks/write_summary.py results/write_results.json results/write_callgrind.txt
"""
import json
import sys


def medians(path):
    with open(path) as f:
        data = json.load(f)
    out = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name", "median") != "median":
            continue
        out[b.get("run_name", b["name"]).split("/min_time")[0]] = b
    return out


def instructions(path):
    per_write = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 5 and parts[1] in ("hand", "pksk") and parts[2].isdigit():
                per_write[(parts[0], parts[1])] = float(parts[4])
    return per_write


# group, label, target, True when the target is a rate (pksk / hand throughput, higher is better)
TARGETS = [
    ("put_all", "put_all of the orders vs one transaction of INSERT OR REPLACE", 0.90, True),
    ("put", "put(order), autocommit, vs one prepared insert", 1.15, False),
    ("update", "update(key, set status, add total) vs read-modify-write", 1.20, False),
    ("transact10", "transaction of 10 puts vs BEGIN IMMEDIATE; 10 inserts; COMMIT", 1.20, False),
]


def main():
    runs = medians(sys.argv[1])
    ir = instructions(sys.argv[2]) if len(sys.argv) > 2 else {}
    print("| case | real time | CPU time | instructions | target | verdict | checksums |")
    print("|---|---:|---:|---:|---:|---|---|")
    for group, label, target, rate in TARGETS:
        p, h = runs[f"{group}/pksk"], runs[f"{group}/hand"]
        ratios = {}
        for metric in ("real_time", "cpu_time"):
            x = p[metric] / h[metric]
            ratios[metric] = 1 / x if rate else x
        if (group, "pksk") in ir and (group, "hand") in ir:
            x = ir[(group, "pksk")] / ir[(group, "hand")]
            ratios["instructions"] = 1 / x if rate else x
        ok = {k: (v >= target if rate else v <= target) for k, v in ratios.items()}
        missed = [k.replace("_", " ") for k, v in ok.items() if not v]
        verdict = "met" if not missed else "**missed** (" + ", ".join(missed) + ")"
        cells = [f"{ratios[k]:.3f}x" if k in ratios else "" for k in
                 ("real_time", "cpu_time", "instructions")]
        same = "equal" if p.get("checksum") == h.get("checksum") else "differ"
        if group == "update":
            # Each side updates as many times as its timing needs: the tables end different.
            same = "n/a"
        kind = "rate, pksk / hand" if rate else "time, pksk / hand"
        sign = "≥" if rate else "≤"
        print(f"| {label} ({kind}) | " + " | ".join(cells) +
              f" | {sign} {target:.2f}x | {verdict} | {same} |")
    print()
    print("| case | median real | median CPU | items/s (CPU) | allocs/item | instructions/write |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, b in runs.items():
        group, side = name.split("/")
        per = f"{ir[(group, side)]:,.0f}" if (group, side) in ir else ""
        print(f"| {name} | {b['real_time']:,.1f} {b['time_unit']} | {b['cpu_time']:,.1f} "
              f"{b['time_unit']} | {b.get('items_per_second', 0) / 1e3:,.1f}k | "
              f"{b['allocs_per_item']:.3f} | {per} |")


if __name__ == "__main__":
    main()
