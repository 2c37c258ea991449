/* SPDX-License-Identifier: Apache-2.0 */
/* Instruction counting on an emulated Corstone-300 through SysTick.
 *
 * QEMU has no DWT cycle counter. Under `-icount shift=0` each instruction takes 1 ns of virtual
 * time and SysTick (processor clock, 32 MHz on AN547) ticks every 31.25 ns, so
 * instructions = ticks * 31.25, to within one tick; the figure is the same on every run.
 *
 * The one counter of every harness that times a model_run or a kernel call: the golden test
 * (golden_profile.h), the benchmark (tools/bench_lib/c/bench_main.c) and the kernel cost
 * measurement (tools/measure_kernel_costs). Each starts the counter right before the call, reads it
 * right after, and prints the figure with helia_counter_report(); tools/bench_lib/counter.py reads
 * that line back. */
#ifndef HELIA_INSTRUCTION_COUNTER_H_
#define HELIA_INSTRUCTION_COUNTER_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Instructions per SysTick tick times 100 (31.25 under -icount shift=0 on AN547). SysTick is
 * architectural, so other boards reuse this counter and define their own clock's figure
 * (toolchains/arm_gnu/cores.bzl: 40 on the 25 MHz MPS2 images). */
#ifndef HELIA_INSTRUCTIONS_PER_TICK_X100
#define HELIA_INSTRUCTIONS_PER_TICK_X100 3125u
#endif

/* The optimization the firmware was compiled with, named in every report: the build defines it
 * (the Arm toolchain's compilation modes in toolchains/arm_gnu/cores.bzl, the benchmark's flags),
 * for the counter and the code it times alike. */
#ifndef HELIA_OPTIMIZATION
#define HELIA_OPTIMIZATION "optimization not stated"
#endif

/* Starts (or restarts) the counter from zero. */
void helia_counter_start(void);

/* SysTick ticks since helia_counter_start(); wrap-arounds of the 24-bit counter are counted. */
uint64_t helia_counter_ticks(void);

/* helia_counter_ticks() converted to instructions. */
uint64_t helia_counter_instructions(void);

/* Prints the count of one timed window as the line every harness prints:
 *   helia: <what> instructions: <N> (<run> run; <T> SysTick ticks x 31.25; <HELIA_OPTIMIZATION>)
 * `run` is "first" (the code's first execution since reset) or "warm" (a repeat). */
void helia_counter_report(const char *what, const char *run, uint64_t ticks);

#ifdef __cplusplus
}
#endif

#endif /* HELIA_INSTRUCTION_COUNTER_H_ */
