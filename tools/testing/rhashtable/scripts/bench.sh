#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Drive the rhashtable benchmarks: run every figure ROUNDS times with the
# contenders alternating, take the median per figure and write
#   $BENCH_OUT/raw.csv       every single run
#   $BENCH_OUT/results.csv   workload,contender,threads,entries,
#                            ops_per_sec,ratio_to_stock
#   $BENCH_OUT/<family>.png  one graph per workload family
#
# usage: bench.sh BENCH_BINARY...
#   Each binary is one implementation (IMPL=stock, IMPL=ours).  The stock
#   binary also runs the reference contenders (cds_lfht, plain).
#
# Environment: BENCH_OUT (default ./out/bench), ROUNDS (5), DUR (seconds
# per figure, 0.3), THREADS (1,<nproc>), BENCH_QUICK=1 (short figures,
# no 1M-entry tables), FAMILIES (lookup churn grow storm memory life).
set -e

[ $# -ge 1 ] || { echo "usage: $0 BENCH_BINARY..." >&2; exit 2; }
OUT=${BENCH_OUT:-out/bench}
ROUNDS=${ROUNDS:-5}
DUR=${DUR:-0.3}
NCPU=$(nproc 2>/dev/null || echo 2)
THREADS=${THREADS:-1,$NCPU}
FAMILIES=${FAMILIES:-lookup churn grow storm memory life}
BIG=1048576
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	DUR=0.1
	BIG=65536
fi
mkdir -p "$OUT"
RAW=$OUT/raw.csv
: > "$RAW"

# contenders: "label binary -c-argument"
CONT=$(mktemp)
trap 'rm -f "$CONT"' EXIT
for bin in "$@"; do
	[ -x "$bin" ] || { echo "bench.sh: $bin is not executable" >&2; exit 1; }
	case "$bin" in
	*/stock/*)
		echo "stock $bin rht" >> "$CONT"
		echo "cds_lfht $bin lfht" >> "$CONT"
		echo "plain $bin plain" >> "$CONT"
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
			"$bin" -c "$carg" -f "$fam" -n "$n" -k "$kt" \
				-t "$THREADS" -d "$DUR" |
				sed "s/^/$r,/" >> "$RAW"
			i=$((i + 1))
		done
	done
	echo "bench: round $r/$ROUNDS done ($(( $(date +%s) - start ))s)" >&2
	r=$((r + 1))
done

# Medians, ratios to stock, and the resize-storm ratio rows.
awk -F, '
	{ key = $2 "," $3 "," $4 "," $5; v[key, ++n[key]] = $6 }
	END {
		for (key in n) {
			m = n[key]
			for (i = 1; i <= m; i++)
				a[i] = v[key, i]
			# insertion sort, m is small
			for (i = 2; i <= m; i++) {
				x = a[i]
				for (j = i - 1; j >= 1 && a[j] > x; j--)
					a[j + 1] = a[j]
				a[j + 1] = x
			}
			med = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
			print key "," med
		}
	}' "$RAW" | sort > "$OUT/medians.csv"

awk -F, '
	{ w[NR] = $1; c[NR] = $2; t[NR] = $3; e[NR] = $4; val[NR] = $5
	  if ($2 == "stock") stock[$1 "," $3 "," $4] = $5
	  if ($1 ~ /^lookup_resize_storm_/) {
		s = $1; sub(/^lookup_resize_storm_/, "", s)
		storm[$2 "," $3 "," $4 "," s] = $5
	  }
	  if ($1 ~ /^lookup_no_storm_/) {
		s = $1; sub(/^lookup_no_storm_/, "", s)
		calm[$2 "," $3 "," $4 "," s] = $5
	  } }
	END {
		print "workload,contender,threads,entries,ops_per_sec,ratio_to_stock"
		for (i = 1; i <= NR; i++) {
			k = w[i] "," t[i] "," e[i]
			r = (k in stock && stock[k] > 0) ? sprintf("%.3f", val[i] / stock[k]) : ""
			printf "%s,%s,%s,%s,%.1f,%s\n", w[i], c[i], t[i], e[i], val[i], r
		}
		# lookups during a resize storm relative to the same lookups
		# without one (ops_per_sec holds the ratio here)
		for (k in storm) {
			if (!(k in calm) || calm[k] <= 0)
				continue
			split(k, f, ",")
			ratio[k] = storm[k] / calm[k]
			if (f[1] == "stock")
				sr[f[2] "," f[3] "," f[4]] = ratio[k]
		}
		for (k in ratio) {
			split(k, f, ",")
			sk = f[2] "," f[3] "," f[4]
			r = (sk in sr && sr[sk] > 0) ? sprintf("%.3f", ratio[k] / sr[sk]) : ""
			printf "lookup_resize_storm_ratio_%s,%s,%s,%s,%.3f,%s\n",
			       f[4], f[1], f[2], f[3], ratio[k], r
		}
	}' "$OUT/medians.csv" > "$OUT/results.csv"

# ---- graphs ----------------------------------------------------------------
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "bench.sh: gnuplot not found, no graphs" >&2
	exit 0
fi

contenders=$(awk -F, 'NR > 1 { print $2 }' "$OUT/results.csv" | sort -u |
	     awk '{ o = 3
		    if ($1 == "ours") o = 0
		    else if ($1 == "stock") o = 1
		    else if ($1 == "cds_lfht") o = 2
		    print o, $1 }' |
	     sort -n | cut -d' ' -f2 | tr '\n' ' ')

# plot FAMILY REGEX YLABEL SCALE
plot() {
	fam=$1 re=$2 ylabel=$3 scale=$4
	dat=$OUT/$fam.dat
	awk -F, -v re="$re" -v conts="$contenders" -v scale="$scale" '
		BEGIN { nc = split(conts, C, " ") }
		NR > 1 && $1 ~ re {
			lab = $1
			sub(/^(lookup_|memory_bytes_per_entry_)/, "", lab)
			e = $4 + 0
			if (e >= 1048576)
				es = (e / 1048576) "M"
			else if (e >= 1024)
				es = (e / 1024) "K"
			else
				es = e ""
			lab = lab "/" es "/" $3 "T"
			if (!(lab in seen)) { seen[lab] = 1; L[++nl] = lab }
			val[lab, $2] = $5 / scale
			has[$2] = 1
		}
		END {
			# only contenders with at least one figure get a column
			printf "config"
			for (i = 1; i <= nc; i++)
				if (C[i] in has)
					printf " %s", C[i]
			printf "\n"
			for (l = 1; l <= nl; l++) {
				printf "%s", L[l]
				for (i = 1; i <= nc; i++) {
					if (!(C[i] in has))
						continue
					k = L[l] SUBSEP C[i]
					printf " %s", (k in val) ? val[k] : "NaN"
				}
				printf "\n"
			}
		}' "$OUT/results.csv" > "$dat"
	[ "$(wc -l < "$dat")" -gt 1 ] || return 0
	ncol=$(head -1 "$dat" | wc -w)
	gnuplot <<-EOF || echo "bench.sh: gnuplot failed for $fam" >&2
		set terminal png size 1400,600 noenhanced
		set output "$OUT/$fam.png"
		set title "rhashtable benchmark: $fam (median of $ROUNDS runs; $NCPU CPUs)"
		set ylabel "$ylabel"
		set style data histograms
		set style histogram clustered gap 1
		set style fill solid 0.8 border -1
		set key top left
		set grid ytics
		set xtics rotate by -40
		set yrange [0:*]
		plot for [i=2:$ncol] "$dat" using i:xtic(1) title columnheader(i)
	EOF
}

plot lookup '^lookup_(pos|neg)_' 'Mlookups/s' 1000000
plot churn '^churn_' 'Mops/s (insert or remove)' 1000000
plot grow '^grow_' 'Minserts/s' 1000000
plot storm '^lookup_(resize_storm|no_storm)_(u32|k16)$' 'Mlookups/s' 1000000
plot storm_ratio '^lookup_resize_storm_ratio_' 'lookups/s during storm / without' 1
plot memory '^memory_bytes_per_entry_' 'bytes per entry' 1
echo "bench.sh: results in $OUT/results.csv, graphs in $OUT/*.png" >&2
