#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Drive the rhashtable benchmarks: run every figure ROUNDS times, the
# contenders one after the other in an order rotated every round, and
# write
#   $BENCH_OUT/raw.csv       every single run:
#                            round,workload,contender,threads,entries,
#                            metric,value
#   $BENCH_OUT/results.csv   per figure the median over the rounds and the
#                            ratios paired by round (ours in round r over
#                            the other contender in round r), as median,
#                            min and max: see lab/bench/bench_report.py for
#                            the columns
#   $BENCH_OUT/timeline.csv  the timeline family's samples, round first:
#                            round,tl,phase,contender,entries,ms,lookups,
#                            buckets,resizing (and tl-event lines)
#   $BENCH_OUT/meta.txt      the machine, the date and the settings
#   $BENCH_OUT/*.png         graphs (lab/bench/bench_plot.py), when gnuplot
#                            is installed; rerun that script to redraw
#
# usage: bench.sh BENCH_BINARY...
#   Each binary is one implementation (IMPL=stock, IMPL=stock-cmp,
#   IMPL=ours).  The stock binary also runs the reference contenders
#   (cds_lfht, plain).
#
# Environment: BENCH_OUT (default ./out/bench), ROUNDS (5), DUR (measured
# seconds per duration-bound figure, 2), WARMUP (seconds before each such
# window, 0.2), THREADS (1,<nproc>), FAMILIES (lookup churn grow storm
# memory life timeline), BENCH_QUICK=1 (DUR and WARMUP default to 0.1 and 0.05,
# no 1M-entry tables), RUN_LIMIT (seconds one contender may take for one
# figure, 300): a run that takes longer is stopped, noted in meta.txt and
# left out of that round's ratios, instead of stalling the whole benchmark
# (liburcu's cds_lfht has been seen to spin for minutes filling 1M 16-byte
# keys while its resize thread waited).
set -e

[ $# -ge 1 ] || { echo "usage: $0 BENCH_BINARY..." >&2; exit 2; }
OUT=${BENCH_OUT:-out/bench}
ROUNDS=${ROUNDS:-5}
NCPU=$(nproc 2>/dev/null || echo 2)
if [ "$NCPU" -gt 1 ]; then
	THREADS=${THREADS:-1,$NCPU}
else
	THREADS=${THREADS:-1}
fi
FAMILIES=${FAMILIES:-lookup churn grow storm memory life timeline}
HERE=$(cd "$(dirname "$0")" && pwd)
BIG=1048576
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	DUR=${DUR:-0.1}
	WARMUP=${WARMUP:-0.05}
	BIG=65536
fi
DUR=${DUR:-2}
WARMUP=${WARMUP:-0.2}
command -v python3 >/dev/null 2>&1 ||
	{ echo "bench.sh: python3 is needed for the report" >&2; exit 1; }
mkdir -p "$OUT"
RAW=$OUT/raw.csv
echo "round,workload,contender,threads,entries,metric,value" > "$RAW"
TL=$OUT/timeline.csv
: > "$TL"
{
	echo "cpus=$NCPU"
	echo "arch=$(uname -m)"
	echo "kernel=$(uname -r)"
	echo "cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' \
			  /proc/cpuinfo 2>/dev/null | head -1)"
	echo "date=$(date -u +%Y-%m-%d)"
	echo "rounds=$ROUNDS"
	echo "dur=$DUR"
	echo "warmup=$WARMUP"
	echo "threads=$THREADS"
	echo "families=$FAMILIES"
} > "$OUT/meta.txt"

# contenders: "label binary -c-argument"
CONT=$(mktemp)
ONE=$(mktemp)
trap 'rm -f "$CONT" "$ONE"' EXIT
for bin in "$@"; do
	[ -x "$bin" ] || { echo "bench.sh: $bin is not executable" >&2; exit 1; }
	case "$bin" in
	*/stock/*)
		echo "stock $bin rht" >> "$CONT"
		echo "cds_lfht $bin lfht" >> "$CONT"
		echo "plain $bin plain" >> "$CONT"
		;;
	*/stock-cmp/*)
		echo "stock-cmp $bin rht" >> "$CONT"
		;;
	*/ours/*)
		echo "ours $bin rht" >> "$CONT"
		;;
	*)
		echo "$(basename "$bin") $bin rht" >> "$CONT"
		;;
	esac
done
NCONT=$(wc -l < "$CONT")

# family entries keytype
configs() {
	for f in $FAMILIES; do
		case $f in
		lookup)
			for n in 1024 65536 $BIG; do
				echo "lookup $n u32"
				echo "lookup $n k16"
			done
			;;
		churn)	echo "churn 65536 u32" ;;
		grow)	echo "grow $BIG u32" ;;
		storm)	echo "storm 65536 u32" ;;
		life)	echo "life 16 u32" ;;
		timeline) echo "timeline $BIG u32" ;;
		memory)
			for n in 1024 65536 $BIG; do
				echo "memory $n u32"
			done
			;;
		esac
	done
}

start=$(date +%s)
r=1
while [ "$r" -le "$ROUNDS" ]; do
	configs | while read -r fam n kt; do
		# rotate the contender order every round
		i=0
		while [ "$i" -lt "$NCONT" ]; do
			line=$(( (i + r) % NCONT + 1 ))
			set -- $(sed -n "${line}p" "$CONT")
			label=$1 bin=$2 carg=$3
			rc=0
			timeout "${RUN_LIMIT:-300}" "$bin" -c "$carg" -f "$fam" \
				-n "$n" -k "$kt" -t "$THREADS" -d "$DUR" \
				-w "$WARMUP" > "$ONE" || rc=$?
			if [ "$rc" = 124 ]; then
				echo "stopped=round $r $label $fam $n $kt after ${RUN_LIMIT:-300} s" \
					>> "$OUT/meta.txt"
				echo "bench.sh: $label $fam $n $kt stopped after ${RUN_LIMIT:-300} s" >&2
				i=$((i + 1))
				continue
			elif [ "$rc" != 0 ]; then
				echo "bench.sh: $label $fam $n $kt failed" >&2
				exit 1
			fi
			grep -v '^tl' "$ONE" | sed "s/^/$r,/" >> "$RAW" || :
			grep '^tl' "$ONE" | sed "s/^/$r,/" >> "$TL" || :
			i=$((i + 1))
		done
	done
	echo "bench: round $r/$ROUNDS done ($(( $(date +%s) - start ))s)" >&2
	r=$((r + 1))
done

python3 "$HERE/bench_report.py" "$RAW" "$OUT/results.csv"
echo "bench.sh: results in $OUT/results.csv" >&2
python3 "$HERE/bench_plot.py" "$OUT"
