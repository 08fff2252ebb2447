# SPDX-License-Identifier: GPL-2.0-only
# A misspelt key: the error names the file, line and key, and the firmware gets the
# machine back (no takeover).
. "$(dirname "$0")/lib.sh"
STOP_AT="Shell>" boot "[vm linux0]
kernel = /guests/vmlinux
vpcus = 2" 60 1
expect "error with file, line and reason" "hv: hv.cfg:3: unknown key 'vpcus' in [vm linux0]"
expect "said it returns to the firmware" "nothing was started; returning to the firmware"
expect "the firmware took over again (its shell)" "Shell>"
expect_not "machine not taken over" "taking over the machine"
finish
