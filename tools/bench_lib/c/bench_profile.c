/* SPDX-License-Identifier: Apache-2.0 */
/* Timing of each operator (the module's HELIA_OP_BEGIN/END hooks) and of each kernel call (the
 * wrappers in bench_wraps.c) in SysTick ticks, plus the cost of the timing itself, measured on an
 * empty call so the host can subtract it. Only outermost kernel calls are timed: a kernel that
 * calls another wrapped kernel is counted once. */

#include <stdio.h>

#include "bench_profile.h"
#include "instruction_counter.h"

#ifndef HELIA_BENCH_MAX_OPS
#error "define HELIA_BENCH_MAX_OPS (the module's operator count)"
#endif

/* Calls of the empty wrapped function used to measure the timing overhead (more calls, finer). */
#define CALIBRATION_CALLS 1024

static uint64_t op_start;
static uint64_t op_ticks[HELIA_BENCH_MAX_OPS];
static uint64_t kernel_ticks[HELIA_BENCH_MAX_OPS];
static uint32_t kernel_calls[HELIA_BENCH_MAX_OPS];
static uint64_t kernel_start;
static int32_t kernel_depth;
static int32_t current_op = -1;
static uint64_t outside_kernel_ticks; /* kernel calls made outside any operator window */
static uint32_t outside_kernel_calls;

void helia_bench_op_begin(int32_t index) {
  current_op = index;
  op_start = helia_counter_ticks();
}

void helia_bench_op_end(int32_t index) {
  op_ticks[index] += helia_counter_ticks() - op_start;
  current_op = -1;
}

void helia_bench_kernel_enter(void) {
  if (kernel_depth++ == 0) {
    kernel_start = helia_counter_ticks();
  }
}

void helia_bench_kernel_leave(void) {
  if (--kernel_depth == 0) {
    uint64_t ticks = helia_counter_ticks() - kernel_start;
    if (current_op >= 0 && current_op < HELIA_BENCH_MAX_OPS) {
      kernel_ticks[current_op] += ticks;
      kernel_calls[current_op] += 1u;
    } else {
      outside_kernel_ticks += ticks;
      outside_kernel_calls += 1u;
    }
  }
}

/* Right after helia_counter_start() the counter reads 2^24 - 1 ticks until SysTick first reloads;
 * an operator timed across that moment would come out negative. Wait it out (the profiled
 * firmware's own model_run total is not reported, so the wait costs nothing that is). */
void helia_bench_profile_settle(void) {
  while (helia_counter_ticks() >= 0x00FFFFFFu) {
  }
}

void helia_bench_profile_reset(void) {
  for (int32_t i = 0; i < HELIA_BENCH_MAX_OPS; ++i) {
    op_ticks[i] = 0u;
    kernel_ticks[i] = 0u;
    kernel_calls[i] = 0u;
  }
  outside_kernel_ticks = 0u;
  outside_kernel_calls = 0u;
  kernel_depth = 0;
  current_op = -1;
}

/* Shaped like a wrapper in bench_wraps.c around a kernel that does nothing. */
__attribute__((noinline)) void helia_bench_empty_kernel(void) { __asm__ volatile(""); }

__attribute__((noinline)) static void wrapped_empty_kernel(void) {
  helia_bench_kernel_enter();
  helia_bench_empty_kernel();
  helia_bench_kernel_leave();
}

void helia_bench_profile_print(void) {
  for (int32_t i = 0; i < HELIA_BENCH_MAX_OPS; ++i) {
    if (op_ticks[i] != 0u || kernel_calls[i] != 0u) {
      printf("bench: op %ld ticks %llu kernel_ticks %llu kernel_calls %lu\n", (long)i,
             (unsigned long long)op_ticks[i], (unsigned long long)kernel_ticks[i],
             (unsigned long)kernel_calls[i]);
    }
  }
  printf("bench: outside_ops kernel_ticks %llu kernel_calls %lu\n", (unsigned long long)outside_kernel_ticks,
         (unsigned long)outside_kernel_calls);
  /* Timing overhead of one wrapped call, over CALIBRATION_CALLS calls (op slot 0 is reused). */
  helia_bench_profile_reset();
  current_op = 0;
  for (int32_t i = 0; i < CALIBRATION_CALLS; ++i) {
    wrapped_empty_kernel();
  }
  printf("bench: calibration calls %lu ticks %llu\n", (unsigned long)kernel_calls[0],
         (unsigned long long)kernel_ticks[0]);
}
