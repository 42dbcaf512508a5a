#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
The README's benchmark table, printed from a results.csv of make bench
(lab/bench/bench_report.py), so that the figures
in the README are the ones of the run and nobody types them.

usage: bench_table.py [--brief] [out/bench | lab/results/results-DATE.csv]

--brief prints medians only, in fixed columns, for the cover letter.

One row per figure: ours over stock, stock-cmp, cds_lfht and plain, each
the median of the per-round ratios of operations per CPU second, with the
smallest and largest round in brackets; memory in bytes per entry (lower
is better); the storm row is lookups during a resize storm over the same
lookups without one, ours beside stock; counts are ours, per fill.
"""
import csv
import os
import sys

NAMES = [
    ('lookup_pos_u32', 'lookup, hit, u32 key'),
    ('lookup_pos_k16', 'lookup, hit, 16-byte key'),
    ('lookup_neg_u32', 'lookup, miss, u32 key'),
    ('lookup_neg_k16', 'lookup, miss, 16-byte key'),
    ('churn_u32', 'insert+remove churn'),
    ('grow_u32', 'grow from empty, inserters'),
    ('grow_settled_u32', 'grow from empty, until settled'),
    ('grow_worker_u32', 'grow from empty, resizing CPU'),
    ('lookup_resize_storm_u32', 'lookups during a resize storm'),
    ('life_u32', 'create, fill 16, destroy'),
    ('life_resized_u32', 'the same, resized in between'),
]


def size(n):
    n = int(n)
    if n >= 1 << 20:
        return '%dM' % (n >> 20)
    if n >= 1 << 10:
        return '%dK' % (n >> 10)
    return str(n)


def cell(r):
    if not r or not r['ours_over']:
        return '–'
    return '%.2f (%.2f–%.2f)' % (float(r['ours_over']),
                                 float(r['ours_over_min']),
                                 float(r['ours_over_max']))


def read_run(out):
    """Rows of a results.csv and its meta.txt; @out is the run's directory,
    or a kept copy lab/results/results-DATE.csv (meta-DATE.txt beside)."""
    if out.endswith('.csv'):
        csv_path = out
        meta_path = os.path.join(os.path.dirname(out), os.path.basename(
            out).replace('results-', 'meta-').replace('.csv', '.txt'))
    else:
        csv_path = os.path.join(out, 'results.csv')
        meta_path = os.path.join(out, 'meta.txt')
    with open(csv_path, newline='') as f:
        rows = list(csv.DictReader(f))
    meta = {}
    try:
        with open(meta_path) as f:
            meta = dict(line.rstrip('\n').split('=', 1) for line in f
                        if '=' in line)
    except OSError:
        pass
    return rows, meta


CONTENDERS = ('stock', 'stock-cmp', 'cds_lfht', 'plain')


def index(rows):
    return {(r['workload'], r['contender'], r['threads'], r['entries'],
             r['metric']): r for r in rows}


def rate_rows(rows, idx):
    """(name, threads, entries, [row of ours over each contender]) per
    rate figure, in the order of NAMES."""
    seen = sorted({(r['workload'], int(r['threads']), int(r['entries']))
                   for r in rows})
    for wl, name in NAMES:
        metric = 'tables_per_s' if wl.startswith('life') else 'cpu_ops_per_s'
        for w, t, n in seen:
            if w == wl:
                yield name, t, n, [idx.get((wl, c, str(t), str(n), metric))
                                   for c in CONTENDERS]


def brief(rows, meta):
    """The same figures for an email: medians only, fixed width."""
    lines = ['userspace harness, %s, %s CPUs %s, %s rounds; ours over each'
             % (meta.get('date', '?'), meta.get('cpus', '?'),
                meta.get('arch', '?'), meta.get('rounds', '?')),
             'contender per CPU second, median of the per-round ratios:', '',
             '%-34s %3s %4s %6s %6s %6s %6s' % (('workload', 'thr', 'n') +
                                                ('stock', 's-cmp', 'lfht', 'plain'))]
    for name, t, n, cells in rate_rows(rows, index(rows)):
        lines.append('%-34s %3d %4s %6s %6s %6s %6s' % (
            (name[:34], t, size(n)) +
            tuple('%.2f' % float(r['ours_over']) if r and r['ours_over']
                  else '-' for r in cells)))
    return '\n'.join(lines)


def main():
    args = [a for a in sys.argv[1:] if a != '--brief']
    rows, meta = read_run(args[0] if args else 'out/bench')
    if '--brief' in sys.argv:
        print(brief(rows, meta))
        return
    idx = index(rows)

    def ratios(wl, t, n, metric):
        return ' | '.join(cell(idx.get((wl, c, str(t), str(n), metric)))
                          for c in CONTENDERS)
    print('Run of %s, %s CPUs %s, %s rounds; per CPU second, median '
          '(min–max) of the per-round ratios:\n' %
          (meta.get('date', '?'), meta.get('cpus', '?'),
           meta.get('arch', '?'), meta.get('rounds', '?')))
    print('| workload | threads | entries | ours/stock | ours/stock-cmp '
          '| ours/cds_lfht | ours/plain |')
    print('| --- | --- | --- | --- | --- | --- | --- |')
    for name, t, n, cells in rate_rows(rows, idx):
        print('| %s | %d | %s | %s |' % (name, t, size(n),
                                         ' | '.join(map(cell, cells))))
    seen = sorted({(r['workload'], int(r['threads']), int(r['entries']))
                   for r in rows})
    for w, t, n in seen:
        if w == 'lookup_resize_storm_ratio_u32':
            o = idx.get((w, 'ours', str(t), str(n), 'cpu_ops_per_s'))
            s = idx.get((w, 'stock', str(t), str(n), 'cpu_ops_per_s'))
            if o and s:
                print('| storm / calm lookups (ours, stock) | %d | %s | '
                      '%.2f, %.2f | | | |' % (t, size(n), float(o['median']),
                                            float(s['median'])))
    for w, t, n in seen:
        if w.startswith('memory_bytes_per_entry'):
            o = idx.get((w, 'ours', str(t), str(n), 'bytes_per_entry'))
            print('| memory, bytes per entry (ours %.1f) | %d | %s | %s |' % (
                float(o['median']) if o else 0, t, size(n),
                ratios(w, t, n, 'bytes_per_entry')))
    for w, t, n in seen:
        if w.startswith('grow_') and w.endswith('_u32') and \
                ('grow_resizes' in w or 'grow_rehashes' in w or
                 'grow_reseeds' in w or 'grow_unzip' in w):
            r = idx.get((w, 'ours', str(t), str(n), 'count'))
            if r:
                print('| %s (ours, count) | %d | %s | %s | | | |' % (
                    w[len('grow_'):-len('_u32')].replace('_', ' '), t,
                    size(n), r['median']))


if __name__ == '__main__':
    main()
