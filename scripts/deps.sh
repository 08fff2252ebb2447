#!/bin/sh
# Installs the build and test dependencies from Debian's packages (when run as root),
# or prints the exact apt-get line to run. Quiet when everything is present.
set -e
PKGS="gcc make binutils nasm gnu-efi qemu-system-x86 ovmf mtools dosfstools cpio busybox-static python3 xz-utils"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing$missing"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
	echo "deps: missing packages; run as root:" >&2
	echo "  apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
