. "$(dirname "$0")/lib.sh"
boot "[vm wide]
kernel = /guests/vmlinuz
initrd = /guests/initrd.gz
cmdline = console=ttyS0 quiet hv.mode=test
vcpus = 72
memory = 1G" 600 2
expect_guest_ok wide 72
finish
