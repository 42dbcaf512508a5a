#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fill the cover letter git format-patch made with lab/series/cover-letter.txt.

Usage: cover.py out/patches/0000-cover-letter.patch lab/series/cover-letter.txt
The text file is a Subject: line, a blank line and the body.
"""
import sys

patch, text = sys.argv[1], open(sys.argv[2]).read()
head, body = text.split('\n\n', 1)
subject = head.split(':', 1)[1].strip()
letter = open(patch).read()
for mark, value in (('*** SUBJECT HERE ***', subject),
                    ('*** BLURB HERE ***', body.rstrip('\n'))):
    if letter.count(mark) != 1:
        sys.exit('cover: %s: no single %r' % (patch, mark))
    letter = letter.replace(mark, value)
open(patch, 'w').write(letter)
