#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: check-no-fp.sh OBJDUMP hv.so
# The hypervisor keeps the guest's FP/SIMD registers live across exits (it saves them
# only when another vCPU takes the pCPU), so no hypervisor code may touch them; only
# the save/restore routines do. Fails the build on any other FP/SIMD instruction, e.g.
# one that came in from libgcc (arm64's __popcountdi2 uses the SIMD unit).
"$1" -d --no-show-raw-insn "$2" | awk '
	/^[0-9a-f]+ <.*>:$/ { fn = $2; next }
	fn ~ /^<(fpsimd_save|fpsimd_load)>:$/ { next }
	/\t/ {
		n = split($0, f, "\t"); op = f[2]; ops = n > 2 ? f[3] : ""
		sub(/[<\/].*/, "", ops) # drop symbol names and comments
		if (op ~ /^(b|bl|br|blr|b\..*|cbz|cbnz|tbz|tbnz|adr|adrp|ret|call|jmp|j.*)$/)
			next # their operands are addresses
		if (ops ~ /(^|[ ,\[{])[qvdshb][0-9]+([ ,.\]}]|$)/ || ops ~ /(^|[ ,])(fpsr|fpcr)/ ||
		    ops ~ /%[xyz]mm[0-9]/) {
			print "FP/SIMD register use in " fn " " $0; bad = 1
		}
	}
	END { exit bad }'
