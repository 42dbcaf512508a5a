#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: lab/kunit.sh um|x86_64-kasan|x86_64-kcsan
#
# Build and boot the KUnit kernel of one run with kunit.py, in a build
# directory under $RHT_WORK, then check its console log (lab/checklog.py).
set -euo pipefail
lab=$(cd "$(dirname "$0")" && pwd)
work=${RHT_WORK:-$HOME/.cache/rhashtable}
tree=$work/linux
run=${1:?usage: lab/kunit.sh um|x86_64-kasan|x86_64-kcsan}

case $run in
um)
	build=$work/build-um
	args=(--arch=um --timeout=600) ;;
x86_64-kasan|x86_64-kcsan)
	build=$work/build-x86-${run#x86_64-}
	args=(--arch=x86_64 --qemu_config="$lab/kunit/qemu_x86_64_smp2.py"
	      --timeout=1500) ;;
*)
	echo "kunit: unknown run '$run'" >&2; exit 2 ;;
esac

# The run's kunitconfig: the shared tests plus the run's own options.  A
# test whose Kconfig symbol is not in the tree yet is left out, loudly.
mkdir -p "$build"
config=$build/lab.kunitconfig
cat "$lab/kunit/tests.config" "$lab/kunit/$run.config" > "$config.new"
for sym in $(sed -n 's/^CONFIG_\(.*_KUNIT_TEST\)=y$/\1/p' "$config.new"); do
	if ! grep -rqs --include='Kconfig*' "^config $sym\$" "$tree"/{lib,net,kernel,mm}; then
		echo "kunit: note: $sym is not in the tree yet, running without it"
		sed -i "/^CONFIG_$sym=/d" "$config.new"
	fi
done
mv "$config.new" "$config"

start=$SECONDS
rm -f "$build/test.log"
status=0
(cd "$tree" && python3 tools/testing/kunit/kunit.py run "${args[@]}" \
	--build_dir="$build" --kunitconfig="$config" --jobs="${JOBS:-$(nproc)}") ||
	status=$?
echo "kunit: $run: kunit.py exited $status after $((SECONDS - start)) s"
"$lab/checklog.py" --kunit-status="$status" "$build/test.log"
