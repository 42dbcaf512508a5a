#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the console log of a kunit.py run (BUILD_DIR/test.log).

Prints the KUnit totals, every suite's result and every line with
"rht-summary" or "rht-stress", and every kernel splat (lockdep, RCU,
KASAN, KCSAN, warnings, oopses, ...) except the known harmless ones in
ALLOWED.  Exits 0 only if kunit.py succeeded (--kunit-status), at least
one test ran, none failed and the log has no splat.  With --summary it
prints only the totals and the rht- lines.
"""
import argparse
import re
import sys

SPLATS = re.compile(
    r'BUG:|WARNING:|Oops|Call Trace|possible recursive locking|'
    r'circular locking|inconsistent lock state|suspicious RCU usage|'
    r'sleeping function called from invalid context|KASAN:|KCSAN:|'
    r'UBSAN:|kernel BUG|INFO: task|rcu_sched detected stall|rcu: INFO|'
    r'general protection|Kernel panic')

# Known splats that are not ours, by the exact text of one of their lines
# (timestamp stripped).  The whole "cut here" ... "end trace" block that
# holds such a line is allowed.
ALLOWED = [
    # UML, arch/um/drivers/virt-pci.c um_pci_init(): kunit.py's UML config
    # enables UML_PCI_OVER_VIRTIO without a device ID.
    'No virtio device ID configured for PCI - no PCI support',
]

TIMESTAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')
RESULT = re.compile(r'^( *)(ok|not ok) \d+ (.*?)( # .*)?$')
SUBTEST = re.compile(r'^( *)# Subtest: ')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('log')
    ap.add_argument('--kunit-status', type=int, default=0,
                    help="kunit.py's exit status")
    ap.add_argument('--summary', action='store_true',
                    help='print only the totals and rht- lines')
    args = ap.parse_args()

    try:
        with open(args.log, errors='replace') as f:
            lines = [TIMESTAMP.sub('', l.rstrip('\n')) for l in f]
    except OSError as e:
        print(f'checklog: FAIL: no log: {e}')
        return 1

    passed = failed = skipped = 0
    suites, rht, splats, allowed = [], [], [], []
    open_subtests = set()       # indents of "# Subtest:" not closed yet
    block = []                  # lines of the current "cut here" block
    for n, line in enumerate(lines, 1):
        if 'rht-summary' in line or 'rht-stress' in line:
            rht.append(line.strip())
        m = SUBTEST.match(line)
        if m:
            open_subtests.add(len(m.group(1)))
        m = RESULT.match(line)
        if m:
            indent, ok, name, rest = m.groups()
            if len(indent) + 4 in open_subtests:    # end of a suite
                open_subtests.discard(len(indent) + 4)
                if indent == '':
                    suites.append(f'{ok} {name}')
            elif ok == 'not ok':
                failed += 1
            elif rest and 'SKIP' in rest:
                skipped += 1
            else:
                passed += 1
        if 'cut here ]' in line:
            block = [(n, line)]
        elif block:
            block.append((n, line))
        elif SPLATS.search(line):
            splats.append(f'{args.log}:{n}: {line}')
        if block and ('---[ end trace' in line or n == len(lines)):
            known = [l.strip() for _, l in block if l.strip() in ALLOWED]
            if known:
                allowed += known
            else:
                splats += [f'{args.log}:{i}: {l}' for i, l in block
                           if SPLATS.search(l)]
            block = []

    for line in rht:
        print(line)
    if not args.summary:
        for s in suites:
            print(f'suite: {s}')
        for a in allowed:
            print(f'checklog: allowed known splat: {a}')
        for s in splats:
            print(f'checklog: splat: {s}')
    problems = []
    if args.kunit_status:
        problems.append(f'kunit.py exited {args.kunit_status}')
    if passed + failed == 0:
        problems.append('no test ran')
    if failed:
        problems.append(f'{failed} test(s) failed')
    if splats:
        problems.append(f'{len(splats)} splat line(s)')
    print('checklog: ' + ('FAIL: ' + '; '.join(problems) if problems
                          else 'clean'))
    print(f'kunit: {passed} passed, {failed} failed, {skipped} skipped')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
