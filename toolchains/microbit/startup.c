/* SPDX-License-Identifier: Apache-2.0 */
/* Reset handler and vector table for the BBC micro:bit v1 QEMU emulates (microbit: nRF51822,
 * Cortex-M0), written from the Armv6-M architecture: initial stack pointer, reset, HardFault,
 * SysTick. Used with microbit.ld; the SysTick counter is toolchains/corstone300's. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

extern uint32_t __stack[];
extern uint32_t __data_start[];
extern uint32_t __data_end[];
extern uint32_t __data_source[];
extern uint32_t __bss_start[];
extern uint32_t __bss_end[];
extern uint8_t __tls_base[];

extern int main(void);
extern void _set_tls(void *tls);

/* A fault in a test firmware is a test failure: say which, then exit so the simulator stops.
 * Armv6-M has no fault status registers to print. */
static void fault(const char *name) {
  printf("helia: %s\n", name);
  exit(128 + 3);
}

void NMI_Handler(void) { fault("NMI"); }
void HardFault_Handler(void) { fault("HardFault"); }
static void unexpected_exception(void) { fault("unexpected exception"); }
void SVC_Handler(void) __attribute__((weak, alias("unexpected_exception")));
void PendSV_Handler(void) __attribute__((weak, alias("unexpected_exception")));
void SysTick_Handler(void) __attribute__((weak, alias("unexpected_exception")));

void Reset_Handler(void) __attribute__((noreturn));

typedef void (*vector_entry)(void);

/* Armv6-M: only NMI and HardFault among the faults; slots 4-10, 12 and 13 are reserved. */
__attribute__((section(".vectors"), used)) static const vector_entry vector_table[16] = {
    (vector_entry)(uintptr_t)__stack,
    Reset_Handler,
    NMI_Handler,
    HardFault_Handler,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    SVC_Handler,
    0,
    0,
    PendSV_Handler,
    SysTick_Handler,
};

void Reset_Handler(void) {
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
