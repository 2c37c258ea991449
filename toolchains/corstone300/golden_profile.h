/* SPDX-License-Identifier: Apache-2.0 */
/* Profiling hooks for helia-aot test harnesses on Corstone-300: force-included into the harness, it
 * fills its HELIA_PROFILE_BEGIN/END hooks with the SysTick instruction counter and reports the first
 * model_run (sample 0) and a warm one (sample 1, when there is one) through helia_counter_report(),
 * the line the benchmark prints too (QEMU -icount shift=0 makes the counts exact and repeatable). */
#ifndef HELIA_GOLDEN_PROFILE_H_
#define HELIA_GOLDEN_PROFILE_H_

#include "instruction_counter.h"

static int helia_profile_runs;

static inline void helia_profile_report(void) {
  uint64_t ticks = helia_counter_ticks();
  if (helia_profile_runs < 2) {
    helia_counter_report("model_run", helia_profile_runs == 0 ? "first" : "warm", ticks);
  }
  ++helia_profile_runs;
}

#define HELIA_PROFILE_BEGIN() helia_counter_start()
#define HELIA_PROFILE_END() helia_profile_report()

#endif /* HELIA_GOLDEN_PROFILE_H_ */
