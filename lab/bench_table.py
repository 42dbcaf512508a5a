#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
The README's benchmark table, printed from a results.csv of make bench
(tools/testing/rhashtable/scripts/bench_report.py), so that the figures
in the README are the ones of the run and nobody types them.

usage: bench_table.py [out/bench]

One row per figure: ours / stock, ours / cds_lfht and ours / plain, each
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


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else 'out/bench'
    with open(os.path.join(out, 'results.csv'), newline='') as f:
        rows = list(csv.DictReader(f))
    meta = {}
    try:
        with open(os.path.join(out, 'meta.txt')) as f:
            meta = dict(line.rstrip('\n').split('=', 1) for line in f
                        if '=' in line)
    except OSError:
        pass
    idx = {(r['workload'], r['contender'], r['threads'], r['entries'],
            r['metric']): r for r in rows}

    def ratios(wl, t, n, metric):
        return ' | '.join(cell(idx.get((wl, c, str(t), str(n), metric)))
                          for c in ('stock', 'cds_lfht', 'plain'))
    print('Run of %s, %s CPUs %s, %s rounds; per CPU second, median '
          '(min–max) of the per-round ratios:\n' %
          (meta.get('date', '?'), meta.get('cpus', '?'),
           meta.get('arch', '?'), meta.get('rounds', '?')))
    print('| workload | threads | entries | ours/stock | ours/cds_lfht '
          '| ours/plain |')
    print('| --- | --- | --- | --- | --- | --- |')
    seen = sorted({(r['workload'], int(r['threads']), int(r['entries']))
                   for r in rows})
    for wl, name in NAMES:
        metric = 'tables_per_s' if wl.startswith('life') else 'cpu_ops_per_s'
        for w, t, n in seen:
            if w != wl:
                continue
            print('| %s | %d | %s | %s |' % (name, t, size(n),
                                             ratios(wl, t, n, metric)))
    for w, t, n in seen:
        if w == 'lookup_resize_storm_ratio_u32':
            o = idx.get((w, 'ours', str(t), str(n), 'cpu_ops_per_s'))
            s = idx.get((w, 'stock', str(t), str(n), 'cpu_ops_per_s'))
            if o and s:
                print('| storm / calm lookups (ours, stock) | %d | %s | '
                      '%.2f, %.2f | | |' % (t, size(n), float(o['median']),
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
                print('| %s (ours, count) | %d | %s | %s | | |' % (
                    w[len('grow_'):-len('_u32')].replace('_', ' '), t,
                    size(n), r['median']))


if __name__ == '__main__':
    main()
