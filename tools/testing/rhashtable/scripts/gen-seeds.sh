#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Generate the fuzzer's seed corpus into DIR: structured operation
# sequences for a spread of table configurations (see fuzz.c for the
# input layout).  Deterministic; no binary blobs live in the tree.
set -e
out=${1:?usage: gen-seeds.sh DIR}
mkdir -p "$out"

# seed CFG MIN MAX HINT PLAN RNGSEED
seed() {
	awk -v cfg="$1" -v mins="$2" -v maxs="$3" -v hint="$4" \
	    -v plan="$5" -v rs="$6" '
	function b(x) { printf "\\%03o", x % 256 }
	function op(code, k) { b(code + (k >= 256 ? 128 : 0)); b(k % 256) }
	# opcodes, as in fuzz.c
	BEGIN {
		INS = 0; LINS = 1; LGINS = 2; REM = 3; REPL = 4; LOOK = 5
		MISS = 6; WALK = 7; STEP = 8; WEND = 9; WORK = 10; AUDIT = 11
		FAIL = 12; IBURST = 13; RBURST = 14
		EXPAND = 15; SHRINK = 16; REHASH = 17; RCU = 18; TIME = 19
		srand(rs)
		b(cfg); b(mins); b(maxs); b(hint)
		if (plan == "grow") {
			for (k = 0; k < 512; k += 64) {
				op(IBURST, k); op(WORK, 0); op(RCU, 0)
			}
			op(WALK, 0); op(AUDIT, 0)
			for (k = 0; k < 512; k += 64) { op(RBURST, k); op(WORK, 0) }
			op(AUDIT, 0); op(WALK, 0)
		} else if (plan == "nowork") {
			# inserts pile up with the resize never run
			for (k = 0; k < 512; k += 64) op(IBURST, k)
			op(WALK, 0); op(AUDIT, 0); op(WORK, 0); op(AUDIT, 0)
		} else if (plan == "walkstep") {
			op(IBURST, 0); op(IBURST, 64); op(WORK, 0)
			for (i = 0; i < 40; i++) {
				op(STEP, int(rand() * 8))
				op(int(rand() * 2) ? INS : REM, int(rand() * 512))
				op(int(rand() * 2) ? IBURST : RBURST, int(rand() * 512))
				if (rand() < 0.3) op(WORK, 0)
				if (rand() < 0.2) op(RCU, 0)
			}
			op(WEND, 0); op(WALK, 0)
		} else if (plan == "fail") {
			for (i = 0; i < 30; i++) {
				op(FAIL, 1 + int(rand() * 4))
				op(IBURST, int(rand() * 512))
				op(WORK, 0); op(AUDIT, 0)
			}
			op(FAIL, 0); op(RBURST, 0); op(WORK, 0)
		} else if (plan == "resize") {
			for (i = 0; i < 40; i++) {
				if (rand() < 0.3) op(TIME, int(rand() * 512))
				op(EXPAND + int(rand() * 3), 0)
				op(int(rand() * 3), int(rand() * 512))
				if (rand() < 0.5) op(WORK, 0)
				if (rand() < 0.2) op(WALK, 0)
			}
		} else {
			# random mix, weighted towards updates
			for (i = 0; i < 400; i++) {
				r = rand()
				if (r < 0.30) o = int(rand() * 3)
				else if (r < 0.50) o = REM
				else if (r < 0.55) o = REPL
				else if (r < 0.65) o = LOOK
				else if (r < 0.68) o = MISS
				else if (r < 0.72) o = WALK
				else if (r < 0.76) o = STEP
				else if (r < 0.78) o = WEND
				else if (r < 0.84) o = WORK
				else if (r < 0.855) o = RCU
				else if (r < 0.86) o = TIME
				else if (r < 0.90) o = AUDIT
				else if (r < 0.93) o = IBURST
				else if (r < 0.96) o = RBURST
				else o = EXPAND + int(rand() * 3)
				op(o + 32 * int(rand() * 4), int(rand() * 512))
			}
		}
	}'
}

n=0
# cfg bits: 1 rhltable, 2 auto-shrink, 4/8/12 key length 8/5/16,
#           16 degenerate hash, 32 custom obj_hashfn/cmpfn, 64 const params
for cfg in 0 2 1 3 6 10 14 18 34 50 51 66 35 27; do
	for plan in grow nowork walkstep fail resize mixed; do
		n=$((n + 1))
		mins=$(( (n * 37) % 5 * 4 ))
		maxs=$(( n % 4 == 0 ? 6 : 0 ))
		hint=$(( n % 3 == 0 ? 40 : 0 ))
		printf "$(seed $cfg $mins $maxs $hint $plan $n)" \
			> "$out/seed-$cfg-$plan"
	done
done
echo "gen-seeds: $n seeds in $out"
