#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Model-check the rhashtable reader protocol (rhashtable.pml) with spin.
#
# Every run builds its own verifier in a temporary directory.  A run
# expected to pass must report 0 errors on a complete search; a run
# expected to fail must produce a counterexample (a trail).  Exits non-zero
# if any run does otherwise.  See README.
#
# Environment:
#   JOBS=N          verifiers run at once (default 2)
#   KEEP_TRAIL=DIR  keep each counterexample in DIR: the trail, the model,
#                   `spin -t -p` output and a readable trace (the printf
#                   lines of the replay), which is also printed
#   RAW=1           with KEEP_TRAIL, print the whole `spin -t -p` output
#                   instead of the readable trace
#   LIVENESS=1      also check that no lookup of an absent key livelocks in
#                   every scenario (about 6 more minutes)
#   DEEP=1          also run the doubling and the halving with 3 moves, the
#                   doubling without the grace period after publishing, and
#                   the walker with 2 moves in GROW, SHRINK and REHASH
#                   (about 9 more minutes on 2 cores and 10 GiB)
#   ONLY=REGEX      only the runs whose "scenario variant" matches
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
model=$here/rhashtable.pml
JOBS=${JOBS:-2}
KEEP_TRAIL=${KEEP_TRAIL:-}
LIVENESS=${LIVENESS:-0}
DEEP=${DEEP:-0}
ONLY=${ONLY:-}
RAW=${RAW:-0}

for tool in spin gcc; do
	if ! command -v "$tool" >/dev/null; then
		echo "model: $tool is missing (apt-get install -y spin gcc)" >&2
		exit 2
	fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -n $KEEP_TRAIL ]]; then
	mkdir -p "$KEEP_TRAIL"
	KEEP_TRAIL=$(cd "$KEEP_TRAIL" && pwd)
fi

# The protocol as lib/rhashtable.c implements it: the specification plus
# the two fixes the model called for (a remove before the unzipping bumps
# the pair's stripe after its stores; every zip of a pair bumps first).
FIX="-DPREP_RM_BUMP -DZIP_PAIR_BUMP"

# The walker as lib/rhashtable.c implements it: the per-object stripe
# check, the remove's bump after its locks, the rehash's bump before every
# move, the grace period after a rehash's publication, and a foreign test
# that does not depend on a resize running.  WSPEC is the first version,
# which the model rejected (README, "Walker findings").  Walker runs do
# one move (MOVES=1) except in CROSS; DEEP=1 adds two-move runs.
WSPEC="-DWALKER -DWALK_ALL -DWALK_OBJ_CHECK -DWALK_RM_BUMP -DMOVE_BUMP"
WALK="$WSPEC -DMOVE_BUMP_EACH -DREHASH_SETTLE -DWALK_FOREIGN_ALWAYS"
# The code with one rule left out (MOVE_BUMP_EACH goes first: it contains
# the name of MOVE_BUMP).
W_NO_OBJ_CHECK=${WALK/ -DWALK_OBJ_CHECK/}
W_NO_RM_BUMP=${WALK/ -DWALK_RM_BUMP/}
W_NO_MOVE_BUMP=${WALK/ -DMOVE_BUMP_EACH/}
W_NO_MOVE_BUMP=${W_NO_MOVE_BUMP/ -DMOVE_BUMP/}
W_NO_SETTLE=${WALK/ -DREHASH_SETTLE/}
W1="-DMOVES=1 $FIX"

