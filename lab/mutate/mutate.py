#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
make mutate: put each mutation of mutations.py into a scratch copy of the
repository and run the tests against it, cheapest first, until one fails:

  kunit        the KUnit suites in userspace, under ASAN and TSAN
  stress-asan  the stress test, 5 s plain and 5 s rhltable, ASAN+UBSAN
  stress-tsan  the same under TSAN
  fuzz         the fuzzer, 30 s, from the seed corpus
  uml          the KUnit suites in the UML kernel (make kunit)

A layer that fails or hangs kills the mutation; one that does not compile
is reported as NO-BUILD and not counted as killed.  Prints each mutation
with the layer that killed it, or SURVIVED, and the kill rate; writes the same to
out/mutate/report.txt.  Usage: mutate.py [ID...] (default: all).
"""
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from mutations import MUTATIONS  # noqa: E402

WORK = os.environ.get('RHT_WORK', os.path.expanduser('~/.cache/rhashtable'))
KSRC = os.path.join(WORK, 'linux')
SCRATCH = os.path.join(WORK, 'mutate', 'src')
OUT = os.path.join(WORK, 'mutate', 'out')
H = os.path.join(SCRATCH, 'tools/testing/rhashtable')
B = os.path.join(OUT, 'build')


# As tools/testing/rhashtable/Makefile runs them.
SAN_ENV = dict(
    os.environ,
    ASAN_OPTIONS='abort_on_error=1 detect_leaks=1',
    UBSAN_OPTIONS='print_stacktrace=1:halt_on_error=1',
    TSAN_OPTIONS='halt_on_error=1 second_deadlock_stack=1 suppressions=' +
    os.path.join(REPO, 'tools/testing/rhashtable/tsan.supp'))


def run(cmd, timeout, log):
    """Run @cmd; True if it passed.  A timeout is a failure."""
    with open(log, 'a') as f:
        f.write('$ %s\n' % ' '.join(cmd))
        f.flush()
        try:
            return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT,
                                  env=SAN_ENV,
                                  timeout=timeout).returncode == 0
        except subprocess.TimeoutExpired:
            f.write('TIMEOUT after %d s\n' % timeout)
            return False


def hmake(target, log):
    return run(['make', '-s', '-C', H, 'KSRC=' + KSRC, 'O=' + OUT, target],
               900, log)


def layer_kunit(log):
    """The KUnit suites under ASAN+UBSAN and TSAN, as make harness runs them."""
    return all(hmake('%s/%s/kunit' % (B, kind), log) and
               run(['%s/%s/kunit' % (B, kind)], 300, log)
               for kind in ('asan', 'tsan'))


def layer_stress(kind):
    """The stress test, plain table then rhltable, 5 s each."""
    def layer(log):
        binary = '%s/%s/stress' % (B, kind)
        return hmake(binary, log) and \
            run([binary, '-d', '5'], 180, log) and \
            run([binary, '-L', '-d', '5'], 180, log)
    return layer


def layer_fuzz(log):
    seeds = os.path.join(OUT, 'fuzz/seeds')
    if not os.path.isdir(seeds):
        os.makedirs(seeds)
        if not run(['sh', H + '/scripts/gen-seeds.sh', seeds], 60, log):
            return False
    corpus = os.path.join(OUT, 'fuzz/corpus')
    shutil.rmtree(corpus, ignore_errors=True)
    os.makedirs(corpus)
    return hmake(B + '/fuzz/fuzz', log) and \
        run([B + '/fuzz/fuzz', '-max_total_time=30', '-timeout=30',
             '-artifact_prefix=' + os.path.join(OUT, 'fuzz') + '/',
             '-max_len=4096', corpus, seeds], 120, log)


def layer_uml(log):
    env = dict(os.environ, RHT_WORK=WORK)
    with open(log, 'a') as f:
        try:
            return subprocess.run(['make', '-C', SCRATCH, 'kunit'], env=env,
                                  stdout=f, stderr=subprocess.STDOUT,
                                  timeout=1500).returncode == 0
        except subprocess.TimeoutExpired:
            f.write('TIMEOUT\n')
            return False


LAYERS = [('kunit', layer_kunit), ('stress-asan', layer_stress('asan')),
          ('stress-tsan', layer_stress('tsan')), ('fuzz', layer_fuzz),
          ('uml', layer_uml)]


def copy_repo():
    """The working tree as it is (committed or not), without out/."""
    os.makedirs(SCRATCH, exist_ok=True)
    # With .git: lab/tree.sh asks git which files a series entry names.
    subprocess.run(['rsync', '-a', '--delete', '--exclude=/out',
                    REPO + '/', SCRATCH + '/'], check=True)


def main():
    want = set(sys.argv[1:])
    muts = [m for m in MUTATIONS if not want or m['id'] in want]
    os.makedirs(os.path.join(REPO, 'out/mutate'), exist_ok=True)
    logdir = os.path.join(REPO, 'out/mutate')
    # Every mutation must apply exactly once to today's sources.
    for m in muts:
        text = open(os.path.join(REPO, m['file'])).read()
        if text.count(m['old']) != 1:
            sys.exit('mutate: %s: text found %d times in %s' %
                     (m['id'], text.count(m['old']), m['file']))
    copy_repo()
    # Every layer must pass on the sources as they are, or a kill means
    # nothing.
    log = os.path.join(logdir, 'baseline.log')
    open(log, 'w').close()
    for name, layer in LAYERS:
        if not layer(log):
            sys.exit('mutate: the %s layer fails without a mutation (%s)' %
                     (name, log))
    print('mutate: every layer passes on the sources as they are',
          flush=True)
    start, killed, lines = time.time(), 0, []
    for m in muts:
        path = os.path.join(SCRATCH, m['file'])
        orig = open(path).read()
        with open(path, 'w') as f:
            f.write(orig.replace(m['old'], m['new']))
        log = os.path.join(logdir, m['id'] + '.log')
        open(log, 'w').close()
        t0, by = time.time(), None
        # A mutation that does not compile tests nothing: it is an error
        # in mutations.py, not a kill.
        if not hmake(os.path.join(B, 'asan/rhashtable.o'), log):
            by = 'NO-BUILD'
        for name, layer in LAYERS if not by else []:
            if not layer(log):
                by = name
                break
        with open(path, 'w') as f:
            f.write(orig)
        killed += by not in (None, 'NO-BUILD')
        line = '%-28s %-13s %-12s %4.0fs  %s' % (
            m['id'], m['cls'], by or 'SURVIVED', time.time() - t0, m['why'])
        print('mutate: ' + line, flush=True)
        lines.append(line)
    summary = 'mutate: %d of %d mutations killed (%.0f%%) in %.0f min' % (
        killed, len(muts), 100.0 * killed / max(len(muts), 1),
        (time.time() - start) / 60)
    print(summary)
    with open(os.path.join(logdir, 'report.txt'), 'w') as f:
        f.write('\n'.join(lines + [summary]) + '\n')
    # Put the tree back to the real sources.
    subprocess.run(['make', '-s', '-C', REPO, 'tree'], check=False,
                   stdout=subprocess.DEVNULL)
    return 0 if killed == len(muts) else 1


if __name__ == '__main__':
    sys.exit(main())
