/* SPDX-License-Identifier: Apache-2.0 */
/* Reset handler and vector table for the Arm MPS2/MPS3 FPGA images QEMU emulates with an Armv7-M or
 * Armv8-M mainline core (mps2-an385 Cortex-M3, mps2-an386 Cortex-M4, mps2-an500 Cortex-M7,
 * mps2-an505 and mps3-an524 Cortex-M33), written from the architecture: initial stack pointer,
 * reset, fault handlers, SysTick. Each board's linker script (toolchains/arm_gnu/cores.bzl, BOARDS)
 * places the vector table where the core boots; the SysTick counter is toolchains/corstone300's. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

extern uint32_t __stack[];
extern uint32_t __stack_limit[];
extern uint32_t __data_start[];
extern uint32_t __data_end[];
extern uint32_t __data_source[];
extern uint32_t __bss_start[];
extern uint32_t __bss_end[];
extern uint8_t __tls_base[];

extern int main(void);
extern void _set_tls(void *tls);

#define SCB_CPACR (*(volatile uint32_t *)0xE000ED88u)
#define SCB_CFSR (*(volatile uint32_t *)0xE000ED28u)

/* A fault in a test firmware is a test failure: say which, then exit so the simulator stops. */
static void fault(const char *name) {
  printf("helia: %s (CFSR=0x%08lx)\n", name, (unsigned long)SCB_CFSR);
  exit(128 + 3);
}

void NMI_Handler(void) { fault("NMI"); }
void HardFault_Handler(void) { fault("HardFault"); }
void MemManage_Handler(void) { fault("MemManage fault"); }
void BusFault_Handler(void) { fault("BusFault"); }
void UsageFault_Handler(void) { fault("UsageFault"); }
#if defined(__ARM_ARCH_8M_MAIN__)
void SecureFault_Handler(void) { fault("SecureFault"); }
#endif
static void unexpected_exception(void) { fault("unexpected exception"); }
void SVC_Handler(void) __attribute__((weak, alias("unexpected_exception")));
void DebugMon_Handler(void) __attribute__((weak, alias("unexpected_exception")));
void PendSV_Handler(void) __attribute__((weak, alias("unexpected_exception")));
void SysTick_Handler(void) __attribute__((weak, alias("unexpected_exception")));

void Reset_Handler(void) __attribute__((noreturn));

typedef void (*vector_entry)(void);

/* Slot 7 is SecureFault on Armv8-M mainline, reserved on Armv7-M. */
__attribute__((section(".vectors"), used)) static const vector_entry vector_table[16] = {
    (vector_entry)(uintptr_t)__stack,
    Reset_Handler,
    NMI_Handler,
    HardFault_Handler,
    MemManage_Handler,
    BusFault_Handler,
    UsageFault_Handler,
#if defined(__ARM_ARCH_8M_MAIN__)
    SecureFault_Handler,
#else
    0,
#endif
    0,
    0,
    0,
    SVC_Handler,
    DebugMon_Handler,
    0,
    PendSV_Handler,
    SysTick_Handler,
};

void Reset_Handler(void) {
#if defined(__ARM_ARCH_8M_MAIN__)
  /* Stack overflow faults instead of silently corrupting the heap (Armv8-M's stack limit). */
  __asm volatile("msr msplim, %0" : : "r"(__stack_limit));
#endif
#if defined(__ARM_FP)
  /* CP10/CP11 full access turns on the FPU (Cortex-M4F, M7, M33). */
  SCB_CPACR |= (0xFu << 20);
  __asm volatile("dsb\n\tisb" ::: "memory");
#endif

  const uint32_t *source = __data_source;
  for (uint32_t *word = __data_start; word < __data_end; ++word) {
    *word = *source++;
  }
  for (uint32_t *word = __bss_start; word < __bss_end; ++word) {
    *word = 0u;
  }
  _set_tls(__tls_base);
  exit(main());
}
