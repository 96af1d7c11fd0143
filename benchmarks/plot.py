#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""pksk / baseline per case, from Google Benchmark's JSON output, as a PNG and a Markdown table.

Case names are "<group>/<variant>". In each group the subject (pksk) is divided by every other
variant of the group: below 1 pksk is faster, at 1.10 is the target line. rows_only is a lower
bound (no decoding), shown grey, its checksum not comparable. Uses the median aggregate when the run had repetitions, else the single run.

    python3 benchmarks/plot.py results.json -o ratios.png [--metric real_time|cpu_time]
"""
import argparse
import json
import sys
from collections import defaultdict


def load(path, metric):
    with open(path) as f:
        data = json.load(f)
    runs = {}
    has_median = any(b.get("aggregate_name") == "median" for b in data["benchmarks"])
    for b in data["benchmarks"]:
        if has_median and b.get("aggregate_name") != "median":
            continue
        if not has_median and b.get("run_type") == "aggregate":
            continue
        name = b.get("run_name", b["name"])
        runs[name] = b
    groups = defaultdict(dict)
    for name, b in runs.items():
        group, _, variant = name.partition("/")
        groups[group][variant] = b
    return data.get("context", {}), groups


def ratios(groups, metric, subject):
    rows = []
    for group in sorted(groups):
        variants = groups[group]
        # The subject of a group: pksk when present, else the group's hand-written best.
        subj = next((v for v in (subject, "floor", "simdjson") if v in variants), None)
        if subj is None:
            continue
        for variant, b in sorted(variants.items()):
            if variant == subj:
                continue
            rows.append({
                "case": f"{group}: {subj} / {variant}",
                # rows_only is a lower bound (no decoding), not a target to meet.
                "target": subj == subject and variant != "rows_only",
                "ratio": variants[subj][metric] / b[metric],
                "subject_checksum": variants[subj].get("checksum"),
                "baseline_checksum": b.get("checksum"),
            })
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("-o", "--output", default="ratios.png")
    ap.add_argument("--metric", default="real_time", choices=["real_time", "cpu_time"])
    ap.add_argument("--subject", default="pksk")
    args = ap.parse_args()

    context, groups = load(args.json, args.metric)
    rows = ratios(groups, args.metric, args.subject)
    if not rows:
        sys.exit("no comparable cases in " + args.json)

    print("| case | ratio | checksums |")
    print("|---|---:|---|")
    for r in rows:
        same = r["subject_checksum"] == r["baseline_checksum"]
        check = "(not decoded)" if r["case"].endswith("rows_only") else "equal" if same else "differ"
        print(f"| {r['case']} | {r['ratio']:.3f}x | {check} |")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.ticker
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 0.42 * len(rows) + 1.6))
    labels = [r["case"] for r in rows][::-1]
    values = [r["ratio"] for r in rows][::-1]
    targets = [r["target"] for r in rows][::-1]
    colors = ["#8d99ae" if not t else "#2a9d8f" if v <= 1.10 else "#e76f51"
              for v, t in zip(values, targets)]
    ax.barh(labels, values, color=colors)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.axvline(1.10, color="#e76f51", linewidth=0.8, linestyle="--", label="target 1.10x")
    ax.set_xscale("log")
    ticks = [t for t in (0.1, 0.2, 0.5, 1.0, 2.0, 5.0) if min(values) / 1.5 <= t <= max(values) * 1.5]
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xlabel(f"{args.metric} ratio (log scale; < 1: subject faster)")
    for y, v in enumerate(values):
        ax.text(v, y, f" {v:.2f}x", va="center", fontsize=8)
    items = context.get("items", "?")
    ax.set_title(f"{args.subject} / baseline per case, median {args.metric}, {items} items\n"
                 f"(grey: rows_only, a lower bound, not a target)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
