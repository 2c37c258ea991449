/* SPDX-License-Identifier: Apache-2.0 */
/* Host e2e harness: runs a generated module (prefix "e2e") on samples read from stdin.
 *
 * Protocol (binary, native byte order): stdin holds a uint32 sample count, then for each sample
 * the bytes of every input in order (E2E_NUM_INPUTS buffers of e2e_model_input_bytes(i) bytes).
 * stdout starts with a header of uint32 values: E2E_NUM_INPUTS, E2E_NUM_OUTPUTS, each input's
 * bytes, each output's bytes (so the caller can check the module's I/O against the model's before
 * trusting the stream), then 1 for a stateful module (one with e2e_model_reset) or 0; then, for
 * each sample, the bytes of every output. The samples run as one sequence: state carries from run
 * to run, as in one LiteRT interpreter. A stateful module then runs the first sample once more
 * after e2e_model_reset and writes its outputs after the others (they must repeat the first ones
 * exactly). Any error goes to stderr with a non-zero exit status, so one executable runs every
 * sample of a case. */
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "e2e_model.h"

#define DRIVER_NAME "harness"
#include "driver_io.h"

static int write_u32(uint32_t value) {
  return fwrite(&value, sizeof value, 1, stdout) == 1 ? 0 : -1;
}

static int write_header(void) {
  int failed = write_u32((uint32_t)E2E_NUM_INPUTS) | write_u32((uint32_t)E2E_NUM_OUTPUTS);
  for (int32_t i = 0; i < E2E_NUM_INPUTS; ++i) {
    failed |= write_u32((uint32_t)e2e_model_input_bytes(i));
  }
  for (int32_t o = 0; o < E2E_NUM_OUTPUTS; ++o) {
    failed |= write_u32((uint32_t)e2e_model_output_bytes(o));
  }
#ifdef E2E_PERSISTENT_BYTES
  failed |= write_u32(1u);
#else
  failed |= write_u32(0u);
#endif
  return failed;
}

static int write_outputs(e2e_model_context_t *ctx) {
  for (int32_t o = 0; o < E2E_NUM_OUTPUTS; ++o) {
    const void *output = e2e_model_output(ctx, o);
    int32_t bytes = e2e_model_output_bytes(o);
    if (output == NULL || bytes <= 0) {
      fprintf(stderr, "harness: output %ld has no buffer (bytes %ld)\n", (long)o, (long)bytes);
      return 3;
    }
    if (fwrite(output, 1, (size_t)bytes, stdout) != (size_t)bytes) {
      fprintf(stderr, "harness: cannot write output %ld\n", (long)o);
      return 5;
    }
  }
  return 0;
}

int main(void) {
  /* The context outlives main's frame on purpose: a module keeping a pointer to it must not read
   * a dead stack slot. */
  static e2e_model_context_t ctx;
  uint32_t samples = 0;
  int32_t status = e2e_model_init(&ctx);
  if (status != 0) {
    fprintf(stderr, "harness: e2e_model_init failed with status %ld\n", (long)status);
    return 3;
  }
  if (write_header() != 0) {
    fprintf(stderr, "harness: cannot write the header\n");
    return 5;
  }
  if (read_exact(&samples, sizeof samples) != 0) {
    fprintf(stderr, "harness: missing sample count on stdin\n");
    return 2;
  }
#ifdef E2E_PERSISTENT_BYTES
  /* The first sample's inputs, kept for the run after the reset. */
  void *first[E2E_NUM_INPUTS];
  for (int32_t i = 0; i < E2E_NUM_INPUTS; ++i) {
    first[i] = malloc((size_t)e2e_model_input_bytes(i));
    if (first[i] == NULL) {
      fprintf(stderr, "harness: out of memory\n");
      return 3;
    }
  }
#endif
  int result = 0;
  for (uint32_t s = 0; s < samples && result == 0; ++s) {
    for (int32_t i = 0; i < E2E_NUM_INPUTS; ++i) {
      void *input = e2e_model_input(&ctx, i);
      int32_t bytes = e2e_model_input_bytes(i);
      if (input == NULL || bytes <= 0) {
        fprintf(stderr, "harness: input %ld has no buffer (bytes %ld)\n", (long)i, (long)bytes);
        return 3;
      }
      if (read_exact(input, (size_t)bytes) != 0) {
        fprintf(stderr, "harness: sample %lu input %ld: short read\n", (unsigned long)s, (long)i);
        return 2;
      }
#ifdef E2E_PERSISTENT_BYTES
      if (s == 0u) {
        memcpy(first[i], input, (size_t)bytes);
      }
#endif
    }
    status = e2e_model_run(&ctx);
    if (status != 0) {
      fprintf(stderr, "harness: sample %lu: e2e_model_run failed with status %ld\n",
              (unsigned long)s, (long)status);
      return 4;
    }
    result = write_outputs(&ctx);
  }
#ifdef E2E_PERSISTENT_BYTES
  if (result == 0 && samples > 0u) {
    status = e2e_model_reset(&ctx);
    for (int32_t i = 0; i < E2E_NUM_INPUTS && status == 0; ++i) {
      memcpy(e2e_model_input(&ctx, i), first[i], (size_t)e2e_model_input_bytes(i));
    }
    if (status == 0) {
      status = e2e_model_run(&ctx);
    }
    if (status != 0) {
      fprintf(stderr, "harness: reset and rerun of sample 0 failed with status %ld\n", (long)status);
      return 4;
    }
    result = write_outputs(&ctx);
  }
  for (int32_t i = 0; i < E2E_NUM_INPUTS; ++i) {
    free(first[i]);
  }
#endif
  if (result != 0) {
    return result;
  }
  return fflush(stdout) == 0 ? 0 : 5;
}
