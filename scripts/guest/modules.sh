#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Builds the guest kernel modules (guest_abi/tools/*.c, listed in guest_abi/tools/Kbuild)
# out of tree against Debian's linux-headers package of the guest kernel, and copies the
# .ko files into OUTDIR (to be packed into the initramfs under /lib/modules/).
#   scripts/guest/modules.sh ARCH OUTDIR
# The kernel version comes from build/guests/ARCH/kernel-package (scripts/guest/build.sh).
# The build happens in a copy under build/guest-modules/ARCH/VERSION; it is skipped when
# every .ko there is newer than the sources, and OUTDIR files are only replaced when their
# contents change (so their timestamps can drive an initramfs rebuild).
set -e
ARCH=${1:-x86_64}
OUTDIR=$2
[ "$ARCH" = x86_64 ] || { echo "modules: ARCH=$ARCH not supported yet" >&2; exit 1; }
[ -n "$OUTDIR" ] || { echo "usage: $0 ARCH OUTDIR" >&2; exit 1; }
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SRC=$TOP/guest_abi

pkgfile=$TOP/build/guests/$ARCH/kernel-package
[ -s "$pkgfile" ] || { echo "modules: no $pkgfile; run scripts/guest/build.sh $ARCH first" >&2; exit 1; }
kpkg=$(cat "$pkgfile")
kver=${kpkg#linux-image-}
case "$kver" in
[0-9]*-amd64) ;;
*) echo "modules: cannot derive the kernel version from '$kpkg' ($pkgfile)" >&2; exit 1 ;;
esac
hpkg=linux-headers-$kver
KDIR=/usr/src/linux-headers-$kver

# The headers package pulls linux-kbuild and the compiler the kernel was built with.
need=""
if ! dpkg-query -W -f='${Status}' "$hpkg" 2>/dev/null | grep -q "install ok installed" ||
	[ ! -f "$KDIR/Makefile" ]; then
	need=$hpkg
fi
command -v make >/dev/null 2>&1 || need="$need make"
if [ -n "$need" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "modules: missing packages; run as root:" >&2
		echo "  apt-get update && apt-get install -y --no-install-recommends $need" >&2
		exit 1
	fi
	echo "modules: installing $need"
	apt-cache show "$hpkg" >/dev/null 2>&1 || apt-get update -qq
	# shellcheck disable=SC2086 # a list of package names
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
	[ -f "$KDIR/Makefile" ] || { echo "modules: $hpkg installed but $KDIR is missing" >&2; exit 1; }
fi
# Debian's headers leave CC=gcc, which a fresh machine may lack: use the kernel's compiler
# (gcc-12 for bookworm's 6.1, from CONFIG_CC_VERSION_TEXT).
cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p' "$KDIR/.config")
command -v "${cc:-gcc}" >/dev/null 2>&1 || { echo "modules: compiler '${cc:-gcc}' of $hpkg not found" >&2; exit 1; }

# Module names: obj-m of the Kbuild file.
mods=$(sed -n 's/^obj-m[[:space:]]*[:+]*=//p' "$SRC/tools/Kbuild" | tr -s ' \t' '\n' | sed -n 's/\.o$//p')
[ -n "$mods" ] || { echo "modules: no obj-m in $SRC/tools/Kbuild" >&2; exit 1; }

B=$TOP/build/guest-modules/$ARCH/$kver
fresh=1
for m in $mods; do
	[ -f "$B/tools/$m.ko" ] || { fresh=0; break; }
	for f in "$SRC"/tools/* "$SRC"/*.h "$0"; do
		[ "$f" -nt "$B/tools/$m.ko" ] && { fresh=0; break 2; }
	done
done

if [ $fresh = 0 ]; then
	# A clean copy keeping the guest_abi layout, so that -I$(src)/.. finds the headers.
	rm -rf "$B"
	mkdir -p "$B/tools"
	cp "$SRC"/*.h "$B/"
	cp "$SRC"/tools/Kbuild "$SRC"/tools/*.c "$SRC"/tools/*.h "$B/tools/"
	# shellcheck disable=SC2086 # one word per module
	echo "modules: building" $mods "against $hpkg"
	make -s -C "$KDIR" M="$B/tools" CC="${cc:-gcc}" HOSTCC="${cc:-gcc}" -j"$(nproc)" modules
	for m in $mods; do
		[ -f "$B/tools/$m.ko" ] || { echo "modules: $m.ko was not built" >&2; exit 1; }
	done
fi

# Copies without debug information (what INSTALL_MOD_STRIP=1 does): a few KiB each.
mkdir -p "$OUTDIR"
for m in $mods; do
	strip --strip-debug -o "$B/$m.ko" "$B/tools/$m.ko"
	cmp -s "$B/$m.ko" "$OUTDIR/$m.ko" || cp "$B/$m.ko" "$OUTDIR/$m.ko"
done
