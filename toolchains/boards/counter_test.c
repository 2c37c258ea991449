/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test of a board's runtime on its QEMU machine: the firmware boots, prints through semihosting,
 * and the SysTick instruction counter, converted with the board's clock (cores.bzl BOARDS), counts a
 * loop of known length: 2 instructions (subs, bne) per iteration, written in assembly so the compiler
 * cannot change it. A wrong clock figure is off by a whole factor (25 vs 20 MHz is 25 %). */
#include <stdio.h>

#include "instruction_counter.h"

#define ITERATIONS 1000000u
#define EXPECTED (2u * ITERATIONS)
/* Counter start/stop, the call and one tick of granularity (at most 62.5 instructions here). */
#define SLACK 200u

/* GCC writes Armv6-M assembly in divided syntax, where the 16-bit flag-setting subtract is `sub`. */
#if defined(__ARM_ARCH_6M__)
#define SUBTRACT_ONE "sub %0, #1\n\t"
#else
#define SUBTRACT_ONE "subs %0, %0, #1\n\t"
#endif

static void known_loop(uint32_t n) {
  __asm volatile(
      "1:\n\t" SUBTRACT_ONE
      "bne 1b"
      : "+l"(n)
      :
      : "cc");
}

/* The core's extensions run on the board: a core whose platform promises the DSP extension or an FPU
 * must not meet a board without them (a missing one faults, failing the test). */
static int extensions_run(void) {
  int ok = 1;
#if defined(__ARM_FEATURE_DSP)
  uint32_t acc = 1u;
  const uint32_t a = 0x00030002u, b = 0x00050004u; /* 3 * 5 + 2 * 4 = 23 */
  __asm volatile("smlad %0, %1, %2, %0" : "+r"(acc) : "r"(a), "r"(b));
  printf("helia: dsp: smlad gives %lu\n", (unsigned long)acc);
  ok &= acc == 24u;
#endif
#if defined(__ARM_FP)
  volatile float x = 1.5f;
  volatile float y = x * x + 0.25f;
  printf("helia: fpu: 1.5 * 1.5 + 0.25 = %d/4\n", (int)(y * 4.0f));
  ok &= y == 2.5f;
#endif
  return ok;
}

int main(void) {
  if (!extensions_run()) {
    printf("helia: FAIL: an extension gave a wrong result\n");
    return 1;
  }
  helia_counter_start();
  known_loop(ITERATIONS);
  uint64_t ticks = helia_counter_ticks();
  uint64_t counted = ticks * HELIA_INSTRUCTIONS_PER_TICK_X100 / 100u;
  helia_counter_report("known loop", "first", ticks);
  printf("helia: counter self-test: %llu instructions counted for a loop of %lu\n", (unsigned long long)counted,
         (unsigned long)EXPECTED);
  if (counted + SLACK < EXPECTED || counted > EXPECTED + SLACK) {
    printf("helia: FAIL: counted %llu, expected %lu within %u: is the board's SysTick clock right?\n",
           (unsigned long long)counted, (unsigned long)EXPECTED, SLACK);
    return 1;
  }
  printf("helia: counter self-test passed\n");
  return 0;
}
