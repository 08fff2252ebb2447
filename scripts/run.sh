#!/bin/sh
# make run: the default configuration (one VM, 2 vCPUs) with the guest's shell on the console.
# Quit QEMU with Ctrl-A x.
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
ESP=$TOP/build/run-esp.img
"$TOP/scripts/mkesp.sh" "$ESP" "${CFG:-$TOP/scripts/default.cfg}"
exec "$TOP/scripts/qemu.sh" "$ESP"
