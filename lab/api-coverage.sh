#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every name of the 6.12 rhashtable interface (lab/compat/api.txt) that our
# headers define must appear in a test: the KUnit suites of lib/ or the
# harness's stress test and fuzzer.  Prints the names no test uses and
# fails if there is one.  Names of the list that our headers do not define
# (stock internals, words of its comments) are only reported.
set -euo pipefail
cd "$(dirname "$0")/.."

headers=(include/linux/rhashtable.h include/linux/rhashtable-types.h)
tests=(lib/test_rhashtable*.c tools/testing/rhashtable/stress.c
       tools/testing/rhashtable/fuzz.c tools/testing/rhashtable/harness_kunit.c)
untested=() notours=() n=0
while read -r name; do
	[ -n "$name" ] || continue
	if ! grep -qw -- "$name" "${headers[@]}"; then
		notours+=("$name")
		continue
	fi
	n=$((n + 1))
	grep -qw -- "$name" "${tests[@]}" || untested+=("$name")
done < lab/compat/api.txt

echo "api-coverage: $((n - ${#untested[@]})) of $n names of the 6.12 interface used by tests"
((${#notours[@]} == 0)) ||
	echo "api-coverage: not ours (stock internals or comment words): ${notours[*]}"
if ((${#untested[@]})); then
	echo "api-coverage: FAIL: no test uses: ${untested[*]}"
	exit 1
fi
