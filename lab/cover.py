#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fill the cover letter git format-patch made with lab/series/cover-letter.txt.

Usage: cover.py out/patches/0000-cover-letter.patch lab/series/cover-letter.txt
The text file is a Subject: line, a blank line and the body; a line
@BENCHMARKS@ in it becomes the table of the newest lab/results run.
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_table  # noqa: E402

patch, text = sys.argv[1], open(sys.argv[2]).read()
head, body = text.split('\n\n', 1)
# @BENCHMARKS@: the figures of the newest run kept in lab/results.
if '@BENCHMARKS@' in body:
    runs = sorted(glob.glob(os.path.join(os.path.dirname(
        os.path.abspath(__file__)), 'results', 'results-*.csv')))
    if not runs:
        sys.exit('cover: no lab/results/results-*.csv for @BENCHMARKS@')
    table = bench_table.brief(*bench_table.read_run(runs[-1]))
    body = body.replace('@BENCHMARKS@', table)
subject = head.split(':', 1)[1].strip()
letter = open(patch).read()
for mark, value in (('*** SUBJECT HERE ***', subject),
                    ('*** BLURB HERE ***', body.rstrip('\n'))):
    if letter.count(mark) != 1:
        sys.exit('cover: %s: no single %r' % (patch, mark))
    letter = letter.replace(mark, value)
open(patch, 'w').write(letter)
