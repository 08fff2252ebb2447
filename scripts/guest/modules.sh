#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Builds the guest kernel modules (the product's, guest_abi/module/; the test guests,
# tests/guest/modules/; the benchmarks, bench/modules/; each folder's Kbuild lists its own)
# out of tree against Debian's linux-headers package of the guest kernel (x86_64:
# installed; aarch64: the arm64 package unpacked under build/ and cross-built with the
# host's linux-kbuild and aarch64-linux-gnu-gcc-12), and copies the .ko files into OUTDIR
# (to be packed into the initramfs under /lib/modules/).
#   scripts/guest/modules.sh ARCH OUTDIR
# The kernel version comes from build/guests/ARCH/kernel-package (scripts/guest/build.sh).
# The build happens in one folder, a copy under build/guest-modules/ARCH/VERSION/tools of
# the three folders' sources and headers with their Kbuild lists joined; it is skipped when
# every .ko there is newer than the sources, and OUTDIR files are only replaced when their
# contents change (so their timestamps can drive an initramfs rebuild).
set -e
ARCH=${1:-x86_64}
OUTDIR=$2
case "$ARCH" in
x86_64) kind=amd64 ;;
aarch64) kind=arm64 ;;
*) echo "modules: ARCH=$ARCH not supported" >&2; exit 1 ;;
esac
[ -n "$OUTDIR" ] || { echo "usage: $0 ARCH OUTDIR" >&2; exit 1; }
TOP=$(cd "$(dirname "$0")/../.." && pwd)
DIRS="$TOP/guest_abi/module $TOP/tests/guest/modules $TOP/bench/modules"

pkgfile=$TOP/build/guests/$ARCH/kernel-package
[ -s "$pkgfile" ] || { echo "modules: no $pkgfile; run scripts/guest/build.sh $ARCH first" >&2; exit 1; }
kpkg=$(cat "$pkgfile")
kver=${kpkg#linux-image-}
case "$kver" in
[0-9]*-$kind) ;;
*) echo "modules: cannot derive the kernel version from '$kpkg' ($pkgfile)" >&2; exit 1 ;;
esac
hpkg=linux-headers-$kver

