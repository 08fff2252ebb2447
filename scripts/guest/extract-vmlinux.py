#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Extracts the ELF vmlinux from an x86 bzImage (its payload is xz-compressed in
Debian's kernels). The ELF carries the PVH entry note the hypervisor boots from."""
import lzma
import sys

data = open(sys.argv[1], "rb").read()
if data[0x202:0x206] != b"HdrS":
    sys.exit(f"{sys.argv[1]}: not a bzImage (no HdrS signature)")
setup_sects = data[0x1F1] or 4
pm_start = (setup_sects + 1) * 512
offset = int.from_bytes(data[0x248:0x24C], "little")
length = int.from_bytes(data[0x24C:0x250], "little")
payload = data[pm_start + offset : pm_start + offset + length]
if payload[:6] != b"\xfd7zXZ\x00":
    sys.exit(f"{sys.argv[1]}: payload is not xz-compressed")
elf = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(payload)
if elf[:4] != b"\x7fELF":
    sys.exit(f"{sys.argv[1]}: payload is not an ELF image")
open(sys.argv[2], "wb").write(elf)
