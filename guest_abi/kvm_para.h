/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The paravirtual interface x86 guests see: the KVM ABI as Linux's
 * Documentation/virt/kvm/x86/{cpuid,msr,hypercalls}.rst define it. Single source of truth
 * for the hypervisor; guest_abi/ABI.md documents what is implemented. */
#ifndef GUEST_ABI_KVM_PARA_H
#define GUEST_ABI_KVM_PARA_H

#define KVM_CPUID_SIGNATURE 0x40000000u /* EAX: max leaf; EBX ECX EDX: "KVMKVMKVM\0\0\0" */
#define KVM_CPUID_FEATURES 0x40000001u	/* EAX: feature bits below */

#define KVM_FEATURE_CLOCKSOURCE2 3
#define KVM_FEATURE_STEAL_TIME 5
#define KVM_FEATURE_PV_EOI 6
#define KVM_FEATURE_PV_UNHALT 7
#define KVM_FEATURE_PV_TLB_FLUSH 9
#define KVM_FEATURE_PV_SEND_IPI 11
#define KVM_FEATURE_PV_SCHED_YIELD 13
#define KVM_FEATURE_CLOCKSOURCE_STABLE_BIT 24

#define MSR_KVM_WALL_CLOCK_NEW 0x4b564d00u
#define MSR_KVM_SYSTEM_TIME_NEW 0x4b564d01u
#define MSR_KVM_STEAL_TIME 0x4b564d03u
#define MSR_KVM_PV_EOI_EN 0x4b564d04u
#define KVM_MSR_ENABLED 1

/* kvm_steal_time.preempted */
#define KVM_VCPU_PREEMPTED (1 << 0)
#define KVM_VCPU_FLUSH_TLB (1 << 1)
/* the PV EOI word */
#define KVM_PV_EOI_ENABLED 1

/* pvclock_vcpu_time_info.flags */
#define PVCLOCK_TSC_STABLE_BIT 0x01

#define KVM_HC_KICK_CPU 5
#define KVM_HC_SEND_IPI 10
#define KVM_HC_SCHED_YIELD 11
#define KVM_ENOSYS 1000
#define KVM_EFAULT 14
#define KVM_EINVAL 22
#define KVM_EPERM 1

#endif
