/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test: under QEMU -icount the same code measures the same instruction count every time, and the
 * counter's report names the optimization of the build (cortex_m_test builds in opt: -O2). */
#include <stdio.h>

#include "instruction_counter.h"

static uint32_t workload(void) {
  volatile uint32_t sum = 0;
  for (uint32_t i = 0; i < 100000u; ++i) {
    sum += i;
  }
  return sum;
}

static uint64_t measure(void) {
  helia_counter_start();
  (void)workload();
  return helia_counter_ticks();
}

int main(void) {
  uint64_t first = measure();
  uint64_t second = measure();
  printf("instruction count: first %llu ticks, second %llu ticks (~%llu instructions)\n",
         (unsigned long long)first, (unsigned long long)second,
         (unsigned long long)(first * HELIA_INSTRUCTIONS_PER_TICK_X100 / 100u));
  /* The report every harness prints, naming the optimization the toolchain's mode defines. */
  helia_counter_report("workload", "first", first);
  helia_counter_report("workload", "warm", second);
  if (first == 0u || first != second) {
    printf("FAIL: counts differ or are zero\n");
    return 1;
  }
  return 0;
}
