#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Draw the graphs of a benchmark run with gnuplot.
#
# usage: bench_plot.py BENCH_OUT
#
# Reads BENCH_OUT/results.csv and raw.csv (lab/bench/bench_report.py and
# bench.sh) and meta.txt, and writes into BENCH_OUT:
#   ratio.png        ours / stock, ours / cds_lfht and ours / plain per
#                    figure, in operations per CPU second: the median of
#                    the per-round ratios with whiskers from the smallest
#                    to the largest; log scale, 1.0 drawn across
#   ratio_wall.png   the same per wall-clock second, with the life figures
#   lookup.png, churn.png, grow.png, storm.png
#                    each contender's operations per CPU second (median
#                    over the rounds, whiskers min to max), log scale;
#                    *_wall.png the same per wall-clock second
#   storm_ratio.png  lookups during a resize storm / lookups without one
#   life.png         tables set up and torn down per second
#   memory.png       bytes per entry
#   timeline.png     from timeline.csv, round 1: lookups per millisecond
#                    while a table grows from empty (ours, stock), the
#                    spans in which a resize was in flight and the bucket
#                    count; below, lookups per millisecond before and
#                    during a resize storm as a fraction of the calm median
# Figures are grouped by thread count, then table size.  The gnuplot
# scripts and data files stay in BENCH_OUT/plot/ for anyone who wants to
# change a graph and redraw it (gnuplot BENCH_OUT/plot/NAME.gp).
# Without gnuplot, says so and draws nothing.
import csv
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_report import read_raw, add_storm_ratios  # noqa: E402

CONTENDERS = ["ours", "stock", "stock-cmp", "cds_lfht", "plain"]
COLOURS = {"ours": "#d62728", "stock": "#1f77b4", "stock-cmp": "#17becf",
           "cds_lfht": "#2ca02c", "plain": "#7f7f7f"}
POINTS = {"ours": 7, "stock": 5, "stock-cmp": 4, "cds_lfht": 9, "plain": 11}


def short_name(wl):
    """lookup_pos_u32 -> "pos u32" and so on, for the x axis."""
    for prefix, new in (("lookup_resize_storm_ratio_", "storm/calm_"),
                        ("lookup_resize_storm_", "storm_"),
                        ("lookup_no_storm_", "no-storm_"),
                        ("memory_bytes_per_entry_", "memory_"),
                        ("lookup_", "")):
        if wl.startswith(prefix):
            wl = new + wl[len(prefix):]
            break
    return wl.replace("_", " ")


def size_name(n):
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return "%dM" % (n >> 20)
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return "%dK" % (n >> 10)
    return str(n)


def group_name(threads, entries, family):
    t = "%d thread%s" % (threads, "" if threads == 1 else "s")
    if family == "life":
        return "%d keys/table" % entries
    if family == "memory":
        return "%s entries" % size_name(entries)
    return "%s, %s" % (t, size_name(entries))


def family_of(wl):
    if "storm" in wl:
        return "storm"
    return wl.split("_")[0]


def stats(values):
    v = sorted(values)
    n = len(v)
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    return med, v[0], v[-1]


def num(s):
    return float(s) if s != "" else None


