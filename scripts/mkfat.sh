#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: mkfat.sh OUT.img FILE=PATH ...
# Makes a FAT file system image holding each FILE at PATH (its folders are made as
# needed), sized to the files with room to spare. Written with mtools: no mount, no root.
set -e
OUT=$1
shift
size_kb=16384
for f in "$@"; do size_kb=$((size_kb + $(du -k "${f%%=*}" | cut -f1))); done
rm -f "$OUT"
mkfs.vfat -C "$OUT" $((size_kb + size_kb / 8)) >/dev/null
export MTOOLS_SKIP_CHECK=1
made=' '
for f in "$@"; do
	dir='' rest=${f#*=}
	rest=${rest#/}
	while [ "${rest#*/}" != "$rest" ]; do
		dir=$dir/${rest%%/*}
		rest=${rest#*/}
		case "$made" in *" $dir "*) ;; *) mmd -i "$OUT" "::$dir" && made="$made$dir " ;; esac
	done
	mcopy -i "$OUT" "${f%%=*}" "::${f#*=}"
done
