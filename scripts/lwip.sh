#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: scripts/lwip.sh [--dir]
# lwIP's source, fetched and checksum-verified by scripts/fetch-source.sh into build/src/:
# only its core (IPv4, UDP, DHCP), the Ethernet layer and its headers (lib/lwip/lwip.mk
# says which files build and how; beside it, the project's port and options).
# --dir prints the folder that holds them (the Makefile's LWIP_SRC) and fetches nothing.
# The pin: Debian 12's lwip source package (upstream 2.1.3).
PKG=lwip
VER=2.1.3+dfsg1-2
DSC_SHA256=8d8f944db8e6d542fc2d6f01559078fb1b5dda71651c67ee5fa3571ed1342c50
PATHS="src/core src/include src/netif/ethernet.c"
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
DEST=build/src/$PKG-$VER
if [ "$1" = --dir ]; then
	echo "$DEST/src"
	exit 0
fi
# shellcheck disable=SC2086 # a list of paths without blanks
exec "$TOP/scripts/fetch-source.sh" "$PKG" "$VER" "$DSC_SHA256" "$TOP/$DEST" $PATHS
