#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lint our files (those on a Files: line of lab/series) in $RHT_WORK/linux:
#  a) sparse and W=1 on lib/rhashtable.o and lib/test_rhashtable.o,
#  b) checkpatch --strict on every patch in out/patches (make patches),
#  c) kernel-doc -Wall on the C files,
#  d) git am of out/patches on a fresh worktree of rht-base gives rht,
#  e) every name of the 6.12 interface is used by a test (api-coverage.sh),
#  f) every patch of the series builds (W=1, sparse) on its own,
#  g) the harness in the series names nothing of the lab,
#  h) the harness builds without warnings (clang and gcc, -Werror).
# Any finding fails; files not in the series yet are skipped with a note.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
work=${RHT_WORK:-$HOME/.cache/rhashtable}
tree=$work/linux
build=$work/build-lint
start=$SECONDS
fail=0
bad() { echo "lint: FAIL: $*"; fail=1; }

ours=" $(sed -n 's/^Files: *//p' lab/series/*.txt 2>/dev/null | tr '\n' ' ') "
ours() {
	case $ours in *" $1 "*) return 0 ;; esac
	echo "lint: note: $1 is not in lab/series yet, skipped"
	return 1
}

# a) sparse, in an x86_64 defconfig build dir with our code enabled.
objs=()
for f in lib/rhashtable.c lib/test_rhashtable.c lib/test_rhashtable_phases.c \
	 lib/test_rhashtable_api.c net/netlink/portid_kunit.c; do
	ours "$f" && objs+=("${f%.c}.o")
