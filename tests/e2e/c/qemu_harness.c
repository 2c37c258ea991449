/* SPDX-License-Identifier: Apache-2.0 */
/* Corstone-300 e2e firmware: runs a generated module (prefix "e2e") on embedded samples.
 *
 * The samples come from a generated C file (e2e_test_data_*): the bytes of every input of every
 * sample, back to back, in the host harness's order. Each output is printed over semihosting as
 * one line "helia-e2e out <sample> <output> <hex bytes>"; the first run is timed with the
 * SysTick instruction counter and printed as "helia-e2e instructions <count>". The samples run
 * as one sequence (state carries from run to run); a stateful module (one with e2e_model_reset)
 * then runs the first sample again after a reset and prints its outputs as sample "reset". */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "e2e_model.h"
#include "instruction_counter.h"

extern const uint8_t e2e_test_input_data[];
extern const uint32_t e2e_test_input_data_bytes;
extern const uint32_t e2e_test_samples;

static void print_hex(const uint8_t *bytes, int32_t count) {
  static const char digits[] = "0123456789abcdef";
  for (int32_t i = 0; i < count; ++i) {
    putchar(digits[bytes[i] >> 4]);
    putchar(digits[bytes[i] & 0xFu]);
  }
}

int main(void) {
  static e2e_model_context_t ctx;
  int32_t status = e2e_model_init(&ctx);
  if (status != 0) {
    printf("helia-e2e error: e2e_model_init failed with status %ld\n", (long)status);
    return 3;
  }
  uint32_t offset = 0;
  for (uint32_t s = 0; s < e2e_test_samples; ++s) {
    for (int32_t i = 0; i < E2E_NUM_INPUTS; ++i) {
      int32_t bytes = e2e_model_input_bytes(i);
      void *input = e2e_model_input(&ctx, i);
      if (input == NULL || bytes <= 0 || offset + (uint32_t)bytes > e2e_test_input_data_bytes) {
        printf("helia-e2e error: sample %lu input %ld does not fit the embedded data\n",
               (unsigned long)s, (long)i);
        return 3;
      }
      memcpy(input, &e2e_test_input_data[offset], (size_t)bytes);
      offset += (uint32_t)bytes;
    }
    if (s == 0u) {
      helia_counter_start();
    }
    status = e2e_model_run(&ctx);
    if (s == 0u) {
      uint64_t instructions = helia_counter_instructions();
      printf("helia-e2e instructions %llu\n", (unsigned long long)instructions);
    }
    if (status != 0) {
      printf("helia-e2e error: sample %lu: e2e_model_run failed with status %ld\n",
             (unsigned long)s, (long)status);
      return 4;
    }
    for (int32_t o = 0; o < E2E_NUM_OUTPUTS; ++o) {
      printf("helia-e2e out %lu %ld ", (unsigned long)s, (long)o);
      print_hex((const uint8_t *)e2e_model_output(&ctx, o), e2e_model_output_bytes(o));
      putchar('\n');
    }
  }
  if (offset != e2e_test_input_data_bytes) {
    printf("helia-e2e error: %lu of %lu embedded bytes used\n", (unsigned long)offset,
           (unsigned long)e2e_test_input_data_bytes);
    return 3;
  }
#ifdef E2E_PERSISTENT_BYTES
  status = e2e_model_reset(&ctx);
  offset = 0;
  for (int32_t i = 0; i < E2E_NUM_INPUTS && status == 0; ++i) {
    int32_t bytes = e2e_model_input_bytes(i);
    memcpy(e2e_model_input(&ctx, i), &e2e_test_input_data[offset], (size_t)bytes);
    offset += (uint32_t)bytes;
  }
  if (status == 0) {
    status = e2e_model_run(&ctx);
  }
  if (status != 0) {
    printf("helia-e2e error: reset and rerun of sample 0 failed with status %ld\n", (long)status);
    return 4;
  }
  for (int32_t o = 0; o < E2E_NUM_OUTPUTS; ++o) {
    printf("helia-e2e out reset %ld ", (long)o);
    print_hex((const uint8_t *)e2e_model_output(&ctx, o), e2e_model_output_bytes(o));
    putchar('\n');
  }
#endif
  printf("helia-e2e done %lu samples\n", (unsigned long)e2e_test_samples);
  return 0;
}
