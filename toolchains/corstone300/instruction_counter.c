/* SPDX-License-Identifier: Apache-2.0 */
/* SysTick-based instruction counter for Corstone-300 firmware under QEMU -icount (see header). */

#include "instruction_counter.h"

#include <stdio.h>

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define SYST_CSR_ENABLE (1u << 0)
#define SYST_CSR_TICKINT (1u << 1)
#define SYST_CSR_CLKSOURCE (1u << 2) /* processor clock */
#define SYST_CSR_COUNTFLAG (1u << 16)
#define SYST_RELOAD 0x00FFFFFFu      /* 24-bit down-counter: 2^24 ticks per wrap */

static volatile uint32_t wraps;

void SysTick_Handler(void) { ++wraps; }

void helia_counter_start(void) {
  SYST_CSR = 0u;
  wraps = 0u;
  SYST_RVR = SYST_RELOAD;
  SYST_CVR = 0u; /* any write clears the counter and COUNTFLAG */
  SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_TICKINT | SYST_CSR_ENABLE;
}

uint64_t helia_counter_ticks(void) {
  uint32_t before;
  uint32_t value;
  /* Re-read when a wrap lands between reading the wrap count and the counter. */
  do {
    before = wraps;
    value = SYST_CVR;
  } while (before != wraps);
  /* Started at 0, the counter reloads to SYST_RELOAD on the first tick and counts down to 0 by
   * the (SYST_RELOAD + 1)-th, where the wrap interrupt fires; so a value v means
   * (SYST_RELOAD + 1 - v) ticks into the current wrap, and 0 means none (or a whole wrap, which
   * the wrap count already holds). */
  const uint32_t into_wrap = value == 0u ? 0u : SYST_RELOAD + 1u - value;
  return (uint64_t)before * (SYST_RELOAD + 1u) + into_wrap;
}

uint64_t helia_counter_instructions(void) {
  return helia_counter_ticks() * HELIA_INSTRUCTIONS_PER_TICK_X100 / 100u;
}

void helia_counter_report(const char *what, const char *run, uint64_t ticks) {
  printf("helia: %s instructions: %llu (%s run; %llu SysTick ticks x %u.%02u; %s)\n", what,
         (unsigned long long)(ticks * HELIA_INSTRUCTIONS_PER_TICK_X100 / 100u), run, (unsigned long long)ticks,
         HELIA_INSTRUCTIONS_PER_TICK_X100 / 100u, HELIA_INSTRUCTIONS_PER_TICK_X100 % 100u, HELIA_OPTIMIZATION);
}
