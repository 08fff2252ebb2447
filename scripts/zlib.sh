#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: scripts/zlib.sh [--dir]
# zlib's inflate, fetched and checksum-verified by scripts/fetch-source.sh into build/src/:
# only the files that decompress (lib/zlib/zlib_env.h says how they build freestanding).
# --dir prints the folder that holds them (the Makefile's ZLIB_SRC) and fetches nothing.
# The pin: Debian 12's zlib source package.
PKG=zlib
VER=1:1.2.13.dfsg-1
DSC_SHA256=3fa1e6b2fc525062aa88207dda52fed8e045373c809d362fe8a2bfbf7cf515a8
FILES="inflate.c inftrees.c inffast.c zutil.c adler32.c crc32.c zlib.h zconf.h zutil.h \
inflate.h inftrees.h inffast.h inffixed.h crc32.h"
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
DEST=build/src/$PKG-${VER#*:}
if [ "$1" = --dir ]; then
	echo "$DEST"
	exit 0
fi
# shellcheck disable=SC2086 # a list of paths without blanks
exec "$TOP/scripts/fetch-source.sh" "$PKG" "$VER" "$DSC_SHA256" "$TOP/$DEST" $FILES
