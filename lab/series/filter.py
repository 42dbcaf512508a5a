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
  notest    without the KUnit hooks: each
            "#if IS_ENABLED(CONFIG_RHASHTABLE_KUNIT_TEST)" block becomes its
            #else part (the no-op hooks), or nothing, and the include of
            <kunit/visibility.h> goes.  The Kconfig symbol arrives with the
            suites, so no earlier patch may name it.
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


KUNIT_IF = '#if IS_ENABLED(CONFIG_RHASHTABLE_KUNIT_TEST)\n'


def notest(text):
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


FILTERS = {'notrace': notrace, 'notest': notest}

if __name__ == '__main__':
    names = sys.argv[1].split('+') if len(sys.argv) == 3 else []
    if not names or any(n not in FILTERS for n in names):
        sys.exit(__doc__)
    with open(sys.argv[2]) as f:
        text = f.read()
    for n in names:
        text = FILTERS[n](text)
    sys.stdout.write(text)
