# SPDX-License-Identifier: GPL-2.0-only
# x86: vCPUs move to idle pCPUs under sched = aware, and pcpus pins a VM: see migration
# in lib.sh.
. "$(dirname "$0")/lib.sh"
migration
finish
