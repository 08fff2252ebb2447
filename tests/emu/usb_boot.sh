# SPDX-License-Identifier: GPL-2.0-only
# x86-64 booted from the USB stick's image (make usb-image): see usb_boot in lib.sh.
. "$(dirname "$0")/lib.sh"
usb_boot
finish
