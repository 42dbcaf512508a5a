#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Compile every in-tree user of rhashtable (lab/compat/users.txt, from
# lab/api-users.sh) against our series, in an x86_64 allmodconfig build.
# Fails on any file that does not compile or that warns where the stock
# 6.12 tree does not; the stock tree (a git worktree of rht-base) is only
# built for the files that need the comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
work=${RHT_WORK:-$HOME/.cache/rhashtable}
tree=$work/linux
jobs=${JOBS:-$(nproc)}
start=$SECONDS

# The objects: users that are .c files, and for a user header outside
# include/ the first .c file next to it that includes it (one includer
# compiles the header's inline code as well as all of them would), minus
# lab/compat/skip.txt.
objs=$(
	grep '\.c$' lab/compat/users.txt
	for h in $(grep '\.h$' lab/compat/users.txt | grep -v '^include/'); do
		grep -l "#include \"$(basename "$h")\"" "$tree/$(dirname "$h")"/*.c \
			2>/dev/null | head -n 1 | sed "s|^$tree/||" || true
	done
)
objs=$(printf '%s\n' $objs | grep -v '^arch/' | sort -u | sed 's/\.c$/.o/' |
	grep -vxF -f <(sed -n 's/^\([^#[:space:]][^[:space:]]*\).*/\1/p' lab/compat/skip.txt))
echo "compat: $(echo "$objs" | wc -l) objects"

# build <source tree> <build dir> <log> <objects...>
build() {
	local src=$1 dir=$2 log=$3
	shift 3
	if [ ! -f "$dir/.config" ]; then
		echo "compat: configuring $dir (allmodconfig)"
		mkdir -p "$dir"
		make -C "$src" O="$dir" ARCH=x86_64 -s \
			KCONFIG_ALLCONFIG="$repo/lab/compat/allmod.config" allmodconfig
	fi
	make -C "$src" O="$dir" ARCH=x86_64 -k -j"$jobs" "$@" > "$log" 2>&1 || true
}

# Per object: "ok", "error" or "warn", from the compiler's diagnostics,
# which name the source file (ours or a header it includes).
verdicts() {
	local log=$1 o src
	shift
	for o in "$@"; do
		src=${o%.o}.c
		if grep -q "No rule to make target '$o'" "$log"; then
			echo "$o skip"
		elif grep -qE "^[^ ]*$src:[0-9]+:[0-9]+: error:" "$log" ||
		     grep -q "\[.*: $o\] Error" "$log"; then
			echo "$o error"
		elif grep -qE "^[^ ]*$src:[0-9]+:[0-9]+: warning:" "$log" ||
		     grep -qE "In file included from [^ ]*$src:" "$log"; then
			echo "$o warn"
		else
			echo "$o ok"
		fi
	done
}

log=$work/compat.log
build "$tree" "$work/build-compat" "$log" $objs
verdicts "$log" $objs > "$work/compat.ours"

suspects=$(awk '$2 == "error" || $2 == "warn" { print $1 }' "$work/compat.ours")
fail=0
if [ -n "$suspects" ]; then
	stock=$work/stock
	if [ ! -d "$stock" ]; then
		git -C "$tree" worktree add -q -f --detach "$stock" rht-base >/dev/null
	fi
	echo "compat: comparing $(echo "$suspects" | wc -l) objects with stock 6.12"
	build "$stock" "$work/build-compat-stock" "$work/compat-stock.log" $suspects
	verdicts "$work/compat-stock.log" $suspects > "$work/compat.stock"
	while read -r o ours; do
		theirs=$(awk -v o="$o" '$1 == o { print $2 }' "$work/compat.stock")
		if [ "$ours" = error ] && [ "$theirs" != error ]; then
			echo "compat: FAIL: $o does not compile (stock: $theirs)"
			fail=1
		elif [ "$ours" = warn ] && [ "$theirs" = ok ]; then
			echo "compat: FAIL: $o warns, stock does not"
			fail=1
		else
			echo "compat: note: $o: $ours here and in stock"
		fi
	done < <(awk '$2 == "error" || $2 == "warn"' "$work/compat.ours")
fi
if ((fail)); then
	echo "compat: diagnostics in $log"
	grep -E "(error|warning):" "$log" | head -40 || true
fi
awk '{ n[$2]++ } END { for (k in n) printf "compat: %s %d\n", k, n[k] }' \
	"$work/compat.ours" | sort
echo "compat: $( ((fail)) && echo FAILED || echo passed) in $((SECONDS - start)) s"
exit $fail
