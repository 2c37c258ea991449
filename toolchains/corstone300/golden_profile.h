/* SPDX-License-Identifier: Apache-2.0 */
/* Profiling hooks for helia-aot test harnesses on Corstone-300: force-included into the harness, it
 * fills its HELIA_PROFILE_BEGIN/END hooks with the SysTick instruction counter and prints the
 * instruction count of the first model_run (QEMU -icount shift=0 makes it exact and repeatable). */
#ifndef HELIA_GOLDEN_PROFILE_H_
#define HELIA_GOLDEN_PROFILE_H_

#include <stdio.h>

#include "instruction_counter.h"

static int helia_profile_runs;

static inline void helia_profile_report(void) {
  uint64_t ticks = helia_counter_ticks();
  if (helia_profile_runs++ == 0) {
    printf("helia: model_run instructions: %llu (%llu SysTick ticks x 31.25)\n",
           (unsigned long long)(ticks * HELIA_INSTRUCTIONS_PER_TICK_X100 / 100u), (unsigned long long)ticks);
  }
}

#define HELIA_PROFILE_BEGIN() helia_counter_start()
#define HELIA_PROFILE_END() helia_profile_report()

#endif /* HELIA_GOLDEN_PROFILE_H_ */
