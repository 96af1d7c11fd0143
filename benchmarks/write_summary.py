#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Issues 19's and 42's write targets from one run: bench_write's Google Benchmark JSON and,
optionally, callgrind_write.sh's output. Prints Markdown tables: pksk / hand (INSERT OR REPLACE,
issue 19) and pksk / upsert (the hand-written writer with an upsert, issue 42) by median real
time, median CPU time and instructions, against each target, and every case's medians with its
WAL frames per item written.

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
            if len(parts) == 5 and parts[1] in ("hand", "upsert", "pksk") and parts[2].isdigit():
                per_write[(parts[0], parts[1])] = float(parts[4])
    return per_write


# group, label, target, True when the target is a rate (pksk / hand throughput, higher is better)
TARGETS = [
    ("put_all", "put_all of the orders vs one transaction of INSERT OR REPLACE", 0.90, True),
    ("put", "put(order), autocommit, vs one prepared INSERT OR REPLACE", 1.15, False),
    ("update", "update(key, set status, add total) vs read-modify-write", 1.20, False),
    ("transact10", "transaction of 10 puts vs BEGIN IMMEDIATE; 10 inserts; COMMIT", 1.20, False),
]


# Issue 42, against the upsert writer: instructions per operation for every case; time for the
# replacing writes (put, transact10) only. put_all's target is a cost here (pksk / upsert).
TARGETS_42 = [
    ("put_all", "put_all of the orders into an empty table (per item)", 1.05, False),
    ("put", "put(order), autocommit, replacing a stored order", 1.05, True),
    ("update", "update(key, set status, add total)", 1.10, False),
    ("transact10", "transaction of 10 puts, replacing stored orders", 1.05, True),
]


def ratio_table(runs, ir, baseline, targets, time_targets_all):
    print("| case | real time | CPU time | instructions | target | verdict | checksums |")
    print("|---|---:|---:|---:|---:|---|---|")
    for group, label, target, rate_or_timed in targets:
        p, h = runs[f"{group}/pksk"], runs[f"{group}/{baseline}"]
        rate = rate_or_timed if time_targets_all else False
        timed = True if time_targets_all else rate_or_timed
        ratios = {}
        for metric in ("real_time", "cpu_time"):
            x = p[metric] / h[metric]
            ratios[metric] = 1 / x if rate else x
        if (group, "pksk") in ir and (group, baseline) in ir:
            x = ir[(group, "pksk")] / ir[(group, baseline)]
            ratios["instructions"] = 1 / x if rate else x
        judged = {k: v for k, v in ratios.items() if timed or k == "instructions"}
        ok = {k: (v >= target if rate else v <= target) for k, v in judged.items()}
        missed = [k.replace("_", " ") for k, v in ok.items() if not v]
        verdict = "met" if not missed else "**missed** (" + ", ".join(missed) + ")"
        cells = [f"{ratios[k]:.3f}x" if k in ratios else "" for k in
                 ("real_time", "cpu_time", "instructions")]
        same = "equal" if p.get("checksum") == h.get("checksum") else "differ"
        if group == "update":
            # Each side updates as many times as its timing needs: the tables end different.
            same = "n/a"
        kind = "rate, pksk / " + baseline if rate else "pksk / " + baseline
        sign = "≥" if rate else "≤"
        print(f"| {label} ({kind}) | " + " | ".join(cells) +
              f" | {sign} {target:.2f}x | {verdict} | {same} |")
    print()


def main():
    runs = medians(sys.argv[1])
    ir = instructions(sys.argv[2]) if len(sys.argv) > 2 else {}
    if all(f"{g}/upsert" in runs for g, *_ in TARGETS_42):
        print("Issue 42, pksk / the hand-written writer with an upsert (time judged for the "
              "replacing writes only):")
        print()
        ratio_table(runs, ir, "upsert", TARGETS_42, False)
    print("Issue 19, pksk / the hand-written writer with INSERT OR REPLACE:")
    print()
    ratio_table(runs, ir, "hand", TARGETS, True)
    print("| case | median real | median CPU | items/s (CPU) | allocs/item | WAL frames/item | "
          "instructions/write |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, b in runs.items():
        group, side = name.split("/")
        per = f"{ir[(group, side)]:,.0f}" if (group, side) in ir else ""
        wal = f"{b['wal_frames_per_item']:.3f}" if "wal_frames_per_item" in b else ""
        print(f"| {name} | {b['real_time']:,.1f} {b['time_unit']} | {b['cpu_time']:,.1f} "
              f"{b['time_unit']} | {b.get('items_per_second', 0) / 1e3:,.1f}k | "
              f"{b['allocs_per_item']:.3f} | {wal} | {per} |")


if __name__ == "__main__":
    main()
