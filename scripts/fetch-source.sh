#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: scripts/fetch-source.sh PACKAGE VERSION DSC_SHA256 DEST [PATH...]
# Fetches the Debian source package PACKAGE=VERSION (bookworm main) with
# `apt-get source --download-only`, checks its .dsc against the pinned DSC_SHA256 and
# every file the .dsc lists against the .dsc's own Checksums-Sha256, and unpacks the
# upstream (orig) tarball into DEST (its top folder stripped): all of it, or only the
# PATHs given (folders or files of the upstream tree, e.g. scripts/dtc/libfdt).
# Third-party source is never kept in this repository: the build calls this instead.
#
# apt needs a deb-src entry; this script's own is /etc/apt/sources.list.d/hv-deb-src.sources,
# with the mirror of the machine's bookworm main entry (written, and its lists fetched,
# when run as root; otherwise the commands are printed).
# Quiet and instant when DEST already holds this very version (DEST/.fetched records the
# pinned hash). Exits non-zero, naming the file and what mismatched, on any failure.
set -e
[ $# -ge 4 ] || { echo "usage: $0 PACKAGE VERSION DSC_SHA256 DEST [PATH...]" >&2; exit 2; }
PKG=$1 VER=$2 DSC_SHA=$3 DEST=$4
shift 4
STAMP=$DEST/.fetched
SOURCES=/etc/apt/sources.list.d/hv-deb-src.sources
# File names carry no epoch: 1:1.2.13.dfsg-1 is zlib_1.2.13.dfsg-1.dsc.
DSC=${PKG}_${VER#*:}.dsc

WANT="$PKG $VER $DSC_SHA $*"
[ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$WANT" ] && exit 0

die() { echo "fetch-source: $PKG $VER: $*" >&2; exit 1; }

# apt knows the source package in this version.
known() { apt-cache showsrc --only-source "$PKG" 2>/dev/null | grep -qx "Version: $VER"; }

# The deb822 entry (like Debian 12's debian.sources) for the mirror apt already uses.
entry() { "$(dirname "$0")/apt-entry.sh" deb-src bookworm "Debian source packages the build unpacks." || exit 1; }

if ! known; then
	if [ "$(id -u)" != 0 ]; then
		{
			echo "fetch-source: apt has no source package $PKG $VER; as root run"
			echo "scripts/deps.sh, or:"
			[ -f "$SOURCES" ] || entry | sed "s|^|  echo '|; s|\$|' >> $SOURCES|"
			echo "  apt-get update"
		} >&2
		exit 1
	fi
	if [ ! -f "$SOURCES" ]; then
		echo "fetch-source: adding $SOURCES (deb-src, bookworm main)"
		entry > "$SOURCES"
	fi
	# Only this entry's lists: quick, and the other lists stay as they are.
	apt-get update -qq -o Dir::Etc::sourcelist="$SOURCES" -o Dir::Etc::sourceparts=- \
		-o APT::Get::List-Cleanup=0 || die "apt-get update of $SOURCES failed"
	known || die "not in bookworm's sources (apt-cache showsrc $PKG lists other versions?)"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
chown _apt "$tmp" 2>/dev/null || true # lets apt fetch without its "unsandboxed" note
(cd "$tmp" && apt-get source -qq --download-only "$PKG=$VER" >/dev/null) ||
	die "apt-get source --download-only $PKG=$VER failed"

[ -f "$tmp/$DSC" ] || die "apt-get source gave no $DSC"
got=$(sha256sum "$tmp/$DSC" | cut -d' ' -f1)
[ "$got" = "$DSC_SHA" ] || die "$DSC: sha256 $got, expected $DSC_SHA (pinned)"

# The .dsc's Checksums-Sha256 field: " HASH SIZE NAME" lines.
sums=$(awk '/^Checksums-Sha256:/ { on = 1; next } on && /^ / { print $1, $2, $3; next } { on = 0 }' "$tmp/$DSC")
[ -n "$sums" ] || die "$DSC has no Checksums-Sha256"
orig=
while read -r sha size name; do
	f=$tmp/$name
	[ -f "$f" ] || die "$name (listed in $DSC) was not downloaded"
	have=$(wc -c < "$f" | tr -d ' ')
	[ "$have" = "$size" ] || die "$name: $have bytes, $DSC says $size"
	have=$(sha256sum "$f" | cut -d' ' -f1)
	[ "$have" = "$sha" ] || die "$name: sha256 $have, $DSC says $sha"
	case $name in
	*.orig.tar.*) orig=$name ;;
	esac
done <<EOF
$sums
EOF
[ -n "$orig" ] || die "$DSC lists no upstream tarball (*.orig.tar.*)"

rm -rf "$DEST"
mkdir -p "$DEST"
top=$(tar -tf "$tmp/$orig" | head -n 1 | cut -d/ -f1)
members=
for p in "$@"; do
	members="$members $top/${p%/}"
done
# shellcheck disable=SC2086 # a list of member names without blanks
tar -xf "$tmp/$orig" -C "$DEST" --strip-components=1 --no-same-owner $members ||
	die "unpacking${members:- all of} $orig failed"
echo "$WANT" > "$STAMP"
echo "fetch-source: $PKG $VER: $orig verified, unpacked${*:+ ($*)} into $DEST"