# scenario | variant | expect (pass, fail) | mode (safety, bfs, np) | -D...
runs=(
	"GROW|correct|pass|safety|-DSCEN_GROW -DTABLE2 $FIX"
	"GROW|correct-alt|pass|safety|-DSCEN_GROW -DPREP_FLUSH -DZIP_PAIR_BUMP"
	"SHRINK|correct|pass|safety|-DSCEN_SHRINK -DTABLE2 $FIX"
	"REHASH|correct|pass|safety|-DSCEN_REHASH -DTABLE2 $FIX"
	"REHASH_GROW|correct|pass|safety|-DSCEN_REHASH_GROW -DTABLE2 $FIX"
	"CROSS|correct|pass|safety|-DSCEN_CROSS -DTABLE2 $FIX"
	"GROW_SHRINK|correct|pass|safety|-DSCEN_GROW_SHRINK $FIX"
	"GROW|spec|fail|bfs|-DSCEN_GROW"
	"GROW|spec-atomic-updates|fail|bfs|-DSCEN_GROW -DATOMIC_UPDATES"
	"SHRINK|spec|fail|bfs|-DSCEN_SHRINK"
	"GROW|OLD_RULE|fail|bfs|-DSCEN_GROW -DOLD_RULE $FIX"
	"SHRINK|OLD_RULE|fail|bfs|-DSCEN_SHRINK -DOLD_RULE $FIX"
	"CROSS|OLD_RULE|fail|bfs|-DSCEN_CROSS -DTABLE2 -DOLD_RULE $FIX"
	"GROW|NO_SEQ|fail|bfs|-DSCEN_GROW -DNO_SEQ $FIX"
	"SHRINK|NO_SEQ|fail|bfs|-DSCEN_SHRINK -DNO_SEQ $FIX"
	"GROW|NO_UNZIP_GP|fail|bfs|-DSCEN_GROW -DNO_UNZIP_GP $FIX"
	"SHRINK|NO_ZIP_BUMP|fail|bfs|-DSCEN_SHRINK -DNO_ZIP_BUMP $FIX"
	"CROSS|correct-liveness|pass|np|-DSCEN_CROSS -DTABLE2 -DABSENT $FIX"
	"GROW|NO_SHARED_FIT-liveness|fail|np|-DSCEN_GROW -DNO_SHARED_FIT -DABSENT $FIX"
	"CROSS|walker|pass|safety|-DSCEN_CROSS -DTABLE2 -DWALK_STRICT $WALK $FIX"
	"GROW|walker|pass|safety|-DSCEN_GROW -DTABLE2 -DWALK_STRICT $WALK $W1"
	"SHRINK|walker|pass|safety|-DSCEN_SHRINK -DTABLE2 -DWALK_STRICT $WALK $W1"
	"REHASH|walker|pass|safety|-DSCEN_REHASH -DTABLE2 -DWALK_STRICT $WALK $W1"
	"REHASH_GROW|walker|pass|safety|-DSCEN_REHASH_GROW -DTABLE2 -DWALK_STRICT $WALK $W1"
	"GROW_SHRINK|walker|pass|safety|-DSCEN_GROW_SHRINK -DTABLE2 -DWALK_STRICT $WALK $W1"
	"GROW|walker-alt|fail|bfs|-DSCEN_GROW -DTABLE2 -DWALK_STRICT $WSPEC -DRM_BUMP_LOCKED -DMOVE_BUMP_EACH -DREHASH_SETTLE $W1"
	"GROW|walker-spec|fail|bfs|-DSCEN_GROW $WSPEC $W1"
	"REHASH|walker-spec|fail|bfs|-DSCEN_REHASH $WSPEC -DRM_BUMP_LOCKED $W1"
	"CROSS|walker-NO_OBJ_CHECK|fail|bfs|-DSCEN_CROSS -DTABLE2 $W_NO_OBJ_CHECK $FIX"
	"GROW|walker-NO_OBJ_CHECK|fail|bfs|-DSCEN_GROW $W_NO_OBJ_CHECK $W1"
	"CROSS|walker-NO_RM_BUMP|fail|bfs|-DSCEN_CROSS $W_NO_RM_BUMP $FIX"
	"REHASH|walker-NO_MOVE_BUMP|fail|bfs|-DSCEN_REHASH $W_NO_MOVE_BUMP $W1"
	"REHASH|walker-NO_REHASH_SETTLE|fail|bfs|-DSCEN_REHASH $W_NO_SETTLE $W1"
)
if [[ $LIVENESS == 1 ]]; then
	for sc in GROW SHRINK REHASH REHASH_GROW; do
		runs+=("$sc|correct-liveness|pass|np|-DSCEN_$sc -DABSENT $FIX")
	done
fi
if [[ $DEEP == 1 ]]; then
	# Lookups with the marker rule do not need the grace period after a
	# doubling is published (rht_for_each_rcu() readers of the old array
	# do): no counterexample in 28M states.
	runs+=("GROW|NO_PUBLISH_GP|pass|safety|-DSCEN_GROW -DNO_PUBLISH_GP $FIX")
	runs+=("GROW|correct-3-moves|pass|safety|-DSCEN_GROW -DMOVES=3 $FIX")
	runs+=("SHRINK|correct-3-moves|pass|safety|-DSCEN_SHRINK -DMOVES=3 $FIX")
	for sc in GROW SHRINK REHASH; do
		runs+=("$sc|walker-2-moves|pass|safety|-DSCEN_$sc -DWALK_STRICT $WALK $FIX")
	done
fi