class Plotter:
    def __init__(self, out):
        self.out = out
        self.dir = os.path.join(out, "plot")
        os.makedirs(self.dir, exist_ok=True)
        self.meta = {}
        try:
            with open(os.path.join(out, "meta.txt")) as f:
                for line in f:
                    k, _, v = line.rstrip("\n").partition("=")
                    self.meta[k] = v
        except OSError:
            pass
        m = self.meta
        rounds = m.get("rounds", "?")
        self.machine = ("%s CPUs %s, %s round%s of %s s (after %s s "
                        "warm-up), %s" %
                        (m.get("cpus", "?"), m.get("arch", "?"), rounds,
                         "" if rounds == "1" else "s", m.get("dur", "?"),
                         m.get("warmup", "?"), m.get("date", "?")))
        self.failed = 0

    def plot(self, name, title, ylabel, keys, series, log=True, one=False):
        """keys: the figures, (threads, entries, workload) in plotting
        order; series: [(title, colour, point type, {key: (med, lo, hi)})]."""
        series = [s for s in series if any(k in s[3] for k in keys)]
        keys = [k for k in keys if any(k in s[3] for s in series)]
        if not keys:
            return
        dat = os.path.join(self.dir, name + ".dat")
        n = len(series)
        with open(dat, "w") as f:
            for i, (_, _, _, vals) in enumerate(series):
                off = (i - (n - 1) / 2) * min(0.18, 0.7 / n)
                f.write("# %s\n" % series[i][0])
                for x, k in enumerate(keys):
                    if k in vals:
                        f.write("%g %g %g %g\n" % ((x + off,) + vals[k]))
                f.write("\n\n")
        gp = []
        gp.append('set terminal pngcairo size 1200,600 font "sans,13" '
                  'noenhanced')
        gp.append('set output "%s"' % os.path.join(self.out, name + ".png"))
        gp.append('set title "%s\\n%s" font "sans,14"' % (title,
                                                          self.machine))
        gp.append('set ylabel "%s"' % ylabel)
        gp.append('set xrange [-0.6:%g]' % (len(keys) - 0.4))
        gp.append('set tmargin 5.5')
        gp.append('set lmargin 11')
        gp.append('set rmargin 2')
        gp.append('set grid ytics mytics lc rgb "#dddddd"')
        gp.append('set key outside top right horizontal samplen 1.5 '
                  'font "sans,12"')
        if log:
            gp.append('set logscale y %s' % ("2" if one else "10"))
            if one:
                # ratios: 1/8, 1/4, 1/2, 1, 2, 4, 8 ...
                gp.append('set ytics (%s)' % ", ".join(
                    '"%s" %.10g' % ("1/%d" % (1 << -k) if k < 0 else
                                    "%d" % (1 << k), 2.0 ** k)
                    for k in range(-12, 13)))
            else:
                gp.append('set format y "%.0s%c"')
        else:
            gp.append('set yrange [0:*]')
            gp.append('set offsets 0, 0, graph 0.08, 0')
        gp.append('set xtics rotate by 50 right nomirror font "sans,12" (%s)'
                  % ", ".join('"%s" %d' % (short_name(k[2]), x)
                              for x, k in enumerate(keys)))
        # thread count and table size groups: a line between, a label above
        start = 0
        for x in range(1, len(keys) + 1):
            if x < len(keys) and keys[x][:2] == keys[start][:2]:
                continue
            if x < len(keys):
                gp.append('set arrow from %g, graph 0 to %g, graph 1 '
                          'nohead dt 2 lc rgb "#888888"' % (x - 0.5, x - 0.5))
            t, e, wl = keys[start]
            gp.append('set label "%s" at %g, graph 1.03 center font "sans,12"'
                      % (group_name(t, e, family_of(wl)), (start + x - 1) / 2))
            start = x
        plots = []
        if one:
            plots.append('1 notitle lc rgb "black" lw 1.5 dt 1')
        for i, (stitle, colour, pt, _) in enumerate(series):
            plots.append('"%s" index %d using 1:2:3:4 with yerrorbars '
                         'title "%s" pt %d ps 1.3 lw 1.5 lc rgb "%s"'
                         % (dat, i, stitle, pt, colour))
        gp.append("plot " + ", \\\n\t".join(plots))
        gpfile = os.path.join(self.dir, name + ".gp")
        with open(gpfile, "w") as f:
            f.write("\n".join(gp) + "\n")
        res = subprocess.run(["gnuplot", gpfile], capture_output=True,
                             text=True)
        if res.returncode or res.stderr.strip():
            self.failed += 1
            sys.stderr.write("bench_plot: gnuplot on %s: %s\n" %
                             (gpfile, res.stderr.strip()))

SMOOTH_MS = 5


def read_timeline(path, rnd="1"):
    """{(phase, contender): [(ms, lookups, buckets, resizing)]} and
    {(phase, contender): (ms1, ms2)} of round @rnd."""
    samples, events = {}, {}
    try:
        with open(path) as f:
            for line in f:
                v = line.rstrip("\n").split(",")
                if v[0] != rnd:
                    continue
                if v[1] == "tl":
                    samples.setdefault((v[2], v[3]), []).append(
                        (int(v[5]), int(v[6]), int(v[7]), int(v[8])))
                elif v[1] == "tl-event":
                    events[(v[2], v[3])] = (float(v[5]), float(v[6]),
                                            int(v[4]))
    except OSError:
        pass
    return samples, events


def smooth(rows):
    """Lookups per millisecond, averaged over SMOOTH_MS-wide windows."""
    out = []
    for i in range(0, len(rows), SMOOTH_MS):
        w = rows[i:i + SMOOTH_MS]
        span = w[-1][0] - w[0][0] + 1
        out.append((w[0][0] + span / 2, sum(r[1] for r in w) / span))
    return out


def spans(rows):
    """[(start ms, end ms)] of the samples with a resize in flight."""
    res, start, last = [], None, None
    for ms, _, _, busy in rows:
        if busy and start is None:
            start = ms
        elif not busy and start is not None:
            res.append((start, ms))
            start = None
        last = ms
    if start is not None:
        res.append((start, last + 1))
    return res


