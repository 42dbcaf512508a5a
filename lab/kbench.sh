#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: lab/kbench.sh [um|x86_64]
#
# "make bench-kernel": build lab/kbench/rht_kbench.c into the pristine
# 6.12 tree and into ours, with the same configuration, boot both and
# print their "rht-bench" lines side by side with the ratio ours/stock.
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

# run <name> <revision> <Kconfig symbol>
run() {
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
	echo "kbench: $name ($rev) on $arch"
	(cd "$wt" && python3 tools/testing/kunit/kunit.py run "${args[@]}" \
		--build_dir="$out/build-$name" --kunitconfig="$out/$name.kunitconfig" \
		--jobs="${JOBS:-$(nproc)}" --timeout=1200 rhashtable_kbench) \
		> "$out/$name.log" 2>&1 || { tail -20 "$out/$name.log"; exit 1; }
	grep -o 'rht-bench .*' "$out/build-$name/test.log" > "$out/$name.txt"
}

run stock rht-base TEST_RHASHTABLE
run ours rht RHASHTABLE_KUNIT_TEST

python3 - "$out/stock.txt" "$out/ours.txt" <<'PY'
import re, sys
def load(path):
    res = {}
    for line in open(path):
        m = re.match(r'rht-bench (\S+) threads=(\d+) entries=(\d+) ops_per_sec=(\d+)', line)
        if m:
            res[m.group(1, 2, 3)] = int(m.group(4))
    return res
stock, ours = load(sys.argv[1]), load(sys.argv[2])
print(f"{'workload':<16} {'threads':>7} {'entries':>8} {'stock':>12} {'ours':>12} {'ours/stock':>10}")
for key in stock:
    s, o = stock[key], ours.get(key, 0)
    ratio = f"{o / s:.2f}" if s else "-"
    print(f"{key[0]:<16} {key[1]:>7} {key[2]:>8} {s:>12} {o:>12} {ratio:>10}")
PY
