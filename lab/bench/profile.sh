#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Where a lookup's time goes, without a PMU: run the lookup figures of the
# bench programs under callgrind with its cache simulation and print, per
# lookup, the instructions executed (Ir), the data reads (Dr), and the
# simulated first-level and last-level data read misses (D1mr, DLmr), for
# ours, stock 6.12 with the inlined compare (stock-cmp) and the plain
# table.  The counts are exact for the instructions and a model for the
# misses (the host's first-level cache, an 8 MiB last level); they are what a
# timing can only hint at on a shared 2-CPU machine.
#
# usage: profile.sh BENCH_DIR    (BENCH_DIR/build/IMPL/bench/bench)
# Environment: SIZES ("65536 1048576"), KEYS ("u32 k16"), LL (the
# last-level cache callgrind models: "--LL=8388608,16,64", 8 MiB 16-way,
# since the VM reports a 512 MiB one that would hide every DRAM access)
set -e
export RHT_TEST_STALL_S=${RHT_TEST_STALL_S:-900}

dir=${1:?usage: profile.sh BENCH_DIR}
SIZES=${SIZES:-65536 1048576}
KEYS=${KEYS:-u32 k16}
LL=${LL:---LL=8388608,16,64}
command -v valgrind >/dev/null ||
	{ echo "profile: valgrind is missing (apt-get install valgrind)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One lookup kind of one contender: the inclusive cost of lookup_KEY()
# divided by the number of calls to it.
one() {	# binary contender label kind size key (kind: family_kind)
	"$1" -c "$2" -f "$4" -n "$5" -k "$6" -t 1 -d 0.5 -w 0.01 \
		>/dev/null 2>&1 || true	# warm the page cache of the binary
	valgrind --tool=callgrind --cache-sim=yes $LL \
		--callgrind-out-file="$tmp/cg" "$1" -c "$2" -f "$4" \
		-n "$5" -k "$6" -t 1 -d 0.5 -w 0.01 >/dev/null 2>"$tmp/vg" ||
		{ cat "$tmp/vg" >&2; exit 1; }
	callgrind_annotate --auto=no --show-percs=no --inclusive=yes --tree=caller \
		"$tmp/cg" \
		>"$tmp/ann" 2>/dev/null
	awk -v fn="lookup_$6" -v label="$3" -v kind="$4" -v n="$5" -v key="$6" '
	# The event columns, from the header line "Ir Dr Dw I1mr D1mr ...".
	/^Events shown:/ {
		for (i = 3; i <= NF; i++)
			col[$i] = i - 2
	}
	# "< ...:lookup_thread_KEY (NNNx)" right above the "*" line of
	# lookup_KEY (with or without the binary named after it)
	$0 ~ "< .*:lookup_thread_" key " \\(" {
		match($0, /\(([0-9,]+)x\)/)
		c = substr($0, RSTART + 1, RLENGTH - 3)
		gsub(",", "", c)
		calls = c
	}
	$0 ~ "\\* .*:" fn "( \\[|$)" && calls {
		# one field per event, "." for zero
		k = 0
		for (i = 1; i <= NF && $i != "*"; i++) {
			v = $i
			gsub(",", "", v)
			if (v == ".")
				v = 0
			val[++k] = v
		}
		printf "%-9s %-12s %-3s %8d %7.1f %6.1f %6.2f %6.2f\n", label,
		       kind, key, n, val[col["Ir"]] / calls,
		       val[col["Dr"]] / calls, val[col["D1mr"]] / calls,
		       val[col["DLmr"]] / calls
		exit
	}' "$tmp/ann"
}

echo "profile: callgrind, per lookup (inclusive of the hash), 1 thread"
echo "(lookup_*: a settled table; storm_*: 64K keys, calm, then while"
echo " another thread grows and shrinks the table; valgrind runs one"
echo " thread at a time and models one cache, so the storm rows count"
echo " the work a lookup does, not the lines the resizing CPU steals)"
printf "%-9s %-12s %-3s %8s %7s %6s %6s %6s\n" contender figure key \
	entries Ir Dr D1mr DLmr
for key in $KEYS; do
	for n in $SIZES; do
		for kind in lookup_pos lookup_neg; do
			one "$dir/build/ours/bench/bench" rht ours $kind $n $key
			one "$dir/build/stock-cmp/bench/bench" rht stock-cmp \
				$kind $n $key
			one "$dir/build/ours/bench/bench" plain plain $kind $n $key
		done
	done
done
for kind in storm_calm storm_only; do
	one "$dir/build/ours/bench/bench" rht ours $kind 65536 u32
	one "$dir/build/stock-cmp/bench/bench" rht stock-cmp $kind 65536 u32
done