# Readable trace of a replayed trail: name pointers and processes ($1: what
# process 1 is, reader or walker).
render() {
	awk -v p1="$1" '
	BEGIN {
		split("NONE GROW_PREP GROW_UNZIP SHRINK_PREP REHASH", p, " ")
		for (i = 0; i < 5; i++)
			ph[i] = p[i + 1]
	}
	function pv(n,   a) {
		if (n == 0) return "empty"
		if (n == 1) return "S"
		if (n < 8) return "o" n
		a = int((n - 8) / 4)
		return "M(A" a "," (n - 8) % 4 ")"
	}
	/^ *P[0-9]:/ {
		line = $0; out = ""
		while (match(line, /#[0-9]+/)) {
			out = out substr(line, 1, RSTART - 1) \
			      pv(substr(line, RSTART + 1, RLENGTH - 1) + 0)
			line = substr(line, RSTART + RLENGTH)
		}
		line = out line
		gsub(/A-1/, "none", line)
		if (match(line, /phase [0-4]$/))
			line = substr(line, 1, RSTART + 5) \
			       ph[substr(line, RSTART + 6, 1)]
		sub(/^ */, "", line)
		sub(/^P1:/, p1 ": ", line)
		sub(/^P2:/, "updater:", line)
		sub(/^P3:/, "worker: ", line)
		print "    " line
	}'
}

# One run in its own directory; writes its report line to "result".
one() {
	local i=$1 sc=$2 var=$3 expect=$4 mode=$5 defs=$6
	local dir=$work/$i cflags="-O2 -w" panflags="-m2000000"
	local t0 t1 errors states secs line ok=0
	mkdir -p "$dir"
	cp "$model" "$dir/"
	cd "$dir"
	case $mode in
	safety) cflags+=" -DSAFETY -DCOLLAPSE" ;;
	bfs) cflags+=" -DSAFETY -DBFS" ;;
	np) cflags+=" -DNP -DCOLLAPSE"; panflags+=" -l -f" ;;
	esac
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	if ! spin -a $defs rhashtable.pml >spin.out 2>&1 ||
	   ! gcc $cflags -o pan pan.c >gcc.out 2>&1; then
		{
			echo "model: $sc $var: FAILED: cannot build the verifier"
			tail -n 20 spin.out gcc.out | sed 's/^/    /'
		} >result
		return 0
	fi
	# shellcheck disable=SC2086
	./pan $panflags >pan.out 2>&1 || true
	t1=$(date +%s.%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	errors=$(awk '/errors:/ { print $NF }' pan.out)
	states=$(awk '/states, stored/ { print $1 }' pan.out)
	if grep -qE "max search depth too small|out of memory|aborting" pan.out; then
		line="model: $sc $var: FAILED: search incomplete (see pan.out)"
	elif [[ $expect == pass ]]; then
		if [[ $errors == 0 ]] && ! grep -q "Search not completed" pan.out; then
			line="model: $sc $var: ok (states=$states, time=${secs}s)"
			ok=1
		else
			line="model: $sc $var: FAILED: $errors error(s), counterexample:"
		fi
	else
		if [[ ${errors:-0} != 0 && -f rhashtable.pml.trail ]]; then
			line="model: $sc $var: counterexample found as expected (states=$states, time=${secs}s)"
			ok=1
		else
			line="model: $sc $var: FAILED: no counterexample (states=$states, time=${secs}s)"
		fi
	fi
	{
		echo "$line"
		if [[ -f rhashtable.pml.trail ]]; then
			# shellcheck disable=SC2086
			spin -t -p $defs rhashtable.pml >spin-t-p.txt 2>&1 || true
			if [[ " $defs " == *" -DWALKER "* ]]; then
				render walker <spin-t-p.txt >trace.txt
			else
				render reader <spin-t-p.txt >trace.txt
			fi
			if [[ -n $KEEP_TRAIL && $RAW == 1 ]]; then
				sed 's/^/    /' spin-t-p.txt
			elif [[ $ok == 0 || -n $KEEP_TRAIL ]]; then
				cat trace.txt
			fi
			if [[ -n $KEEP_TRAIL ]]; then
				local base=$KEEP_TRAIL/$sc-$var
				cp rhashtable.pml "$base.pml"
				cp rhashtable.pml.trail "$base.pml.trail"
				cp spin-t-p.txt "$base.spin-t-p.txt"
				cp trace.txt "$base.trace.txt"
				echo "    kept: $base.*; replay: spin -t -p $defs $base.pml"
			fi
		elif [[ $ok == 0 ]]; then
			tail -n 30 pan.out spin.out gcc.out | sed 's/^/    /'
		fi
	} >result.tmp
	if [[ $ok == 1 ]]; then
		touch ok
	fi
	mv result.tmp result
}

start=$(date +%s)
sel=()
for i in "${!runs[@]}"; do
	IFS='|' read -r sc var _ <<<"${runs[$i]}"
	if [[ -z $ONLY || "$sc $var" =~ $ONLY ]]; then
		sel+=("$i")
	fi
done

# Run JOBS verifiers at a time in the background...
(
	for i in "${sel[@]}"; do
		IFS='|' read -r sc var expect mode defs <<<"${runs[$i]}"
		while (($(jobs -rp | wc -l) >= JOBS)); do
			wait -n || true
		done
		( one "$i" "$sc" "$var" "$expect" "$mode" "$defs" ||
		  echo "model: $sc $var: FAILED: run aborted" >"$work/$i/result" ) &
	done
	wait
) &
sched=$!

# ...and report them in order as they finish.
failed=0
for i in "${sel[@]}"; do
	while [[ ! -f $work/$i/result ]]; do
		if ! kill -0 "$sched" 2>/dev/null && [[ ! -f $work/$i/result ]]; then
			echo "model: run $i: FAILED: no result"
			break
		fi
		sleep 0.2
	done
	[[ -f $work/$i/result ]] && cat "$work/$i/result"
	[[ -f $work/$i/ok ]] || failed=$((failed + 1))
done
wait "$sched" || true
echo "model: ${#sel[@]} runs, $failed failed, $(($(date +%s) - start))s in all"
[[ $failed == 0 ]]
