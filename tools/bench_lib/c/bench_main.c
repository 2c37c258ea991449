/* SPDX-License-Identifier: Apache-2.0 */
/* Benchmark firmware for Corstone-300 under QEMU -icount shift=0: runs the module once to warm up,
 * then times one model_run with the SysTick instruction counter, reports it as a warm run through
 * helia_counter_report() (the golden test's report too) and prints a checksum of the outputs. The
 * module is converted with prefix "net"; bench_input.c holds its inputs (seeded, or given). */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench_profile.h"
#include "instruction_counter.h"
#include "net_model.h"

extern const uint8_t helia_bench_input_bytes[];
extern const int32_t helia_bench_input_offsets[NET_NUM_INPUTS + 1];

static net_model_context_t ctx;

/* The inputs sit in the arena, where a run may overwrite them: reload them before every run. */
static int load_inputs(void) {
  for (int32_t i = 0; i < NET_NUM_INPUTS; ++i) {
    int32_t bytes = helia_bench_input_offsets[i + 1] - helia_bench_input_offsets[i];
    void *input = net_model_input(&ctx, i);
    if (input == NULL || bytes != net_model_input_bytes(i)) {
      printf("bench: input %ld: expected %ld bytes, module wants %ld\n", (long)i, (long)bytes,
             (long)net_model_input_bytes(i));
      return 1;
    }
    memcpy(input, helia_bench_input_bytes + helia_bench_input_offsets[i], (size_t)bytes);
  }
  return 0;
}

/* FNV-1a over every output, so two builds (or two kernel libraries) can be compared. */
static uint32_t output_checksum(void) {
  uint32_t hash = 2166136261u;
  for (int32_t i = 0; i < NET_NUM_OUTPUTS; ++i) {
    const uint8_t *output = (const uint8_t *)net_model_output(&ctx, i);
    for (int32_t j = 0; j < net_model_output_bytes(i); ++j) {
      hash = (hash ^ output[j]) * 16777619u;
    }
  }
  return hash;
}

int main(void) {
  int32_t status = net_model_init(&ctx);
  if (status != 0 || load_inputs() != 0) {
    printf("bench: init failed (status %ld)\n", (long)status);
    return 1;
  }
  status = net_model_run(&ctx); /* warm-up */
  if (status != 0 || load_inputs() != 0) {
    printf("bench: warm-up model_run failed (status %ld, operator %ld)\n", (long)status,
           (long)ctx.failed_operator);
    return 1;
  }
  helia_bench_profile_reset();
  helia_counter_start();
  helia_bench_profile_settle();
  status = net_model_run(&ctx);
  uint64_t ticks = helia_counter_ticks();
  if (status != 0) {
    printf("bench: model_run failed (status %ld, operator %ld)\n", (long)status, (long)ctx.failed_operator);
    return 1;
  }
  helia_counter_report(HELIA_BENCH_RUN_NAME, "warm", ticks);
  printf("bench: output checksum %08lx\n", (unsigned long)output_checksum());
  helia_bench_profile_print();
  return 0;
}
