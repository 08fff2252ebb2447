#!/bin/sh
# Builds the default guest for ARCH from Debian packages, cached under build/guests/ARCH:
#   vmlinux    the kernel of the current linux-image-*-amd64, as a PVH-bootable ELF
#   initrd.gz  busybox-static + scripts/guest/init (mode chosen on the kernel command line)
#              + the guest tools of guest_abi/tools as /lib/modules/*.ko
set -e
ARCH=${1:-x86_64}
[ "$ARCH" = x86_64 ] || { echo "guests: ARCH=$ARCH not supported yet" >&2; exit 1; }
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/build/guests/$ARCH
mkdir -p "$OUT"

# The kernel: resolve the package behind the linux-image-amd64 metapackage once, then cache.
if [ ! -s "$OUT/vmlinux" ]; then
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/.*Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n1)
	if [ -z "$pkg" ] && [ "$(id -u)" = 0 ]; then
		apt-get update -qq
		pkg=$(apt-cache depends linux-image-amd64 | sed -n 's/.*Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n1)
	fi
	[ -n "$pkg" ] || { echo "guests: cannot resolve linux-image-amd64 (run apt-get update)" >&2; exit 1; }
	echo "guests: fetching $pkg"
	tmp=$(mktemp -d); chmod 755 "$tmp"
	(cd "$tmp" && apt-get download -q "$pkg" >/dev/null && dpkg-deb -x ./*.deb root)
	python3 "$TOP/scripts/guest/extract-vmlinux.py" "$tmp"/root/boot/vmlinuz-* "$OUT/vmlinux.tmp"
	echo "$pkg" > "$OUT/kernel-package"
	mv "$OUT/vmlinux.tmp" "$OUT/vmlinux"
	rm -rf "$tmp"
fi

# The guest tools, built against the guest kernel's headers.
"$TOP/scripts/guest/modules.sh" "$ARCH" "$OUT/modules"

# The initramfs: rebuilt when init, busybox or a module changes.
stale=0
for f in "$TOP/scripts/guest/init" /bin/busybox "$OUT"/modules/*.ko; do
	[ "$f" -nt "$OUT/initrd.gz" ] && stale=1
done
if [ ! -s "$OUT/initrd.gz" ] || [ $stale = 1 ]; then
	root=$(mktemp -d)
	mkdir -p "$root/bin" "$root/dev" "$root/proc" "$root/sys" "$root/tmp"
	cp /bin/busybox "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"
	cp "$TOP/scripts/guest/init" "$root/init"
	mkdir -p "$root/lib/modules"
	cp "$OUT"/modules/*.ko "$root/lib/modules/"
	chmod 755 "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet -R 0:0) | gzip -9 > "$OUT/initrd.gz"
	rm -rf "$root"
	echo "guests: built $OUT/initrd.gz"
fi
