# SPDX-License-Identifier: GPL-2.0-only
# arm64 (GICv3): vCPUs move to idle pCPUs under sched = aware, and pcpus pins a VM: see
# migration in lib.sh.
export ARCH=aarch64 GIC=3
. "$(dirname "$0")/lib.sh"
migration
finish
