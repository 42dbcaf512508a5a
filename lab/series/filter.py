#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print a file as it stood before a later patch of the series.

Usage: filter.py NAME[+NAME...] FILE

lab/tree.sh takes "path@NAME" on a Files: line to mean this output:
an earlier patch gets the file without what a later patch adds, and the
later patch (listing the plain path) adds exactly that.  So the series
stays incremental while the repo keeps only the final files.

  notrace   without the tracepoints: no CREATE_TRACE_POINTS block and no
            trace_rhashtable_*() statements.
  nocompat  without the 3.17 interface: lab/series/compat.diff, which is
            what the patch adding that interface changes in each file,
            applied in reverse.  It must apply exactly (no fuzz); when an
            edit of the final files touches its context, print the old
            state with this filter before the edit, apply the same edit
            to it, and write the diff again from the two states.  Name it
            first: the other filters work on what it leaves.
  notest    without the KUnit hooks: each
            "#if IS_ENABLED(CONFIG_RHASHTABLE_KUNIT_TEST)" block becomes its
            #else part (the no-op hooks), or nothing, and the include of
            <kunit/visibility.h> goes.  The Kconfig symbol arrives with the
            suites, so no earlier patch may name it.
"""
import os
import re
import subprocess
import sys
import tempfile


def notrace(text, path):
    text = text.replace('#define CREATE_TRACE_POINTS\n'
                        '#include <trace/events/rhashtable.h>\n\n', '')
    # A statement may span lines: drop from its start to its ");".
    text = re.sub(r'\n[ \t]*trace_rhashtable_\w+\((?:[^;]|\n)*?\);[ \t]*(?=\n)',
                  '', text)
    if 'trace_rhashtable_' in text or 'CREATE_TRACE_POINTS' in text:
        sys.exit('filter: notrace left a tracepoint behind')
    return text


KUNIT_IF = '#if IS_ENABLED(CONFIG_RHASHTABLE_KUNIT_TEST)\n'


def notest(text, path):
    text = text.replace('#include <kunit/visibility.h>\n', '')
    # The blocks hold no nested #if: the first #else/#endif after the
    # #if is its own.
    block = re.compile(re.escape(KUNIT_IF) +
                       r'(?:(?!#if|#else|#endif).*\n)*?'
                       r'(?:#else\n((?:(?!#if|#else|#endif).*\n)*?))?'
                       r'#endif\n\n?')
    text = block.sub(lambda m: m.group(1) + '\n' if m.group(1) else '',
                     text)
    if 'RHASHTABLE_KUNIT_TEST' in text or 'EXPORT_SYMBOL_IF_KUNIT' in text:
        sys.exit('filter: notest left a KUnit hook behind')
    return text


COMPAT_DIFF = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           'compat.diff')


def nocompat(text, path):
    """The file before lab/series/compat.diff's part for @path."""
    with open(COMPAT_DIFF) as f:
        diff = f.read()
    parts = re.split(r'(?m)^(?=--- a/)', diff)
    mine = [p for p in parts if p.startswith(f'--- a/{path}\n')]
    if len(mine) != 1:
        sys.exit(f'filter: compat.diff has no part for {path}')
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, 'src'), os.path.join(d, 'out')
        with open(src, 'w') as f:
            f.write(text)
        r = subprocess.run(['patch', '-R', '-s', '-F0', '-o', out, src],
                           input=mine[0], text=True, capture_output=True)
        if r.returncode:
            sys.exit(f'filter: compat.diff does not unapply from {path}:\n'
                     + r.stdout + r.stderr)
        with open(out) as f:
            text = f.read()
    if re.search(r'3\.17|grow_decision|max_shift|mutex_is_held\(\)', text):
        sys.exit(f'filter: nocompat left the 3.17 interface in {path}')
    return text


FILTERS = {'notrace': notrace, 'notest': notest, 'nocompat': nocompat}

if __name__ == '__main__':
    names = sys.argv[1].split('+') if len(sys.argv) == 3 else []
    if (not names or 'nocompat' in names[1:] or
            any(n not in FILTERS for n in names)):
        sys.exit(__doc__)
    with open(sys.argv[2]) as f:
        text = f.read()
    for n in names:
        text = FILTERS[n](text, sys.argv[2])
    sys.stdout.write(text)
