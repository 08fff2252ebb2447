#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Writes the seed corpora of the fuzz harnesses, tests/fuzz/corpus/NAME/*, each input in
# the shape its harness's header comment describes (tests/fuzz/fuzz_NAME.c): real
# instruction bytes, page tables, a tiny vmlinux, bzImage and arm64 Image, hv.cfg files
# from docs/configuration.md, ACPI tables and devicetrees shaped as QEMU's, register sequences as
# Linux's drivers issue them, a gzip file. All of it is made here; run it again after a
# harness changes its input format (the files are kept in the tree, small).
#   usage: tests/fuzz/mkseeds.py
import gzip
import os
import shutil
import struct

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def u8(v): return struct.pack("<B", v & 0xFF)
def u16(v): return struct.pack("<H", v & 0xFFFF)
def u32(v): return struct.pack("<I", v & 0xFFFFFFFF)
def u64(v): return struct.pack("<Q", v & 0xFFFFFFFFFFFFFFFF)


def write(name, seeds):
    d = os.path.join(TOP, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for fname, data in seeds.items():
        with open(os.path.join(d, fname), "wb") as f:
            f.write(data)


def decode():
    # mode byte (0: 16-bit, 1: 32-bit, 2: 64-bit), the loaded value, the instruction
    insns = {
        "mov_load": (2, "8b07"),                    # mov (%rdi),%eax
        "mov_store_rex": (2, "4d893e"),             # mov %r15,(%r14)
        "mov_abs_sib": (2, "488b042500 00c0fe"),    # mov 0xfec00000,%rax
        "mov_imm32": (2, "c7401000000080"),          # movl $0x80000000,0x10(%rax)
        "mov_imm64_rexw": (2, "48c700ffffffff"),     # movq $-1,(%rax)
        "movzx_word": (2, "0fb74710"),               # movzwl 0x10(%rdi),%eax
        "movsx_byte": (2, "480fbe07"),               # movsbq (%rdi),%rax
        "moffs": (2, "a1 0000c0fe00000000"),         # mov 0xfec00000,%eax (moffs64)
        "high8": (2, "8820"),                        # mov %ah,(%rax)
        "prefixes": (2, "f0 2e 66 89 01"),           # lock cs mov %ax,(%rcx)
        "rip_rel": (2, "8b0500100000"),              # mov 0x1000(%rip),%eax
        "mode32": (1, "8b8000f0ffff"),               # mov -0x1000(%eax),%eax
        "mode16": (0, "8b4702"),                     # mov 2(%bx),%ax
        "mode16_67": (0, "67668b00"),                # mov (%eax),%eax
        "or_imm8": (2, "48830801"),                  # orq $1,(%rax)
        "or_reg_sib": (2, "4109842400100000"),       # or %eax,0x1000(%r12)
        "cmp_imm32": (2, "41813c2435920000"),        # cmpl $0x9235,(%r12)
        "adc_reg": (1, "115010"),                    # adc %edx,0x10(%eax)
        "test_imm8": (2, "f6401080"),                # testb $0x80,0x10(%rax)
        "lock_neg": (2, "f048f718"),                 # lock negq (%rax)
        "dec_byte": (2, "fe08"),                     # decb (%rax)
        "xchg_high8": (2, "8620"),                   # xchg %ah,(%rax)
        "xchg_rex": (2, "4c8706"),                   # xchg %r8,(%rsi)
        "add_imm16_mode16": (0, "81073412"),         # addw $0x1234,(%bx)
    }
    return {k: u8(m) + u64(0x8899AABBCCDDEEFF) + bytes.fromhex(h.replace(" ", ""))
            for k, (m, h) in insns.items()}


def guest_walk():
    def seed(cr0, cr4, efer, cr3, gva, mem):
        return u8(cr0) + u8(cr4) + u8(efer) + u64(cr3) + u64(gva) + mem

    def mem(size, *entries):  # guest memory from 0 with (offset, bytes) written in it
        m = bytearray(size)
        for off, data in entries:
            m[off:off + len(data)] = data
        return bytes(m)

    # 32-bit paging, a 4 MiB page (PSE): the PDE at CR3 + (gva >> 22) * 4
    m32 = mem(8, (4, u32(0x00C00000 | 0x83)))
    # 32-bit paging through a page table: PD at 0, PT at 0x1000
    m32pt = mem(0x1008, (0, u32(0x1000 | 3)), (0x1004, u32(0x5000 | 3)))
    # PAE: PDPTEs at 0, PD at 0x1000 with a 2 MiB page
    mpae = mem(0x1008, (0, u64(0x1000 | 1)), (0x1000, u64(0x40000000 | 0x83)))
    # long mode, 4 levels, a 1 GiB page: PML4 at 0, PDPT at 0x1000
    m64 = mem(0x1008, (0, u64(0x1000 | 3)), (0x1000, u64(0x80000000 | 0x83)))
    # long mode, 4 KiB pages all the way: PML4 0, PDPT 0x1000, PD 0x2000, PT 0x3000; the
    # page is NX (needs EFER.NXE)
    m4k = mem(0x3010, (0, u64(0x1000 | 3)), (0x1000, u64(0x2000 | 3)),
              (0x2000, u64(0x3000 | 3)), (0x3008, u64((1 << 63) | 0x7000 | 3)))
    return {
        "no_paging": seed(1, 0, 0, 0, 0x12345678, b""),
        "pse_4m": seed(3, 1, 0, 0, 0x00400123, m32),
        "32bit_pt": seed(3, 0, 0, 0, 0x00001abc, m32pt),
        "pae_2m": seed(3, 2, 0, 0, 0x00012345, mpae),
        "long_1g": seed(3, 2, 1, 0, 0x00012345, m64),
        "long_4k_nx": seed(3, 2, 3, 0, 0x00001abc, m4k),
        "la57": seed(3, 6, 1, 0, 0, m4k),
    }


def elf(entry_size=4, with_note=True):
    # ELF64 x86-64 ET_EXEC: PT_LOAD (code with bss), PT_LOAD, PT_NOTE with the PVH note
    ph = 64
    notes = b""

    def note(name, typ, desc):
        n = name + b"\0"
        return (u32(len(n)) + u32(len(desc)) + u32(typ) + n.ljust((len(n) + 3) & ~3, b"\0")
                + desc.ljust((len(desc) + 3) & ~3, b"\0"))
    notes += note(b"GNU", 3, b"\xab" * 20)
    notes += note(b"Xen", 6, b"linux\0")
    entry = 0x1000010
    if with_note:
        notes += note(b"Xen", 18, u32(entry) if entry_size == 4 else u64(entry))
    nphdr = 3
    note_off = ph + nphdr * 56
    code_off = (note_off + len(notes) + 15) & ~15
    code = b"\x90" * 64

    def phdr(typ, off, paddr, filesz, memsz, align):
        return (u32(typ) + u32(5) + u64(off) + u64(0xFFFFFFFF80000000 | paddr) + u64(paddr)
                + u64(filesz) + u64(memsz) + u64(align))
    hdr = (b"\x7fELF" + bytes([2, 1, 1]) + b"\0" * 9 + u16(2) + u16(62) + u32(1)
           + u64(0xFFFFFFFF81000000) + u64(ph) + u64(0) + u32(0) + u16(64) + u16(56)
           + u16(nphdr) + u16(64) + u16(0) + u16(0))
    phs = (phdr(1, code_off, 0x1000000, 32, 0x2000, 0x200000)
           + phdr(1, code_off + 32, 0x1200000, 32, 32, 0x200000)
           + phdr(4, note_off, 0, len(notes), len(notes), 4))
    body = hdr + phs + notes
    return body.ljust(code_off, b"\0") + code


def bzimage(version=0x20F, xlf=0x7F, setup_sects=1):
    img = bytearray((setup_sects + 1) * 512 + 0x200)
    img[0x1F1] = setup_sects
    img[0x1FE:0x200] = u16(0xAA55)
    img[0x200] = 0xEB
    img[0x201] = 0x26C - 0x202
    img[0x202:0x206] = b"HdrS"
    img[0x206:0x208] = u16(version)
    img[0x211] = 1
    img[0x214:0x218] = u32(0x100000)
    img[0x22C:0x230] = u32(0x7FFFFFFF)
    img[0x230:0x234] = u32(0x200000)
    img[0x234] = 1
    img[0x236:0x238] = u16(xlf)
    img[0x238:0x23C] = u32(0x7FF)
    img[0x248:0x24C] = u32(0x100)
    img[0x24C:0x250] = u32(0x80)
    img[0x258:0x260] = u64(0x1000000)
    img[0x260:0x264] = u32(0x40000)
    return bytes(img)


def arm64_image(text_offset, image_size, flags, length=256):
    h = bytearray(length)
    h[0:4] = u32(0xFA405A4D)
    h[4:8] = u32(0x1459A356)
    h[8:16] = u64(text_offset)
    h[16:24] = u64(image_size)
    h[24:32] = u64(flags)
    h[56:60] = u32(0x644D5241)
    h[60:64] = u32(0x40)
    return bytes(h)


def linux_image():
    def seed(base, ram, initrd, fdt, img):
        return u64(base) + u64(ram) + u64(initrd) + u32(fdt) + img
    return {
        "debian": seed(0x40000000, 512 << 20, 0x123456, 0x2000, arm64_image(0, 0x2010000, 0xA)),
        "no_initrd": seed(0x40001000, 64 << 20, 0, 0x1000, arm64_image(0x80000, 0x10000, 2)),
        "old_kernel": seed(0x80000000, 1 << 30, 0x1000, 0x2000, arm64_image(0, 0, 0)),
        "tight": seed(0x40000000, (2 << 20) + 0x2000, 0, 0x2000, arm64_image(0, 0x1000, 6)),
    }


CONFIGS = {
    "readme": b"""[hv]                        # optional
pcpus = 2
console = linux0
sched = aware
on_exit = poweroff
serial = com2
baud = 115200

[vm linux0]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0
vcpus = 2
memory = 512M
pv = all
pcpus = 0-1,3
""",
    "two_vms": b"""# two VMs
; comment
[hv]
sched = rr
console = b-2
[vm a]
kernel = \\EFI\\hv\\vmlinux
memory = 1g
pv = all,-ipi
[vm b-2]\t# header comment
kernel =vmlinux-2
vcpus=0x40
pv = clock,steal
""",
    "arm64": b"""[hv]
serial = mmio@0x9000000
on_exit = reboot
[vm arm]
kernel = /guests/Image.gz
cmdline = console=ttyAMA0 earlycon
memory = 0x10000000
pv = none
""",
    "errors": b"[vm x]\nkernel = k\nvcpus = 65\n",
    "bom_halt": b"\xef\xbb\xbf[hv]\non_exit = halt\nbaud = 9600\n[vm v]\nkernel=k\npcpus = 255\n",
}


def sdt(sig, body, rev=1):
    # a table as the harness takes it: the header's length and checksum it sets itself
    return sig + u32(36 + len(body)) + u8(rev) + u8(0) + b"BOCHS BXPC    " + u32(1) + b"BXPC" + u32(1) + body


def chunk(sel, table):
    return u8(sel) + u16(len(table)) + table


def gas(space, addr, width=8):
    return u8(space) + u8(width) + u8(0) + u8(1) + u64(addr)


def fadt_x86():
    f = bytearray(sdt(b"FACP", bytes(276 - 36), 6))
    f[40:44] = u32(1)                       # DSDT: the harness points it at table 1 % n
    f[64:68] = u32(0x604)                   # PM1a_CNT_BLK
    f[76:80] = u32(0x608)                   # PM_TMR_BLK
    f[112:116] = u32((1 << 10) | (1 << 8))  # RESET_REG_SUP, TMR_VAL_EXT
    f[116:128] = gas(1, 0xCF9)
    f[128] = 0x0F
    f[140:148] = u64(2)                     # X_DSDT: table 2 % n
    f[172:184] = gas(1, 0x604, 16)          # X_PM1a_CNT_BLK
    f[208:220] = gas(1, 0x608, 32)          # X_PM_TMR_BLK
    return bytes(f)


def dsdt():
    # Name (\_S5, Package (0x04) { 0x05, 0x05, Zero, Zero })
    aml = b"\x10\x05\\\x2f\x00" + b"\x08\\_S5_\x12\x0a\x04\x0a\x05\x0a\x05\x00\x00"
    return sdt(b"DSDT", aml, 2)


def spcr(space=1, addr=0x3F8, typ=0):
    s = bytearray(80 - 36)
    s[0] = typ
    s[4:16] = gas(space, addr)
    s[22] = 7  # 115200
    return sdt(b"SPCR", bytes(s), 2)


def madt_x86(n):
    e = b""
    for i in range(n):
        e += bytes([0, 8, i, i]) + u32(1)
    e += bytes([9, 16, 0, 0]) + u32(0x100) + u32(1) + u32(0x100)  # x2APIC
    e += bytes([1, 12, 2, 0]) + u32(0xFEC00000) + u32(0)        # IOAPIC
    return sdt(b"APIC", u32(0xFEE00000) + u32(1) + e, 4)


def madt_arm(gic, n):
    e = b""
    e += bytes([0x0C, 24, 0, 0]) + u32(0) + u64(0x08000000) + u32(0) + bytes([gic, 0, 0, 0])
    for i in range(n):
        g = bytearray(80)
        g[0], g[1] = 0x0B, 80
        g[4:8] = u32(i)
        g[8:12] = u32(i)
        g[12:16] = u32(1)
        if gic == 2:
            g[32:40] = u64(0x08010000)
            g[40:48] = u64(0x08040000)
            g[48:56] = u64(0x08030000)
        g[56:60] = u32(25)
        g[68:76] = u64(i)
        e += bytes(g)
    if gic == 3:
        e += bytes([0x0E, 16, 0, 0]) + u64(0x080A0000) + u32(0xF60000)
    return sdt(b"APIC", u32(0) + u32(0) + e, 4)


def fadt_arm(flags):
    f = bytearray(sdt(b"FACP", bytes(276 - 36), 6))
    f[112:116] = u32(1 << 20)
    f[129:131] = u16(flags)
    return bytes(f)


def mcfg(*windows):  # (base, segment, start bus, end bus) as QEMU's q35 and virt list them
    return sdt(b"MCFG", bytes(8) + b"".join(u64(b) + u16(seg) + u8(s) + u8(e) + u32(0)
                                            for b, seg, s, e in windows))


def acpi():
    x86 = chunk(4, madt_x86(2)) + chunk(4, fadt_x86()) + chunk(4, dsdt()) + chunk(4, spcr()) + \
        chunk(4, mcfg((0xB0000000, 0, 0, 0xFF)))
    arm3 = chunk(4, fadt_arm(1)) + chunk(4, madt_arm(3, 4)) + chunk(4, spcr(0, 0x09000000, 3)) + \
        chunk(4, mcfg((0x4010000000, 0, 0, 0xFF), (0, 0, 0, 1), (0x1000000, 1, 8, 2)))
    arm2 = chunk(4, madt_arm(2, 2)) + chunk(4, fadt_arm(3))
    return {
        "x86_xsdt": u8(1 | 0x30) + x86,
        "x86_rsdt": u8(0) + x86,
        "arm64_gicv3": u8(1) + arm3,
        "arm64_gicv2": u8(1 | 0x70) + arm2,
    }


class Fdt:
    """A devicetree blob writer (DTSpec v0.4 chapter 5), version 17."""

    def __init__(self):
        self.struct = b""
        self.strings = b""
        self.names = {}

    def begin(self, name):
        n = name.encode() + b"\0"
        self.struct += struct.pack(">I", 1) + n.ljust((len(n) + 3) & ~3, b"\0")

    def end(self):
        self.struct += struct.pack(">I", 2)

    def prop(self, name, value):
        if name not in self.names:
            self.names[name] = len(self.strings)
            self.strings += name.encode() + b"\0"
        self.struct += struct.pack(">III", 3, len(value), self.names[name])
        self.struct += value.ljust((len(value) + 3) & ~3, b"\0")

    def cells(self, name, *v):
        self.prop(name, b"".join(struct.pack(">I", x) for x in v))

    def string(self, name, *s):
        self.prop(name, b"".join(x.encode() + b"\0" for x in s))

    def blob(self):
        st = self.struct + struct.pack(">I", 9)
        off_rsv = 40
        off_struct = off_rsv + 16
        off_strings = off_struct + len(st)
        total = off_strings + len(self.strings)
        hdr = struct.pack(">10I", 0xD00DFEED, total, off_struct, off_strings, off_rsv, 17, 16, 0,
                          len(self.strings), len(st))
        return hdr + bytes(16) + st + self.strings


def reg2(*pairs):
    out = []
    for base, size in pairs:
        out += [base >> 32, base & 0xFFFFFFFF, size >> 32, size & 0xFFFFFFFF]
    return out


def virt_dtb(gic, ncpus, bus=False):
    f = Fdt()
    f.begin("")
    f.cells("#address-cells", 2)
    f.cells("#size-cells", 2)
    f.string("compatible", "linux,dummy-virt")
    f.begin("psci")
    f.string("compatible", "arm,psci-1.0", "arm,psci-0.2", "arm,psci")
    f.string("method", "hvc")
    f.end()
    if bus:  # the GIC and the UART behind a simple-bus with ranges, one-cell children
        f.begin("soc")
        f.string("compatible", "simple-bus")
        f.cells("#address-cells", 1)
        f.cells("#size-cells", 1)
        f.cells("ranges", 0, 0, 0x08000000, 0x02000000)
        parent_reg = lambda *p: [x for b, s in p for x in (b, s)]
        base = 0
    else:
        parent_reg = reg2
        base = 0x08000000
    f.begin("intc@8000000")
    f.prop("interrupt-controller", b"")
    f.cells("#interrupt-cells", 3)
    if gic == 3:
        f.string("compatible", "arm,gic-v3")
        f.cells("#redistributor-regions", 1)
        f.cells("reg", *parent_reg((base, 0x10000), (base + 0xA0000, 0xF60000)))
    else:
        f.string("compatible", "arm,cortex-a15-gic")
        f.cells("reg", *parent_reg((base, 0x10000), (base + 0x10000, 0x10000),
                                   (base + 0x30000, 0x10000), (base + 0x40000, 0x10000)))
    f.cells("interrupts", 1, 9, 4)
    f.end()
    f.begin("pl011@9000000")
    f.string("compatible", "arm,pl011", "arm,primecell")
    f.cells("reg", *parent_reg((base + 0x1000000, 0x1000)))
    f.cells("interrupts", 0, 1, 4)
    f.end()
    if bus:
        f.end()
    f.begin("cpus")
    f.cells("#address-cells", 1)
    f.cells("#size-cells", 0)
    for i in range(ncpus):
        f.begin("cpu@%d" % i)
        f.string("device_type", "cpu")
        f.string("compatible", "arm,cortex-a57")
        f.cells("reg", i)
        f.string("enable-method", "psci")
        if i == ncpus - 1 and ncpus > 1:
            f.string("status", "disabled")
        f.end()
    f.end()
    f.begin("aliases")
    f.string("serial0", "/soc/pl011@9000000" if bus else "/pl011@9000000")
    f.end()
    f.begin("chosen")
    f.string("stdout-path", "serial0:115200n8" if bus else "/pl011@9000000")
    f.end()
    f.end()
    return f.blob()


def fdt():
    return {"virt_gicv3": virt_dtb(3, 4), "virt_gicv2": virt_dtb(2, 2),
            "bus_ranges": virt_dtb(2, 3, bus=True)}


def vgic():
    # ops: 0 GICD access, 1 GICR, 2 line, 3 edge, 4 SGI1R, 5 entry, 6 guest on LR, 7 exit
    def dw(v, off, size_code, val):  # GICD write
        return u8(0) + u8(v) + u16(off) + u8(4 | size_code) + u64(val)

    def rw(off, size_code, val):
        return u8(1) + u8(0) + u32(off) + u8(4 | size_code) + u64(val)
    spi = 40
    v3 = (u8(1) + u8(1)  # GICv3, 2 vCPUs
          + rw(0x14, 2, 0)  # GICR_WAKER: wake vCPU 0
          + dw(0, 0x000, 2, 0x12)  # GICD_CTLR: ARE, EnableGrp1
          + dw(0, 0x100 + spi // 32 * 4, 2, 1 << (spi % 32))  # ISENABLER
          + dw(0, 0x400 + spi, 0, 0xA0)  # IPRIORITYR
          + dw(0, 0x6000 + 8 * spi, 3, 1 << 8)  # IROUTER: vCPU 1
          + u8(2) + u8(0x80) + u8(spi)  # line high
          + rw(0x20000 + 0x10100, 2, 0xFFFF)  # vCPU 1: ISENABLER0 (SGIs)
          + u8(4) + u8(0) + u64((3 << 24) | 2)  # SGI 3 to vCPU 1
          + u8(5) + u8(1) + u8(3)  # enter vCPU 1 with 4 LRs
          + u8(6) + u8(1) + u8(0) + u8(0)  # ack LR 0
          + u8(2) + u8(0x00) + u8(spi)  # line low
          + u8(6) + u8(1) + u8(1) + u8(2)  # ack + deactivate LR 1
          + u8(7) + u8(1)  # exit
          + u8(5) + u8(1) + u8(15)
          + u8(8) + u8(1))
    v2 = (u8(0) + u8(3)  # GICv2, 4 vCPUs
          + dw(0, 0x000, 2, 1)  # GICD_CTLR: EnableGrp0
          + dw(1, 0x100, 2, 0xFFFF)  # vCPU 1's SGIs enabled
          + dw(0, 0xF00, 2, (0 << 24) | (0x2 << 16) | 5)  # SGIR: SGI 5 to CPU 1
          + dw(2, 0xF00, 2, (1 << 24) | 5)  # all but self
          + dw(0, 0x800 + spi, 0, 0x4)  # ITARGETSR: CPU 2
          + dw(0, 0x100 + 4, 2, 1 << (spi - 32))
          + dw(0, 0xC00 + spi // 16 * 4, 2, 2 << (spi % 16 * 2))  # ICFGR: edge
          + u8(3) + u8(0) + u8(spi)
          + u8(5) + u8(1) + u8(1)  # enter vCPU 1 with 2 LRs
          + u8(6) + u8(1) + u8(0) + u8(2)
          + u8(5) + u8(1) + u8(1)
          + u8(5) + u8(2) + u8(3)
          + dw(1, 0xF20, 2, 0x0101)  # SPENDSGIR
          + u8(0) + u8(1) + u16(0xF10) + u8(2))  # CPENDSGIR read
    return {"v3_spi_sgi": v3, "v2_sgir_spi": v2}


def vlapic():
    def wr(reg, val):
        return u8(0) + u8(reg) + u64(val)
    prefix = u32(2000000000) + u64(1000)
    periodic = (wr(0x0F, 0x1FF)  # SVR: enabled
                + wr(0x3E, 0xB)  # divide by 1
                + wr(0x32, (1 << 17) | 0xEC)  # LVT timer: periodic, vector 0xEC
                + wr(0x38, 100000)  # initial count
                + u8(7) + u32(300000) + u8(6) + u8(1) + u8(0x39)  # CCR read
                + wr(0x0B, 0)  # EOI
                + u8(5) + u8(0x41) + u8(1) + u8(6) + wr(0x08, 0x30)  # TPR
                + wr(0x0B, 0) + u8(4))
    ipis = (wr(0x0F, 0x1FF) + wr(0x30, (3 << 32) | 0xFB)  # ICR fixed to 3
            + wr(0x30, 0x4500) + wr(0x30, 0x4600 | 0x9A) + wr(0x30, (2 << 18) | 0xF0)
            + wr(0x3F, 0x22)  # SELF IPI
            + u8(6) + u8(9) + u32(0x10001) + u8(8) + u8(1) + u8(0x0D))
    deadline = (wr(0x0F, 0x1FF) + wr(0x32, (2 << 17) | 0xEF) + u8(3) + u64(5000)
                + u8(7) + u32(10000) + u8(6) + u8(2) + u64(0xFEE00000 | (1 << 11))
                + u8(2) + u64(0xFEE00000 | (3 << 10)))
    return {"periodic": prefix + periodic, "ipis": prefix + ipis, "deadline": prefix + deadline}


def vioapic():
    def reg(r, v):
        return u8(2) + u8(r) + u32(v)
    level = (reg(0x11 + 2 * 4, 0) + reg(0x10 + 2 * 4, (1 << 15) | 0x31)  # pin 4 level
             + u8(4) + u8(0x84) + u8(5) + u8(0x31)  # EOI with the line high
             + u8(4) + u8(0x04) + u8(5) + u8(0x31)
             + u8(3) + u8(0x01) + u8(3) + u8(0x18))
    edge = (reg(0x11 + 2 * 2, 0xFF << 24) + reg(0x10 + 2 * 2, 0x40) + u8(4) + u8(0x82)
            + u8(4) + u8(0x02) + reg(0x10 + 2 * 2, (4 << 8)) + u8(4) + u8(0x82)
            + u8(1) + u16(0) + u8(2) + u32(0) + u8(0) + u16(0x10) + u8(2) + reg(0, 5 << 24))
    return {"level_eoi": level, "edge_nmi": edge}


# uart_fuzz.h's operations: a read or a write (of `size_code`'s width) at an offset
def uart_r(off, size_code):
    return u8(0) + u16(off) + u8(size_code)


def uart_w(off, size_code, val):
    return u8(1) + u16(off) + u8(size_code) + u32(val)


def uart16550():
    def w(reg, val): return uart_w(reg, 0, val)
    def r(reg): return uart_r(reg, 0)
    probe = (r(1) + w(1, 0) + r(1) + w(1, 0xF) + w(4, 0x1A) + r(6) + w(4, 0)
             + w(3, 0xBF) + w(2, 0) + w(3, 0) + w(2, 1) + r(2) + w(3, 0x80) + w(0, 1) + w(1, 0)
             + w(3, 3) + w(4, 0xB) + w(1, 5) + w(0, ord("h")) + r(2) + w(0, ord("i"))
             + u8(2) + u8(ord("x")) + r(5) + r(0) + r(2))
    loop = w(4, 0x1F) + w(0, 0x55) + r(0) + r(6) + r(6) + w(4, 0x08) + u8(2) + u8(1) * 70
    return {"linux_probe": probe, "loopback_fifo": loop}


def pl011():
    def w(off, val): return uart_w(off, 2, val)
    def r(off): return uart_r(off, 2)
    probe = (r(0xFE0) + r(0xFE4) + r(0xFF0) + r(0xFFC) + w(0x30, 0) + w(0x44, 0x7FF)
             + w(0x24, 1) + w(0x28, 0x28) + w(0x2C, 0x70) + w(0x30, 0x301) + w(0x38, 0x50)
             + w(0, ord("h")) + r(0x18) + u8(2) + u8(ord("x")) + r(0x40) + r(0) + r(0x3C))
    loop = w(0x2C, 0x10) + w(0x30, 0x381) + w(0x38, 0x7F2) + w(0, 1) * 3 + r(0x40) + w(0x2C, 0)
    return {"linux_probe": probe, "loopback": loop}


def pv_ipi():
    def seed(n, mode, a0, a1, a2, a3):
        return u8(n - 1) + u8(mode) + u64(a0) + u64(a1) + u64(a2) + u64(a3)
    return {
        "fixed": seed(4, 1, 0b1010, 0, 0, 0xFB),
        "nmi_high": seed(200, 1, 1, 1 << 7, 64, 4 << 8),
        "mode32": seed(64, 0, 0xFFFFFFFF, 3, 0, 0xF0),
        "einval": seed(8, 1, 1, 0, 0, 0x800 | 0xFB),
    }


def gunzip_seeds():
    data = bytes((i * 7 + i // 13) % 251 for i in range(3000))
    gz = gzip.compress(data, 9, mtime=0)
    return {"pattern": gz, "empty": gzip.compress(b"", mtime=0),
            "stored": gzip.compress(b"hv" * 40, 0, mtime=0)}


def tftp_proto():
    def seed(pkt, blksize=512, asked=1468):
        return u16(blksize) + u16(asked) + pkt
    return {
        "data": seed(b"\0\3\0\1" + bytes(range(200))),
        "data_full": seed(b"\0\3\xff\xff" + b"x" * 1428, 1428),
        "error": seed(b"\0\5\0\1File not found\0"),
        "oack": seed(b"\0\6blksize\0001428\0tsize\0008245760\0"),
        "oack_bad": seed(b"\0\6timeout\0005\0"),
    }


def tftp_xfer():
    def pkt(data, port=0):
        return u8(2 * port) + u16(len(data)) + data

    def block(n, length):
        return pkt(b"\0\3" + struct.pack(">H", n) + bytes([n % 26 + 97]) * length)
    oack = pkt(b"\0\6blksize\0001024\0tsize\0003000\0")
    return {
        "whole": u16(4095) + oack + block(1, 1024) + block(2, 1024) + block(3, 952),
        "no_options": u16(2047) + block(1, 512) + block(2, 512) + block(3, 0),
        "not_found": u16(4095) + pkt(b"\0\5\0\1File not found\0"),
        "stopped": u16(4095) + oack + block(1, 1024) + u8(1) + u16(20000),
        "too_large": u16(1023) + block(1, 512) + block(2, 512) + block(3, 512),
        "lost_ack": u16(4095) + oack + block(1, 1024) + u8(1) + u16(1500) + block(1, 1024)
        + pkt(b"\0\5\0\0stray\0", 1) + block(2, 1024) + block(3, 952),
    }


def boot_server():
    def seed(siaddr, server_id, opt150=b"", opt66=b""):
        return bytes(siaddr) + bytes(server_id) + u8(len(opt150)) + u8(len(opt66)) + opt150 + opt66
    return {
        "qemu": seed([10, 0, 2, 2], [10, 0, 2, 2]),
        "opt150": seed([0] * 4, [10, 0, 2, 2], bytes([0, 0, 0, 0, 192, 168, 1, 5])),
        "opt66": seed([0] * 4, [10, 0, 2, 2], b"", b"192.168.1.7"),
        "opt66_name": seed([0] * 4, [10, 0, 2, 2], bytes([127, 0, 0, 1]), b"tftp.example.com"),
    }


def http_proto():
    """A split point, then a server's answer as Python's http.server and others send it
    (a URL seed too: the harness parses every input as one)."""
    return {
        "ok": bytes([16]) + b"HTTP/1.0 200 OK\r\nServer: SimpleHTTP/0.6\r\n"
              b"Content-Length: 12\r\n\r\nhello world\n",
        "not_found": bytes([5]) + b"HTTP/1.0 404 File not found\r\nContent-Type: text/html\r\n"
                     b"Content-Length: 9\r\n\r\nnot found",
        "continue": bytes([48]) + b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\n"
                    b"content-length:  3 \n\nabc",
        "chunked": bytes([2]) + b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                   b"5\r\nhello\r\n0\r\n\r\n",
        "url": bytes([0]) + b"http://10.0.2.2:8000/guests/vmlinuz",
    }


def multiboot():
    """The multiboot test kernel's shape (tests/guest/x86/mbtest.asm): an ELF32 i386 file
    with the header in its code; an ELF64 one; one loaded by the header's address fields
    (flag 16); one with a wrong checksum."""
    def header(flags, addrs=b""):
        return u32(0x1BADB002) + u32(flags) + u32(-(0x1BADB002 + flags)) + addrs

    def elf32(hdr):
        ph = (u32(1) + u32(0x1000) + u32(0x200000) + u32(0x200000) + u32(0x100)
              + u32(0x2000) + u32(5) + u32(0x1000))
        eh = (b"\x7fELF" + bytes([1, 1, 1]) + b"\0" * 9 + u16(2) + u16(3) + u32(1)
              + u32(0x20000c) + u32(52) + u32(0) + u32(0) + u16(52) + u16(32) + u16(1)
              + u16(40) + u16(0) + u16(0))
        return (eh + ph).ljust(0x1000, b"\0") + (hdr + b"\x90" * 64 + b"\xf4").ljust(0x100, b"\0")

    def elf64():
        ph = (u32(1) + u32(5) + u64(0x1000) + u64(0x300000) + u64(0x300000) + u64(0x80)
              + u64(0x80) + u64(0x1000))
        eh = (b"\x7fELF" + bytes([2, 1, 1]) + b"\0" * 9 + u16(2) + u16(62) + u32(1)
              + u64(0x30000c) + u64(64) + u64(0) + u32(0) + u16(64) + u16(56) + u16(1)
              + u16(64) + u16(0) + u16(0))
        return (eh + ph).ljust(0x1000, b"\0") + (header(3) + b"\x90" * 64).ljust(0x80, b"\0")

    # header at 0x20 = 1 MiB + 0x20: the file from 1 MiB, its first 0x100 bytes, bss to 0x108000
    aout = (b"\0" * 0x20 + header(0x10003, u32(0x100020) + u32(0x100000) + u32(0x100100)
                                  + u32(0x108000) + u32(0x100040))).ljust(0x100, b"\x90")
    bad = bytearray(elf32(header(0)))
    bad[0x1008] ^= 1
    return {"elf32": elf32(header(0)), "elf64": elf64(), "aout": aout, "bad_sum": bytes(bad)}


def http_request():
    """A split point, then a client's request head as curl, a browser, Prometheus and
    others send it, and a few a server must refuse."""
    return {
        "curl": bytes([20]) + b"GET /metrics HTTP/1.1\r\nHost: 10.0.2.15:8080\r\n"
                b"User-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n",
        "prometheus": bytes([60]) + b"GET /metrics HTTP/1.1\r\nHost: 10.0.2.15:9100\r\n"
                      b"User-Agent: Prometheus/2.42.0\r\nAccept: application/openmetrics-text;"
                      b"version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1\r\n"
                      b"Accept-Encoding: gzip\r\nX-Prometheus-Scrape-Timeout-Seconds: 10\r\n\r\n",
        "head_query": bytes([3]) + b"\r\nHEAD /stats?vm=linux0&pretty HTTP/1.0\n"
                      b"Content-Length: 0\n\n",
        "post": bytes([5]) + b"POST /stats HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc",
        "folded": bytes([30]) + b"GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n",
        "chunked": bytes([0]) + b"GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n"
                   b"\r\n0\r\n\r\n",
        "long_target": bytes([200]) + b"GET /" + b"a" * 300 + b" HTTP/1.1\r\nHost: a\r\n\r\n",
    }


def main():
    write("decode", decode())
    write("guest_walk", guest_walk())
    write("elf_pvh", {"vmlinux": elf(4), "entry8": elf(8), "no_note": elf(4, False)})
    write("multiboot", multiboot())
    write("bzimage", {"debian_like": bzimage(), "old_proto": bzimage(0x20B, 0),
                      "32bit": bzimage(0x20F, 0x0), "sects0": bzimage(setup_sects=0)})
    write("a64_linux_image", linux_image())
    write("config", CONFIGS)
    write("acpi", acpi())
    write("fdt", fdt())
    write("a64_vgic", vgic())
    write("vlapic", vlapic())
    write("vioapic", vioapic())
    write("vuart", uart16550())
    write("vpl011", pl011())
    write("pv_ipi", pv_ipi())
    write("gunzip", gunzip_seeds())
    write("tftp_proto", tftp_proto())
    write("tftp_xfer", tftp_xfer())
    write("boot_server", boot_server())
    write("http_proto", http_proto())
    write("http_request", http_request())
    write("file_kind", {"bzimage": bzimage(), "vmlinux": elf(4),
                        "arm64": arm64_image(0, 0x10000, 2), "gzip": gzip.compress(b"hv", mtime=0),
                        "cpio": b"070701" + b"0" * 104, "zboot": b"MZ\0\0zimg" + bytes(56)})


if __name__ == "__main__":
    main()
