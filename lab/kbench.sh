#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: lab/kbench.sh [um|x86_64]
#
# "make bench-kernel": build lab/kbench/rht_kbench.c into the pristine
# 6.12 tree and into ours, with the same configuration, boot each ROUNDS
# times (default 5, alternating) and print the medians and the ratio
# ours/stock of each round paired with the other kernel's run of the
# same round: median, min and max.  Also written to results.csv.
# The benchmark takes the place of lib/test_rhashtable.c in two git
# worktrees of $RHT_WORK/linux, so neither kernel needs a Kconfig change:
# stock builds it as CONFIG_TEST_RHASHTABLE, ours as
# CONFIG_RHASHTABLE_KUNIT_TEST.
set -euo pipefail
lab=$(cd "$(dirname "$0")" && pwd)
work=${RHT_WORK:-$HOME/.cache/rhashtable}
tree=$work/linux
arch=${1:-um}
out=$work/kbench-$arch
mkdir -p "$out"

case $arch in
um)	args=(--arch=um) ;;
x86_64)	args=(--arch=x86_64 --qemu_config="$lab/kunit/qemu_x86_64_smp2.py") ;;
*)	echo "kbench: unknown arch '$arch'" >&2; exit 2 ;;
esac

ROUNDS=${ROUNDS:-5}

# build <name> <revision> <Kconfig symbol>
build() {
	local name=$1 rev=$2 sym=$3 wt=$work/kbench-$1
	if [ ! -d "$wt" ]; then
		git -C "$tree" worktree add -q -f --detach "$wt" "$rev" >/dev/null
	fi
	git -C "$wt" checkout -q -f --detach "$rev"
	cmp -s "$lab/kbench/rht_kbench.c" "$wt/lib/test_rhashtable.c" ||
		cp "$lab/kbench/rht_kbench.c" "$wt/lib/test_rhashtable.c"
	{
		echo CONFIG_KUNIT=y
		echo "CONFIG_$sym=y"
		[ "$arch" = x86_64 ] && echo CONFIG_SMP=y
		true
	} > "$out/$name.kunitconfig"
	echo "kbench: building $name ($rev) for $arch"
	(cd "$wt" && python3 tools/testing/kunit/kunit.py build "${args[@]}" \
		--build_dir="$out/build-$name" --kunitconfig="$out/$name.kunitconfig" \
		--jobs="${JOBS:-$(nproc)}") \
		> "$out/$name.log" 2>&1 || { tail -20 "$out/$name.log"; exit 1; }
}

# boot <name> <round>: one run of the benchmark, its lines in <name>.<round>.txt
boot() {
	local name=$1 r=$2 wt=$work/kbench-$1
	(cd "$wt" && python3 tools/testing/kunit/kunit.py exec "${args[@]}" \
		--build_dir="$out/build-$name" --timeout=1200 rhashtable_kbench) \
		> "$out/$name.$r.log" 2>&1 || { tail -20 "$out/$name.$r.log"; exit 1; }
	grep -oE 'rht-(bench|detail) .*' "$out/build-$name/test.log" > "$out/$name.$r.txt"
}

build stock rht-base TEST_RHASHTABLE
build ours rht RHASHTABLE_KUNIT_TEST
# Boots alternate, the first one changing sides every round, so that a
# slow phase of the host hits both kernels alike.
for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then boot stock "$r"; boot ours "$r"
	else boot ours "$r"; boot stock "$r"; fi
	echo "kbench: round $r/$ROUNDS done"
done

python3 - "$out" "$ROUNDS" "$arch" <<'PY'
import re, statistics, sys
out, rounds, arch = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def load(path):
    res = {}
    for line in open(path):
        m = re.match(r'rht-bench (\S+) threads=(\d+) entries=(\d+) ops_per_sec=(\d+)', line)
        if m:
            res[m.group(1, 2, 3)] = int(m.group(4))
    return res
runs = {n: [load(f"{out}/{n}.{r}.txt") for r in range(1, rounds + 1)]
        for n in ('stock', 'ours')}
rows = ["workload,threads,entries,stock_median,ours_median,ratio_median,ratio_min,ratio_max"]
print(f"in-kernel benchmark, {arch}, {rounds} paired rounds; ratio = ours/stock per round"
      " (for sizeof_rhashtable, bytes: lower is better)")
print(f"{'workload':<18} {'thr':>3} {'entries':>8} {'stock':>11} {'ours':>11} "
      f"{'ratio':>6} {'min':>6} {'max':>6}")
for key in runs['stock'][0]:
    s = [run.get(key, 0) for run in runs['stock']]
    o = [run.get(key, 0) for run in runs['ours']]
    ratios = [b / a for a, b in zip(s, o) if a]
    if not ratios:
        continue
    med = statistics.median(ratios)
    print(f"{key[0]:<18} {key[1]:>3} {key[2]:>8} {statistics.median(s):>11.0f} "
          f"{statistics.median(o):>11.0f} {med:>6.2f} {min(ratios):>6.2f} {max(ratios):>6.2f}")
    rows.append(f"{key[0]},{key[1]},{key[2]},{statistics.median(s):.0f},"
                f"{statistics.median(o):.0f},{med:.3f},{min(ratios):.3f},{max(ratios):.3f}")
with open(f"{out}/results.csv", "w") as f:
    f.write("\n".join(rows) + "\n")
PY
