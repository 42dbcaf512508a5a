#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Make $RHT_WORK/linux: Debian's pristine Linux 6.12 as commit "rht-base",
# with lab/series/NN-*.txt on top as branch "rht".  Commits are built in a
# temporary index with fixed dates, so identical inputs give identical ids,
# and the work tree is updated with "git read-tree -m -u": files that did
# not change keep their mtime and kernel builds stay incremental.
# The last line printed is the tree's path.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
work=${RHT_WORK:-$HOME/.cache/rhashtable}
tree=$work/linux
tarball=/usr/src/linux-source-6.12.tar.xz

die() { echo "tree: $*" >&2; exit 1; }

# 1. Debian packages.
lab/packages.sh

# Fixed identity and dates: the same input gives the same commit ids.
export GIT_AUTHOR_NAME="rhashtable developers"
export GIT_AUTHOR_EMAIL="rhashtable-dev@example.org"
export GIT_AUTHOR_DATE="2024-11-17T00:00:00Z"
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME
export GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
git() { command git -C "$tree" "$@"; }

# 2. The pristine base, extracted once (in a temporary directory, so an
#    interrupted run starts over).
if ! git rev-parse -q --verify rht-base >/dev/null 2>&1; then
	echo "tree: extracting $tarball into $tree"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xJf "$tarball" -C "$tree.tmp" --strip-components=1
	# Debian's .gitignore ends with a block ignoring the whole top level.
	python3 - "$tree.tmp/.gitignore" <<-'PY'
	import sys
	path = sys.argv[1]
	text = open(path).read()
	cut = text.index("#\n# Debian packaging: ignore everything at the top level")
	open(path, "w").write(text[:cut].rstrip("\n") + "\n")
	PY
	mv "$tree.tmp" "$tree"
	command git init -q -b rht "$tree"
	git config core.untrackedCache true
	git config gc.auto 0
	git config index.version 4
	git add -A -f .
	base=$(echo "Linux 6.12 (Debian linux-source-6.12, pristine)" |
		git commit-tree "$(git write-tree)")
	git update-ref refs/heads/rht "$base"
	git tag rht-base "$base"
fi

# 3. The series, one commit per lab/series/NN-*.txt.  A file listed as
#    path@NAME goes in filtered (lab/series/filter.py), so that an earlier
#    patch can carry it without what a later one, listing it plainly, adds.
field() { sed -n "s/^$1: *//p" "$2"; }
index=$tree/.git/index.rht
igit() { GIT_INDEX_FILE=$index git "$@"; }	# git on a temporary index
igit read-tree rht-base
commit=$(git rev-parse rht-base)
for s in lab/series/[0-9]*.txt; do
	[ -e "$s" ] || break
	subject=$(field Subject "$s")
	[ -n "$subject" ] || die "$s: no Subject: line"
	files=()
	for f in $(field Files "$s"); do
		# A directory stands for the files git tracks under it.
		if [ -d "$f" ]; then
			tracked=$(command git ls-files -- "$f")
			[ -n "$tracked" ] || die "$s: no tracked files under $f"
			files+=($tracked)
		else
			files+=("$f")
		fi
	done
	for f in "${files[@]}"; do
		# path@NAME: the file as lab/series/filter.py NAME prints it,
		# that is before a later patch adds to it.
		filter=
		case $f in *@*) filter=${f#*@}; f=${f%@*} ;; esac
		[ -f "$f" ] || die "$s: missing file $f"
		mode=100644
		[ -x "$f" ] && mode=100755
		if [ -n "$filter" ]; then
			lab/series/filter.py "$filter" "$f" > "$index.blob" ||
				die "$s: filter $filter of $f failed"
			blob=$(git hash-object -w --no-filters "$index.blob")
			rm -f "$index.blob"
		else
			blob=$(git hash-object -w --no-filters "$repo/$f")
		fi
		igit update-index --add --cacheinfo "$mode,$blob,$f"
	done
	for d in $(field Diffs "$s"); do
		[ -f "$d" ] || die "$s: missing diff $d"
		igit apply --cached "$repo/$d" || die "$s: $d does not apply"
	done
	# The message is the subject plus everything after the first blank line.
	commit=$({ echo "$subject"; echo; sed '1,/^$/d' "$s"; } |
		git commit-tree "$(igit write-tree)" -p "$commit")
done
rm -f "$index"

# 4. Move the work tree from the current commit to the new one.
old=$(git rev-parse HEAD)
if [ "$old" != "$commit" ]; then
	git update-index -q --refresh || true
	git read-tree -m -u "$old" "$commit" ||
		die "cannot update $tree: local changes? (git -C $tree status)"
	git update-ref refs/heads/rht "$commit"
	git symbolic-ref HEAD refs/heads/rht
	echo "tree: rht is now $(git log --oneline -1 "$commit")"
fi
git log --oneline rht-base..rht
echo "$tree"
