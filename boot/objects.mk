# SPDX-License-Identifier: GPL-2.0-only
# The UEFI application: entry, configuration, image loading, takeover.
objs-y += boot/config.o boot/efi.o boot/efi_main.o boot/efi_mp.o boot/files.o
