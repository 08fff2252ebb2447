#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Builds the default guest for ARCH from Debian packages, cached under build/guests/ARCH:
#   x86_64:  vmlinuz    the kernel of the current linux-image-*-amd64 as it ships (a bzImage)
#            vmlinux    the ELF inside it, booted through its PVH entry
#            initrd.gz  busybox-static + scripts/guest/init (mode chosen on the kernel command
#                       line) + the guest kernel modules (scripts/guest/modules.sh) as
#                       /lib/modules/*.ko
#                       + tests/guest/linux/msgbench.c, fpucheck.c, workmeter.c,
#                       timerlat.c and hostile.c, static, in /bin
#   aarch64: Image      the raw arm64 Image of the current linux-image-*-arm64:arm64
#            initrd.gz  busybox-static:arm64's busybox + scripts/guest/init + /bin/msgbench,
#                       /bin/workmeter and /bin/timerlat
#                       + the guest tools that build for arm64, cross-built
# The arm64 packages are downloaded and unpacked, never installed; they need
# `dpkg --add-architecture arm64` and an apt-get update (done here when run as root).
set -e
ARCH=${1:-x86_64}
case "$ARCH" in
x86_64 | aarch64) ;;
*) echo "guests: ARCH=$ARCH not supported" >&2; exit 1 ;;
esac
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/build/guests/$ARCH
mkdir -p "$OUT"

# A directory apt-get download can write to (as root, apt fetches as the _apt user).
dl_dir() {
	d=$(mktemp -d)
	chmod 755 "$d"
	[ "$(id -u)" != 0 ] || chown _apt "$d" 2>/dev/null || true
	echo "$d"
}

