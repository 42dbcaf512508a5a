#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print a file as it stood before a later patch of the series.

Usage: filter.py NAME FILE

lab/tree.sh takes "path@NAME" on a Files: line to mean this output:
an earlier patch gets the file without what a later patch adds, and the
later patch (listing the plain path) adds exactly that.  So the series
stays incremental while the repo keeps only the final files.

  notrace   without the tracepoints: no CREATE_TRACE_POINTS block and no
            trace_rhashtable_*() statements.
"""
import re
import sys


def notrace(text):
    text = text.replace('#define CREATE_TRACE_POINTS\n'
                        '#include <trace/events/rhashtable.h>\n\n', '')
    # A statement may span lines: drop from its start to its ");".
    text = re.sub(r'\n[ \t]*trace_rhashtable_\w+\((?:[^;]|\n)*?\);[ \t]*(?=\n)',
                  '', text)
    if 'trace_rhashtable_' in text or 'CREATE_TRACE_POINTS' in text:
        sys.exit('filter: notrace left a tracepoint behind')
    return text


FILTERS = {'notrace': notrace}

if __name__ == '__main__':
    if len(sys.argv) != 3 or sys.argv[1] not in FILTERS:
        sys.exit(__doc__)
    with open(sys.argv[2]) as f:
        sys.stdout.write(FILTERS[sys.argv[1]](f.read()))
