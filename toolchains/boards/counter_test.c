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

int main(void) {
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