if [ "$ARCH" = aarch64 ]; then
	# The arm64 package lists: needed for every arm64 download below.
	arm64_lists() {
		apt-cache policy busybox-static:arm64 2>/dev/null | grep -q 'Candidate: [0-9]' && return
		if [ "$(id -u)" != 0 ]; then
			echo "guests: apt has no arm64 packages; run as root:" >&2
			echo "  dpkg --add-architecture arm64 && apt-get update" >&2
			exit 1
		fi
		dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
		apt-get update -qq
	}
	# The kernel: the package behind linux-image-arm64:arm64; its vmlinuz is a raw Image
	# (gunzipped if a later package ships it compressed).
	if [ ! -s "$OUT/Image" ]; then
		arm64_lists
		pkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null | sed -n 's/.*Depends: \(linux-image-[0-9].*-arm64\)\(:arm64\)\{0,1\}$/\1/p' | head -n1)
		[ -n "$pkg" ] || { echo "guests: cannot resolve linux-image-arm64:arm64 (run apt-get update)" >&2; exit 1; }
		echo "guests: fetching $pkg:arm64"
		tmp=$(dl_dir)
		(cd "$tmp" && apt-get download -q "$pkg:arm64" >/dev/null &&
			dpkg-deb --fsys-tarfile ./*.deb | tar -x --wildcards './boot/vmlinuz-*')
		set -- "$tmp"/boot/vmlinuz-*
		k=$1
		if [ "$(od -An -tx1 -N2 "$k" | tr -d ' ')" = 1f8b ]; then
			gzip -dc "$k" > "$OUT/Image.tmp"
		else
			cp "$k" "$OUT/Image.tmp"
		fi
		# The arm64 Image header carries the magic "ARM\x64" at offset 56.
		[ "$(od -An -c -j56 -N4 "$OUT/Image.tmp" | tr -d ' ')" = 'ARMd' ] ||
			{ echo "guests: $k is not an arm64 Image" >&2; rm -rf "$tmp" "$OUT/Image.tmp"; exit 1; }
		echo "$pkg" > "$OUT/kernel-package"
		mv "$OUT/Image.tmp" "$OUT/Image"
		rm -rf "$tmp"
	fi
	# busybox: the static arm64 binary of busybox-static:arm64.
	BUSYBOX=$OUT/busybox
	if [ ! -s "$BUSYBOX" ]; then
		arm64_lists
		echo "guests: fetching busybox-static:arm64"
		tmp=$(dl_dir)
		(cd "$tmp" && apt-get download -q busybox-static:arm64 >/dev/null &&
			dpkg-deb --fsys-tarfile ./*.deb | tar -x ./bin/busybox)
		mv "$tmp/bin/busybox" "$BUSYBOX.tmp"
		chmod 755 "$BUSYBOX.tmp"
		mv "$BUSYBOX.tmp" "$BUSYBOX"
		rm -rf "$tmp"
	fi
	"$TOP/scripts/guest/modules.sh" "$ARCH" "$OUT/modules"
	MODULES=$OUT/modules
else
	# The kernel: resolve the package behind the linux-image-amd64 metapackage once, then
	# cache its vmlinuz as it ships, and the vmlinux inside it for the PVH entry.
	if [ ! -s "$OUT/vmlinuz" ]; then
		pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/.*Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n1)
		if [ -z "$pkg" ] && [ "$(id -u)" = 0 ]; then
			apt-get update -qq
			pkg=$(apt-cache depends linux-image-amd64 | sed -n 's/.*Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n1)
		fi
		[ -n "$pkg" ] || { echo "guests: cannot resolve linux-image-amd64 (run apt-get update)" >&2; exit 1; }
		echo "guests: fetching $pkg"
		tmp=$(dl_dir)
		(cd "$tmp" && apt-get download -q "$pkg" >/dev/null &&
			dpkg-deb --fsys-tarfile ./*.deb | tar -x --wildcards './boot/vmlinuz-*')
		set -- "$tmp"/boot/vmlinuz-*
		cp "$1" "$OUT/vmlinuz.tmp"
		echo "$pkg" > "$OUT/kernel-package"
		mv "$OUT/vmlinuz.tmp" "$OUT/vmlinuz"
		rm -rf "$tmp" "$OUT/vmlinux"
	fi
	if [ ! -s "$OUT/vmlinux" ]; then
		python3 "$TOP/scripts/guest/extract-vmlinux.py" "$OUT/vmlinuz" "$OUT/vmlinux.tmp"
		mv "$OUT/vmlinux.tmp" "$OUT/vmlinux"
	fi

	# The guest tools, built against the guest kernel's headers.
	"$TOP/scripts/guest/modules.sh" "$ARCH" "$OUT/modules"
	BUSYBOX=/bin/busybox
	MODULES=$OUT/modules
fi

# The user-space tools, static (libc6-dev, libc6-dev-arm64-cross); fpucheck (x86-64)
# keeps its own values in the vector registers, so the compiler may not use them.
if [ "$ARCH" = aarch64 ]; then CC=aarch64-linux-gnu-gcc TOOLS="msgbench workmeter timerlat"; else CC=gcc TOOLS="msgbench fpucheck workmeter timerlat hostile"; fi
for t in $TOOLS; do
	src=$TOP/tests/guest/linux/$t.c
	if [ ! -s "$OUT/$t" ] || [ "$src" -nt "$OUT/$t" ] || [ "${src%/*}/tool.h" -nt "$OUT/$t" ]; then
		flags=
		[ $t = fpucheck ] && flags=-mgeneral-regs-only
		$CC -static -O2 -Wall -Wextra -Werror $flags -o "$OUT/$t.tmp" "$src"
		mv "$OUT/$t.tmp" "$OUT/$t"
	fi
done

# The initramfs: rebuilt when init, busybox, a module or a tool changes.
stale=0
# shellcheck disable=SC2086 # TOOLS is a list of names
for f in "$TOP/scripts/guest/init" "$BUSYBOX" $(for t in $TOOLS; do echo "$OUT/$t"; done) ${MODULES:+"$MODULES"/*.ko}; do
	[ "$f" -nt "$OUT/initrd.gz" ] && stale=1
done
if [ ! -s "$OUT/initrd.gz" ] || [ $stale = 1 ]; then
	root=$(mktemp -d)
	mkdir -p "$root/bin" "$root/dev" "$root/proc" "$root/sys" "$root/tmp"
	cp "$BUSYBOX" "$root/bin/busybox"
	for t in $TOOLS; do cp "$OUT/$t" "$root/bin/$t"; done
	ln -s busybox "$root/bin/sh"
	cp "$TOP/scripts/guest/init" "$root/init"
	mkdir -p "$root/lib/modules"
	[ -z "$MODULES" ] || cp "$MODULES"/*.ko "$root/lib/modules/"
	chmod 755 "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet -R 0:0) | gzip -9 > "$OUT/initrd.gz"
	rm -rf "$root"
	echo "guests: built $OUT/initrd.gz"
fi
