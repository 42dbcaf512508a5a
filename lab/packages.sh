#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages of lab/packages.txt that are missing (as
# root; otherwise print the apt-get command and fail).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
for p in $(grep -v '^#' lab/packages.txt); do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
((${#missing[@]})) || exit 0
if ((EUID != 0)); then
	echo "packages: missing ${missing[*]}; as root run:" >&2
	echo "  apt-get install --no-install-recommends ${missing[*]}" >&2
	exit 1
fi
echo "packages: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
install=(apt-get install -y --no-install-recommends "${missing[@]}")
"${install[@]}" || { apt-get update && "${install[@]}"; }