done
if ((${#objs[@]})); then
	mk=(make -C "$tree" O="$build" ARCH=x86_64 -j"${JOBS:-$(nproc)}")
	want="KUNIT RHASHTABLE_KUNIT_TEST NETLINK_PORTID_KUNIT_TEST NET PROVE_LOCKING"
	for sym in $want; do
		grep -qs "^CONFIG_$sym=y" "$build/.config" && continue
		echo "lint: configuring $build"
		[ -f "$build/.config" ] || "${mk[@]}" -s defconfig
		"$tree/scripts/config" --file "$build/.config" \
			$(printf -- '-e %s ' $want)
		"${mk[@]}" -s olddefconfig
		break
	done
	"${mk[@]}" -s prepare
	log=$build/sparse.log
	"${mk[@]}" C=2 CF=-Wsparse-error W=1 "${objs[@]}" >"$log" 2>&1 ||
		bad "building ${objs[*]} failed"
	cat "$log"
	! grep -q 'warning:\|error:' "$log" || bad "sparse/W=1 findings above"
fi

# b) checkpatch, on every patch of the series.  Its SPDX check runs
#    scripts/spdxcheck.py, which needs Debian's python3 (python3-ply and
#    python3-git), not another python3 that may come first in PATH.
# The cover letter (0000-) is no patch: neither checked nor applied.
patches=()
for p in "$repo"/out/patches/*.patch; do
	[ "${p##*/}" = 0000-cover-letter.patch ] || patches+=("$p")
done
if ((${#patches[@]})); then
	for p in "${patches[@]}"; do
		out=$(cd "$tree" && PATH=/usr/bin:$PATH \
			scripts/checkpatch.pl --strict "$p" 2>&1) || true
		echo "$out" | grep -q '^total: 0 errors, 0 warnings, 0 checks' ||
			{ echo "$out"; bad "checkpatch: ${p##*/}"; }
		echo "checkpatch: ${p##*/}: $(echo "$out" | grep '^total:')"
	done
else
	echo "lint: note: no patches in out/patches, checkpatch skipped"
fi

# c) kernel-doc.
for f in include/linux/rhashtable.h include/linux/rhashtable-types.h \
	 lib/rhashtable.c lib/rhashtable_test.h lib/test_rhashtable.c \
	 lib/test_rhashtable_phases.c lib/test_rhashtable_api.c \
	 net/netlink/portid_kunit.c; do
	ours "$f" || continue
	out=$(cd "$tree" && scripts/kernel-doc -none -Wall "$f" 2>&1)
	[ -z "$out" ] || { echo "$out"; bad "kernel-doc: $f"; }
done

# d) The patches apply with git am on rht-base and give exactly rht.
if ((${#patches[@]})); then
	wt=$work/am-check
	git -C "$tree" worktree prune
	[ -d "$wt" ] || git -C "$tree" worktree add -q --detach "$wt" rht-base
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" reset -q --hard rht-base
	if GIT_COMMITTER_NAME=lab GIT_COMMITTER_EMAIL=lab@example.org \
	   git -C "$wt" am -q "${patches[@]}"; then
		[ "$(git -C "$wt" rev-parse HEAD^{tree})" = \
		  "$(git -C "$tree" rev-parse rht^{tree})" ] ||
			bad "git am gave a different tree than branch rht"
		echo "git am: ${#patches[@]} patches apply to rht-base"
	else
		bad "git am of out/patches on rht-base"
	fi
fi

# e) Every name of the 6.12 interface that we define is used by a test.
lab/api-coverage.sh || bad "names of the interface no test uses"

# f) Every patch builds.  In the am-check worktree, check out each commit
#    of the series in turn and compile, with W=1 and sparse, the lib/
#    objects that commit can build: lib/rhashtable.o and whichever of the
#    test files it has (patch 1 compiles 6.12's own self test against the
#    new header).  One x86_64 build directory serves every commit.
if ((${#patches[@]})) && [ "$fail" = 0 ]; then
	amb=$work/build-am
	amk=(make -C "$wt" O="$amb" ARCH=x86_64 -j"${JOBS:-$(nproc)}")
	want="KUNIT RHASHTABLE_KUNIT_TEST NETLINK_PORTID_KUNIT_TEST NET"
	want="$want PROVE_LOCKING FTRACE"
	[ -f "$amb/.config" ] || {
		echo "lint: configuring $amb"
		"${amk[@]}" -s defconfig
	}
	for c in $(git -C "$wt" rev-list --reverse rht-base..HEAD); do
		git -C "$wt" checkout -q --detach "$c"
		# olddefconfig drops what a commit does not know yet: ask again.
		"$tree/scripts/config" --file "$amb/.config" \
			$(printf -- '-e %s ' $want) -m TEST_RHASHTABLE
		subject=$(git -C "$wt" log -1 --format=%s "$c")
		objs=(lib/rhashtable.o)
		for t in lib/test_rhashtable.c lib/test_rhashtable_phases.c \
			 lib/test_rhashtable_api.c net/netlink/portid_kunit.c; do
			[ -f "$wt/$t" ] && objs+=("${t%.c}.o")
		done
		log=$amb/patch.log
		{ "${amk[@]}" -s olddefconfig && "${amk[@]}" -s prepare &&
		  "${amk[@]}" C=1 CF=-Wsparse-error W=1 "${objs[@]}"; } \
			>"$log" 2>&1 || { cat "$log"; bad "does not build: $subject"; }
		if grep -q 'warning:\|error:' "$log"; then
			cat "$log"
			bad "warnings at: $subject"
		fi
		echo "builds: ${objs[*]} at: $subject"
	done
	git -C "$wt" checkout -q --detach rht
fi

# g) tools/testing/rhashtable goes upstream: no lab paths or variables, no
#    switch between implementations (those live in lab/bench).
if leaks=$(grep -rnE 'RHT_WORK|stockref|STOCK_REV|rht-base|\bRHT_IMPL_|IMPL=|lab/' \
		tools/testing/rhashtable); then
	echo "$leaks"
	bad "the harness names the lab"
fi

# h) The harness builds without warnings, with clang (ASAN, TSAN, fuzz)
#    and gcc (stress, KUnit at -O2): every program, -Werror, in a build
#    directory of its own so that the flag is in every object.
hw=$work/harness-werror
if ! make -s -C "$tree/tools/testing/rhashtable" O="$hw" EXTRA_CFLAGS=-Werror \
		-j"${JOBS:-$(nproc)}" all >"$hw.log" 2>&1; then
	grep -B2 -A8 'error:' "$hw.log" | head -60
	bad "the harness does not build without warnings"
fi
echo "harness: builds with -Werror (clang and gcc)"

echo "lint: took $((SECONDS - start)) s"
((fail == 0)) && echo "lint: clean"
exit $fail
