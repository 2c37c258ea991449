/* SPDX-License-Identifier: Apache-2.0 */
/* Reset handler and vector table for Corstone-300 (Cortex-M55), written from the Armv8.1-M
 * architecture: initial stack pointer, reset, fault handlers, SysTick. Used with corstone300.ld. */

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
/* Zero-initialised sections of placed helia-aot arrays outside .bss (corstone300.ld). */
extern uint32_t __helia_bss_itcm_start[], __helia_bss_itcm_end[];
extern uint32_t __helia_bss_sram_start[], __helia_bss_sram_end[];
extern uint32_t __helia_bss_dtcm_start[], __helia_bss_dtcm_end[];
extern uint32_t __helia_bss_isram_start[], __helia_bss_isram_end[];
extern uint32_t __helia_bss_ddr_start[], __helia_bss_ddr_end[];

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
void UsageFault_Handler(void) { fault("UsageFault (a stack overflow shows as STKOF, CFSR bit 20)"); }
void SecureFault_Handler(void) { fault("SecureFault"); }
static void unexpected_exception(void) { fault("unexpected exception"); }
void SVC_Handler(void) __attribute__((weak, alias("unexpected_exception")));
void DebugMon_Handler(void) __attribute__((weak, alias("unexpected_exception")));
void PendSV_Handler(void) __attribute__((weak, alias("unexpected_exception")));
void SysTick_Handler(void) __attribute__((weak, alias("unexpected_exception")));

void Reset_Handler(void) __attribute__((noreturn));

typedef void (*vector_entry)(void);

__attribute__((section(".vectors"), used)) static const vector_entry vector_table[16] = {
    (vector_entry)(uintptr_t)__stack,
    Reset_Handler,
    NMI_Handler,
    HardFault_Handler,
    MemManage_Handler,
    BusFault_Handler,
    UsageFault_Handler,
    SecureFault_Handler,
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
  /* Stack overflow faults instead of silently corrupting the heap. */
  __asm volatile("msr msplim, %0" : : "r"(__stack_limit));
  /* CP10/CP11 full access turns on the FPU and, on the Cortex-M55, MVE. */
  SCB_CPACR |= (0xFu << 20);
  __asm volatile("dsb\n\tisb" ::: "memory");

  const uint32_t *source = __data_source;
  for (uint32_t *word = __data_start; word < __data_end; ++word) {
    *word = *source++;
  }
  for (uint32_t *word = __bss_start; word < __bss_end; ++word) {
    *word = 0u;
  }
  uint32_t *const zero_table[][2] = {
      {__helia_bss_itcm_start, __helia_bss_itcm_end},   {__helia_bss_sram_start, __helia_bss_sram_end},
      {__helia_bss_dtcm_start, __helia_bss_dtcm_end},   {__helia_bss_isram_start, __helia_bss_isram_end},
      {__helia_bss_ddr_start, __helia_bss_ddr_end},
  };
  for (uint32_t i = 0; i < sizeof(zero_table) / sizeof(zero_table[0]); ++i) {
    for (uint32_t *word = zero_table[i][0]; word < zero_table[i][1]; ++word) {
      *word = 0u;
    }
  }
  _set_tls(__tls_base);
  exit(main());
}
