#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: scripts/qemu10.sh
# Unpacks QEMU 10 from Debian's bookworm-backports (qemu-system-x86, qemu-system-arm and
# their common and data packages; downloaded with apt, never installed) into
# build/qemu10, next to Debian 12's own QEMU 7.2. scripts/qemu.sh runs it with QEMU=10.
# QEMU 10 gives its TCG guests an x2APIC, which QEMU 7.2 does not.
#
# apt needs a bookworm-backports entry; this script's own is
# /etc/apt/sources.list.d/hv-backports.sources, with the mirror of the machine's bookworm
# main entry (written, and its lists fetched, when run as root; otherwise the commands
# are printed). Quiet and instant when build/qemu10 holds the backports' current version.
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
DEST=$TOP/build/qemu10
SOURCES=/etc/apt/sources.list.d/hv-backports.sources
PKGS="qemu-system-x86 qemu-system-arm qemu-system-common qemu-system-data"
die() { echo "qemu10: $*" >&2; exit 1; }

# The candidate version of qemu-system-x86 in bookworm-backports, if apt knows one.
version() {
	apt-cache madison qemu-system-x86 2>/dev/null |
		awk -F'|' '$3 ~ /bookworm-backports/ { gsub(/ /, "", $2); print $2; exit }'
}

entry() { "$(dirname "$0")/apt-entry.sh" deb bookworm-backports "QEMU 10, unpacked into build/qemu10." || exit 1; }

ver=$(version)
if [ -z "$ver" ]; then
	if [ "$(id -u)" != 0 ]; then
		{
			echo "qemu10: apt knows no bookworm-backports; as root run scripts/qemu10.sh, or:"
			[ -f "$SOURCES" ] || entry | sed "s|^|  echo '|; s|\$|' >> $SOURCES|"
			echo "  apt-get update"
		} >&2
		exit 1
	fi
	[ -f "$SOURCES" ] || { echo "qemu10: adding $SOURCES (bookworm-backports)"; entry > "$SOURCES"; }
	# Only this entry's lists: quick, and the other lists stay as they are.
	apt-get update -qq -o Dir::Etc::sourcelist="$SOURCES" -o Dir::Etc::sourceparts=- \
		-o APT::Get::List-Cleanup=0 || die "apt-get update of $SOURCES failed"
	ver=$(version)
	[ -n "$ver" ] || die "bookworm-backports has no qemu-system-x86"
fi
[ -f "$DEST/.version" ] && [ "$(cat "$DEST/.version")" = "$ver" ] &&
	[ -x "$DEST/usr/bin/qemu-system-x86_64" ] && exit 0

echo "qemu10: fetching QEMU $ver from bookworm-backports"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
chown _apt "$tmp" 2>/dev/null || true # lets apt fetch without its "unsandboxed" note
want=$(for p in $PKGS; do printf '%s=%s ' "$p" "$ver"; done)
# shellcheck disable=SC2086 # a list of package=version words
(cd "$tmp" && apt-get download -q $want >/dev/null) ||
	die "apt-get download of $PKGS ($ver) failed"
rm -rf "$DEST"
mkdir -p "$DEST"
for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$DEST"; done
"$DEST/usr/bin/qemu-system-x86_64" -L "$DEST/usr/share/qemu" -version | head -n1 |
	grep -q "version 10\." || die "$DEST/usr/bin/qemu-system-x86_64 does not run as QEMU 10"
echo "$ver" > "$DEST/.version"
echo "qemu10: QEMU $ver in build/qemu10"
