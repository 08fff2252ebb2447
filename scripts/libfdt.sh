#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: scripts/libfdt.sh [--dir]
# libfdt's source, fetched and checksum-verified by scripts/fetch-source.sh into
# build/src/: only the files the hypervisor builds (lib/libfdt/libfdt_env.h says which and why).
# --dir prints the folder that holds them (the Makefile's LIBFDT_SRC) and fetches nothing.
#
# The pin: Debian 12's u-boot source package, whose scripts/dtc/libfdt is U-Boot's copy
# of upstream libfdt (dtc). Debian's own device-tree-compiler source package (1.6.1-4)
# would be the first choice, but its tarballs cannot be fetched from this project's
# package mirror (only its .dsc can); swapping is these three lines and LIBFDT_PATH.
PKG=u-boot
VER=2023.01+dfsg-2+deb12u3
DSC_SHA256=baf9a1492456920ff66b00fdd19ce8c588261bc2698b4875c9f5fdcfb1332aae
LIBFDT_PATH=scripts/dtc/libfdt
FILES="fdt.c fdt_ro.c fdt_sw.c fdt_rw.c fdt_wip.c fdt_addresses.c fdt.h libfdt.h libfdt_internal.h"
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
DEST=build/src/$PKG-$VER
if [ "$1" = --dir ]; then
	echo "$DEST/$LIBFDT_PATH"
	exit 0
fi
paths=
for f in $FILES; do
	paths="$paths $LIBFDT_PATH/$f"
done
# shellcheck disable=SC2086 # a list of paths without blanks
exec "$TOP/scripts/fetch-source.sh" "$PKG" "$VER" "$DSC_SHA256" "$TOP/$DEST" $paths