def plot_timeline(p, out):
    samples, events = read_timeline(os.path.join(out, "timeline.csv"))
    conts = [c for c in ("ours", "stock")
             if ("grow", c) in samples and ("grow", c) in events]
    if not conts:
        return
    d = p.dir
    m = p.meta
    gp = ['set terminal pngcairo size 1200,900 font "sans,13" noenhanced',
          'set output "%s"' % os.path.join(out, "timeline.png"),
          'set multiplot layout 2,1 title "lookups per millisecond (%d ms '
          'means) while resizes run, round 1 of %s\\n%s CPUs %s, %s" '
          'font "sans,14"' % (SMOOTH_MS, m.get("rounds", "?"),
                               m.get("cpus", "?"), m.get("arch", "?"),
                               m.get("date", "?")),
          'set grid lc rgb "#dddddd"',
          'set key outside bottom center horizontal maxrows 2 '
          'font "sans,12"',
          'set lmargin 12', 'set rmargin 12']
    # grow: rates, resize spans as bars, bucket count on the right
    plots = []
    top = 0
    for i, c in enumerate(conts):
        rows = samples[("grow", c)]
        sm = smooth(rows)
        top = max([top] + [r[1] for r in sm])
        with open(os.path.join(d, "tl_grow_%s.dat" % c), "w") as f:
            f.write("".join("%g %g\n" % r for r in sm))
        with open(os.path.join(d, "tl_size_%s.dat" % c), "w") as f:
            f.write("".join("%d %d\n" % (r[0], r[2]) for r in rows))
        with open(os.path.join(d, "tl_spans_%s.dat" % c), "w") as f:
            f.write("".join("%d %d\n" % s for s in spans(rows)))
    for i, c in enumerate(conts):
        col = COLOURS[c]
        plots.append('"%s/tl_grow_%s.dat" using 1:2 with lines lw 1.5 '
                     'lc rgb "%s" title "%s: lookups/ms"' % (d, c, col, c))
        plots.append('"%s/tl_size_%s.dat" using 1:2 axes x1y2 with steps '
                     'dt 3 lc rgb "%s" title "%s: buckets (right)"'
                     % (d, c, col, c))
        y = top * (1.08 + 0.07 * i)
        plots.append('"%s/tl_spans_%s.dat" using 1:(%g):($2-$1):(0) with '
                     'vectors nohead lw 6 lc rgb "%s" title "%s: resize in '
                     'flight"' % (d, c, y, col, c))
        ev = events.get(("grow", c))
        if ev:
            gp.append('set arrow from %g, graph 0 to %g, graph 1 nohead '
                      'dt 2 lc rgb "%s"' % (ev[0], ev[0], col))
    gp += ['set title "growing from empty to %s keys: one thread inserts, '
           'another looks up keys already in; dashed: last insert"'
           % size_name(events[("grow", conts[0])][2]),
           'set xlabel "ms since the first insert"',
           'set ylabel "lookups per ms"',
           'set yrange [0:%g]' % (top * (1.08 + 0.07 * len(conts))),
           'set y2label "buckets"', 'set logscale y2 2', 'set y2tics',
           'set format y2 "%.0s%c"',
           "plot " + ", \\\n\t".join(plots),
           'unset arrow', 'unset y2tics', 'unset y2label',
           'unset logscale y2']
    # storm: each contender's rate over its own calm median
    plots = ['1 notitle lc rgb "black" lw 1']
    for c in conts:
        rows = samples.get(("storm", c))
        ev = events.get(("storm", c))
        if not rows or not ev:
            continue
        before = [r[1] for r in rows if r[0] < ev[0]]
        calm = stats(before)[0] if before else 0
        sm = smooth(rows)
        with open(os.path.join(d, "tl_storm_%s.dat" % c), "w") as f:
            f.write("".join("%g %g\n" % (ms, v / calm if calm else 0)
                            for ms, v in sm))
        plots.append('"%s/tl_storm_%s.dat" using 1:2 with lines lw 1.5 '
                     'lc rgb "%s" title "%s"' % (d, c, COLOURS[c], c))
        gp.append('set arrow from %g, graph 0 to %g, graph 1 nohead dt 2 '
                  'lc rgb "#888888"' % (ev[0], ev[0]))
    gp += ['set title "resize storm: lookups per ms over the calm median; '
           'from the dashed line a thread grows and shrinks the table"',
           'set xlabel "ms"',
           'set ylabel "storm / calm"', 'set yrange [0:*]',
           "plot " + ", \\\n\t".join(plots), 'unset multiplot']
    gpfile = os.path.join(d, "timeline.gp")
    with open(gpfile, "w") as f:
        f.write("\n".join(gp) + "\n")
    res = subprocess.run(["gnuplot", gpfile], capture_output=True, text=True)
    if res.returncode or res.stderr.strip():
        p.failed += 1
        sys.stderr.write("bench_plot: gnuplot on %s: %s\n" %
                         (gpfile, res.stderr.strip()))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: bench_plot.py BENCH_OUT")
    out = sys.argv[1]
    if not shutil.which("gnuplot"):
        print("bench_plot: gnuplot not found, no graphs", file=sys.stderr)
        return
    runs, order = read_raw(os.path.join(out, "raw.csv"))
    add_storm_ratios(runs, order)
    rank = {wl: i for i, wl in enumerate(order)}
    with open(os.path.join(out, "results.csv"), newline="") as f:
        results = list(csv.DictReader(f))
    p = Plotter(out)

    def keys_for(pred):
        """The figures to draw, grouped by thread count, then entries;
        life and memory figures, of another kind, at the end."""
        ks = {(k[2], k[3], k[0]) for k in runs if pred(k[0], k[4])}
        last = {"life": 1, "memory": 2}
        return sorted(ks, key=lambda k: (last.get(family_of(k[2]), 0),
                                         k[0], k[1], rank[k[2]]))

    def contender_series(metric, scale=1.0):
        series = []
        conts = sorted({k[1] for k in runs},
                       key=lambda c: (CONTENDERS.index(c)
                                      if c in CONTENDERS else 9, c))
        for c in conts:
            vals = {}
            for (wl, cont, t, e, m), per_round in runs.items():
                if cont == c and m == metric:
                    vals[(t, e, wl)] = tuple(x / scale for x in
                                             stats(per_round.values()))
            series.append((c, COLOURS.get(c, "#9467bd"),
                           POINTS.get(c, 13), vals))
        return series

    def ratio_series(metrics):
        series = []
        for c in CONTENDERS[1:]:
            vals = {}
            for r in results:
                if r["contender"] != c or r["metric"] not in metrics:
                    continue
                t = (num(r["ours_over"]), num(r["ours_over_min"]),
                     num(r["ours_over_max"]))
                if None not in t and t[1] > 0:
                    vals[(int(r["threads"]), int(r["entries"]),
                          r["workload"])] = t
            series.append(("ours / " + c, COLOURS[c], POINTS[c], vals))
        return series

    def is_rate(wl, m, metrics):
        return m in metrics and not wl.startswith("memory")

    for name, metrics, what in (
            ("ratio", ("cpu_ops_per_s",), "operations per CPU second"),
            ("ratio_wall", ("wall_ops_per_s", "tables_per_s"),
             "operations per wall-clock second")):
        p.plot(name, "ours / other contender, %s (median and min-max of "
               "the per-round ratios)" % what,
               "ratio, log scale (above 1: ours is faster)",
               keys_for(lambda wl, m, ms=metrics: is_rate(wl, m, ms)),
               ratio_series(metrics), one=True)

    for fam in ("lookup", "churn", "grow", "storm"):
        for suffix, metric, what in (
                ("", "cpu_ops_per_s", "per CPU second"),
                ("_wall", "wall_ops_per_s", "per wall-clock second")):
            def pred(wl, m, fam=fam, metric=metric):
                return (m == metric and family_of(wl) == fam and
                        "storm_ratio" not in wl)
            p.plot(fam + suffix, "%s: operations %s (median and min-max "
                   "over the rounds)" % (fam, what),
                   "operations %s (log scale)" % what, keys_for(pred),
                   contender_series(metric))
    p.plot("storm_ratio", "lookups per CPU second during a resize storm / "
           "without one (median and min-max over the rounds)",
           "ratio (log scale)",
           keys_for(lambda wl, m: m == "cpu_ops_per_s" and
                    "storm_ratio" in wl),
           contender_series("cpu_ops_per_s"), one=True)
    p.plot("life", "tables set up, filled and destroyed per second (median "
           "and min-max over the rounds)", "tables per second (log scale)", keys_for(lambda wl, m: m == "tables_per_s"),
           contender_series("tables_per_s"))
    p.plot("memory", "table memory per entry (median and min-max over the "
           "rounds)", "bytes per entry",
           keys_for(lambda wl, m: m == "bytes_per_entry"),
           contender_series("bytes_per_entry"), log=False)
    plot_timeline(p, out)
    if p.failed:
        sys.exit(1)
    print("bench_plot: graphs in %s/*.png, gnuplot scripts in %s" %
          (out, p.dir), file=sys.stderr)


if __name__ == "__main__":
    main()