# apt_install PACKAGE...: apt-get install as root, else say what to run.
apt_install() {
	if [ "$(id -u)" != 0 ]; then
		echo "modules: missing packages; run as root:" >&2
		echo "  apt-get update && apt-get install -y --no-install-recommends $*" >&2
		exit 1
	fi
	echo "modules: installing $*"
	apt-cache show "$1" >/dev/null 2>&1 || apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
command -v make >/dev/null 2>&1 || apt_install make

if [ "$ARCH" = x86_64 ]; then
	# The headers package pulls linux-kbuild and the compiler the kernel was built with.
	KDIR=/usr/src/linux-headers-$kver
	{ installed "$hpkg" && [ -f "$KDIR/Makefile" ]; } || apt_install "$hpkg"
	[ -f "$KDIR/Makefile" ] || { echo "modules: $hpkg installed but $KDIR is missing" >&2; exit 1; }
	# Debian's headers leave CC=gcc, which a fresh machine may lack: use the kernel's
	# compiler (gcc-12 for bookworm's 6.1, from CONFIG_CC_VERSION_TEXT).
	cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p' "$KDIR/.config")
	command -v "${cc:-gcc}" >/dev/null 2>&1 || { echo "modules: compiler '${cc:-gcc}' of $hpkg not found" >&2; exit 1; }
	set -- CC="${cc:-gcc}" HOSTCC="${cc:-gcc}"
else
	# Cross-built: the arm64 headers package, unpacked (never installed), whose scripts
	# link to ../../lib/linux-kbuild-<series>: that is the host's own linux-kbuild of
	# the same series (its tools are not tied to an architecture), and its Makefile
	# includes the host's linux-headers-<abi>-common. Its compiler is
	# $(CROSS_COMPILE)gcc-12 (.kernelvariables).
	H=$TOP/build/guest-modules/$ARCH/headers-$kver
	KDIR=$H/usr/src/linux-headers-$kver
	if [ ! -f "$KDIR/Makefile" ]; then
		echo "modules: fetching $hpkg:arm64"
		tmp=$(mktemp -d)
		chmod 755 "$tmp"
		[ "$(id -u)" != 0 ] || chown _apt "$tmp" 2>/dev/null || true
		(cd "$tmp" && apt-get download -q "$hpkg:arm64" >/dev/null) ||
			{ rm -rf "$tmp"; echo "modules: cannot download $hpkg:arm64" >&2; exit 1; }
		rm -rf "$H"
		mkdir -p "$H"
		dpkg-deb -x "$tmp"/*.deb "$H"
		dpkg-deb -f "$tmp"/*.deb Depends > "$H/depends"
		rm -rf "$tmp"
	fi
	# linux-kbuild-6.1, at least the version the headers depend on
	kb=$(readlink "$KDIR/scripts" | sed -n 's|^\.\./\.\./lib/\(linux-kbuild-[^/]*\)/scripts$|\1|p')
	[ -n "$kb" ] || { echo "modules: $KDIR/scripts does not name a linux-kbuild" >&2; exit 1; }
	kbmin=$(tr ',' '\n' < "$H/depends" | sed -n "s/^ *$kb (>= \(.*\))$/\1/p")
	common=$(sed -n 's|^include /usr/src/\(linux-headers-[^/]*-common\)/Makefile|\1|p' "$KDIR/Makefile")
	need=""
	if ! installed "$kb" || { [ -n "$kbmin" ] &&
		! dpkg --compare-versions "$(dpkg-query -W -f='${Version}' "$kb")" ge "$kbmin"; }; then
		need=$kb
	fi
	[ -z "$common" ] || installed "$common" || need="$need $common"
	command -v aarch64-linux-gnu-gcc-12 >/dev/null 2>&1 || need="$need gcc-12-aarch64-linux-gnu"
	# shellcheck disable=SC2086 # a list of package names
	[ -z "$need" ] || apt_install $need
	mkdir -p "$H/usr/lib"
	ln -sfn "/usr/lib/$kb" "$H/usr/lib/$kb"
	set -- CROSS_COMPILE=aarch64-linux-gnu- HOSTCC=gcc
fi

# The modules: those the last build made (its modules.order); rebuilt when one is missing
# or older than a source.
B=$TOP/build/guest-modules/$ARCH/$kver
built() { sed -n 's|.*/\([^/]*\)\.ko$|\1|p' "$B/tools/modules.order" 2>/dev/null || true; }
mods=$(built)
fresh=1
[ -n "$mods" ] || fresh=0
for m in $mods; do
	[ -f "$B/tools/$m.ko" ] || { fresh=0; break; }
	# shellcheck disable=SC2086 # DIRS: paths without blanks
	for f in $(find $DIRS -maxdepth 1 -type f) "$TOP"/guest_abi/*.h "$0"; do
		[ "$f" -nt "$B/tools/$m.ko" ] && { fresh=0; break 2; }
	done
done

if [ $fresh = 0 ]; then
	# A clean copy of every folder's sources in one, with the ABI's headers, and one
	# Kbuild: their lists.
	rm -rf "$B"
	mkdir -p "$B/tools"
	cp "$TOP"/guest_abi/*.h "$B/tools/"
	echo 'ccflags-y := -I$(src)' > "$B/tools/Kbuild"
	for d in $DIRS; do
		find "$d" -maxdepth 1 -name '*.[ch]' -exec cp {} "$B/tools/" \;
		grep -v '^ccflags-y' "$d/Kbuild" >> "$B/tools/Kbuild"
	done
	echo "modules: building guest_abi/module, tests/guest/modules and bench/modules against $hpkg"
	make -s -C "$KDIR" M="$B/tools" "$@" -j"$(nproc)" modules
	mods=$(built)
	[ -n "$mods" ] || { echo "modules: nothing was built" >&2; exit 1; }
	# shellcheck disable=SC2086 # one word per module
	echo "modules: built" $mods
fi

# Copies without debug information (what INSTALL_MOD_STRIP=1 does): a few KiB each.
mkdir -p "$OUTDIR"
for m in $mods; do
	if [ "$ARCH" = aarch64 ]; then strip=aarch64-linux-gnu-strip; else strip=strip; fi
	$strip --strip-debug -o "$B/$m.ko" "$B/tools/$m.ko"
	cmp -s "$B/$m.ko" "$OUTDIR/$m.ko" || cp "$B/$m.ko" "$OUTDIR/$m.ko"
done
