#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate lab/compat/api.txt and lab/compat/users.txt from the pristine
# 6.12 tree (commit rht-base of $RHT_WORK/linux):
#   api.txt   every identifier the stock rhashtable headers define,
#   users.txt every file outside the rhashtable sources that uses one.
# "make compat" compiles the .c files of users.txt; "lab/api-users.sh
# --check" fails if the committed lists no longer match the tree.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${RHT_WORK:-$HOME/.cache/rhashtable}
tree=$work/linux
out=lab/compat
g() { git -C "$tree" "$@"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Identifiers of the rhashtable families that the stock headers spell out.
for h in include/linux/rhashtable.h include/linux/rhashtable-types.h; do
	g show "rht-base:$h"
done | grep -oE '\b(__)?(rht|rhashtable|rhltable|rhl|rhash|bucket_table|lockdep_rht|RHT|INIT_RHT)[A-Za-z0-9_]*' |
	sort -u > "$tmp/api.txt"

# Files that use any of them, minus the implementation and its tests.
g grep -l -w -E "$(paste -sd'|' "$tmp/api.txt")" rht-base -- '*.c' '*.h' \
	':!tools' ':!Documentation' ':!samples' \
	':!lib/rhashtable.c' ':!lib/test_rhashtable.c' \
	':!include/linux/rhashtable.h' ':!include/linux/rhashtable-types.h' |
	sed 's/^rht-base://' | sort > "$tmp/users.txt"

if [ "${1:-}" = --check ]; then
	diff -u "$out/api.txt" "$tmp/api.txt" &&
		diff -u "$out/users.txt" "$tmp/users.txt" &&
		echo "api-users: lists match the tree ($(wc -l < "$out/users.txt") users)"
	exit
fi
mkdir -p "$out"
cp "$tmp/api.txt" "$tmp/users.txt" "$out/"
echo "api-users: $(wc -l < "$out/api.txt") identifiers, $(wc -l < "$out/users.txt") files"
