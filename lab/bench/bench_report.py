#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Turn the single runs of bench.sh into one line per figure.
#
# usage: bench_report.py RAW_CSV RESULTS_CSV
#
# RAW_CSV holds round,workload,contender,threads,entries,metric,value, one
# line per run of one figure.  Ratios are paired by round: the contenders
# of round r ran one after the other, so "ours in round r / stock in round
# r" cancels most of what the machine was doing at that moment, which a
# ratio of two medians would not.  Each ratio is reported as the median
# of its per-round values with the smallest and largest.
#
# RESULTS_CSV columns, one line per workload,contender,threads,entries,
# metric:
#   median            median over the rounds of the figure's value
#   ratio_to_stock    this contender / stock, median over the rounds
#   ratio_min, _max   smallest and largest per-round value of that ratio
#                     (the three are empty on stock's own lines)
#   ours_over         ours / this contender, median over the rounds;
#                     this is how ours compares with cds_lfht and plain
#   ours_over_min, ours_over_max   its extremes over the rounds
#                     (the three are empty on ours' own lines)
# A ratio is empty when the other contender has no such figure.  For
# rates a ratio above 1 means ours (or the row's contender) is faster; for
# bytes_per_entry it means it uses more memory.
#
# Derived figures: lookup_resize_storm_ratio_<key> is, per contender and
# round, the lookup rate during a resize storm divided by the rate without
# one (same threads, entries and metric), then treated like any figure.
import csv
import statistics
import sys

CONTENDER_ORDER = {"ours": 0, "stock": 1, "stock-cmp": 2, "cds_lfht": 3,
                   "plain": 4}
METRIC_ORDER = {"wall_ops_per_s": 0, "cpu_ops_per_s": 1, "tables_per_s": 2,
                "bytes_per_entry": 3, "count": 4}
STORM = "lookup_resize_storm_"
CALM = "lookup_no_storm_"


def read_raw(path):
    """Return {(workload, contender, threads, entries, metric): {round: v}}
    and the workloads in the order they first appear."""
    runs, order = {}, []
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row or row[0] == "round":
                continue
            if len(row) != 7:
                sys.exit("bench_report: bad raw line: %s" % ",".join(row))
            rnd, wl, cont, thr, ent, metric, val = row
            key = (wl, cont, int(thr), int(ent), metric)
            runs.setdefault(key, {})[int(rnd)] = float(val)
            if wl not in order:
                order.append(wl)
    return runs, order


def add_storm_ratios(runs, order):
    for (wl, cont, thr, ent, metric), storm in list(runs.items()):
        if not wl.startswith(STORM):
            continue
        kt = wl[len(STORM):]
        calm = runs.get((CALM + kt, cont, thr, ent, metric), {})
        per_round = {r: storm[r] / calm[r] for r in storm
                     if r in calm and calm[r] > 0}
        if not per_round:
            continue
        name = "lookup_resize_storm_ratio_" + kt
        runs[(name, cont, thr, ent, metric)] = per_round
        if name not in order:
            order.append(name)


def paired(num, den):
    """Median, min and max of the per-round ratios num[r] / den[r]."""
    ratios = [num[r] / den[r] for r in num if r in den and den[r] > 0]
    if not ratios:
        return None
    return statistics.median(ratios), min(ratios), max(ratios)


def fmt(x):
    if x is None:
        return ""
    if x == int(x) and abs(x) >= 1:
        return "%d" % x
    if abs(x) >= 100:
        return "%.1f" % x
    return "%.4g" % x


def fmt3(t):
    return [fmt(v) for v in t] if t else ["", "", ""]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: bench_report.py RAW_CSV RESULTS_CSV")
    runs, order = read_raw(sys.argv[1])
    add_storm_ratios(runs, order)
    rank = {wl: i for i, wl in enumerate(order)}

    def sort_key(k):
        wl, cont, thr, ent, metric = k
        return (rank[wl], ent, thr, METRIC_ORDER.get(metric, 9),
                CONTENDER_ORDER.get(cont, 9), cont)

    with open(sys.argv[2], "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["workload", "contender", "threads", "entries",
                      "metric", "median", "ratio_to_stock", "ratio_min",
                      "ratio_max", "ours_over", "ours_over_min",
                      "ours_over_max"])
        for k in sorted(runs, key=sort_key):
            wl, cont, thr, ent, metric = k
            vals = runs[k]
            to_stock = ours_over = None
            if cont != "stock":
                stock = runs.get((wl, "stock", thr, ent, metric))
                if stock:
                    to_stock = paired(vals, stock)
            if cont != "ours":
                ours = runs.get((wl, "ours", thr, ent, metric))
                if ours:
                    ours_over = paired(ours, vals)
            out.writerow([wl, cont, thr, ent, metric,
                          fmt(statistics.median(vals.values()))] +
                         fmt3(to_stock) + fmt3(ours_over))


if __name__ == "__main__":
    main()
