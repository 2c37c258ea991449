/* SPDX-License-Identifier: Apache-2.0 */
/* Host e2e harness for stateful modules: a sequence of runs, then _model_reset and the first sample again.
 *
 * Protocol as host_harness.c (stdin: uint32 sample count, then every sample's inputs; stdout: the
 * header, then every sample's outputs), with one more set of outputs at the end: after the whole
 * sequence the harness calls e2e_model_reset and runs the first sample once more. A module whose
 * reset restores its initial state prints the first sample's outputs twice. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_model.h"

static int read_exact(void *dst, size_t bytes) {
  return fread(dst, 1, bytes, stdin) == bytes ? 0 : -1;
}

static int write_u32(uint32_t value) {
  return fwrite(&value, sizeof value, 1, stdout) == 1 ? 0 : -1;
}

static int write_outputs(e2e_model_context_t *ctx) {
  for (int32_t o = 0; o < E2E_NUM_OUTPUTS; ++o) {
    const void *output = e2e_model_output(ctx, o);
    int32_t bytes = e2e_model_output_bytes(o);
    if (output == NULL || bytes <= 0 || fwrite(output, 1, (size_t)bytes, stdout) != (size_t)bytes) {
      return -1;
    }
  }
  return 0;
}

int main(void) {
  static e2e_model_context_t ctx;
  uint32_t samples = 0;
  size_t sample_bytes = 0;
  unsigned char *first = NULL;
  int32_t status = e2e_model_init(&ctx);
  if (status != 0) {
    fprintf(stderr, "harness: e2e_model_init failed with status %ld\n", (long)status);
    return 3;
  }
  int failed = write_u32((uint32_t)E2E_NUM_INPUTS) | write_u32((uint32_t)E2E_NUM_OUTPUTS);
  for (int32_t i = 0; i < E2E_NUM_INPUTS; ++i) {
    failed |= write_u32((uint32_t)e2e_model_input_bytes(i));
    sample_bytes += (size_t)e2e_model_input_bytes(i);
  }
  for (int32_t o = 0; o < E2E_NUM_OUTPUTS; ++o) {
    failed |= write_u32((uint32_t)e2e_model_output_bytes(o));
  }
  if (failed || read_exact(&samples, sizeof samples) != 0 || samples == 0) {
    fprintf(stderr, "harness: header or sample count failed\n");
    return 2;
  }
  first = (unsigned char *)malloc(sample_bytes);
  if (first == NULL) {
    return 3;
  }
  for (uint32_t s = 0; s <= samples; ++s) {
    size_t offset = 0;
    if (s == samples) {
      status = e2e_model_reset(&ctx);
      if (status != 0) {
        fprintf(stderr, "harness: e2e_model_reset failed with status %ld\n", (long)status);
        free(first);
        return 4;
      }
    }
    for (int32_t i = 0; i < E2E_NUM_INPUTS; ++i) {
      void *input = e2e_model_input(&ctx, i);
      size_t bytes = (size_t)e2e_model_input_bytes(i);
      if (s == samples) {
        memcpy(input, first + offset, bytes);
      } else if (read_exact(input, bytes) != 0) {
        fprintf(stderr, "harness: sample %lu input %ld: short read\n", (unsigned long)s, (long)i);
        free(first);
        return 2;
      } else if (s == 0) {
        memcpy(first + offset, input, bytes);
      }
      offset += bytes;
    }
    status = e2e_model_run(&ctx);
    if (status != 0 || write_outputs(&ctx) != 0) {
      fprintf(stderr, "harness: sample %lu: run status %ld or output write failed\n", (unsigned long)s, (long)status);
      free(first);
      return 4;
    }
  }
  free(first);
  return fflush(stdout) == 0 ? 0 : 5;
}
