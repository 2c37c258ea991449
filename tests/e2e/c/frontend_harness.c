/* SPDX-License-Identifier: Apache-2.0 */
/* Host harness of tests/e2e/test_audio_frontend.py: runs a stateful generated module (prefix "e2e", one
 * input, one output) on frames read from stdin, resetting its state where the stream says so, as an
 * application feeding clip after clip does.
 *
 * Protocol (binary, native byte order): stdin holds a uint32 frame count, then per frame one byte (1:
 * call e2e_model_reset before this frame, 0: carry the state on) and the input's bytes. stdout holds,
 * per frame, the output's bytes. Any error goes to stderr with a non-zero exit status. */
#include <stdint.h>
#include <stdio.h>

#include "e2e_model.h"

#define DRIVER_NAME "frontend harness"
#include "driver_io.h"

int main(void) {
  /* Static: the context outlives main's frame, as the module may expect of it. */
  static e2e_model_context_t ctx;
  uint32_t frames = 0;
  int32_t status = e2e_model_init(&ctx);
  if (status != 0) {
    fprintf(stderr, "frontend harness: e2e_model_init failed with status %ld\n", (long)status);
    return 3;
  }
  if (read_exact(&frames, sizeof frames) != 0) {
    fprintf(stderr, "frontend harness: missing frame count\n");
    return 2;
  }
  const int32_t in_bytes = e2e_model_input_bytes(0);
  const int32_t out_bytes = e2e_model_output_bytes(0);
  for (uint32_t f = 0; f < frames; ++f) {
    uint8_t reset = 0;
    void *input = e2e_model_input(&ctx, 0);
    if (input == NULL || in_bytes <= 0 || out_bytes <= 0) {
      fprintf(stderr, "frontend harness: the module has no input or output buffer\n");
      return 3;
    }
    if (read_exact(&reset, 1) != 0) {
      fprintf(stderr, "frontend harness: frame %lu: short read\n", (unsigned long)f);
      return 2;
    }
    if (reset != 0u && (status = e2e_model_reset(&ctx)) != 0) {
      fprintf(stderr, "frontend harness: frame %lu: e2e_model_reset failed with status %ld\n", (unsigned long)f,
              (long)status);
      return 4;
    }
    if (read_exact(input, (size_t)in_bytes) != 0) {
      fprintf(stderr, "frontend harness: frame %lu: short read\n", (unsigned long)f);
      return 2;
    }
    status = e2e_model_run(&ctx);
    if (status != 0) {
      fprintf(stderr, "frontend harness: frame %lu: e2e_model_run failed with status %ld (operator %ld)\n",
              (unsigned long)f, (long)status, (long)ctx.failed_operator);
      return 4;
    }
    if (fwrite(e2e_model_output(&ctx, 0), 1, (size_t)out_bytes, stdout) != (size_t)out_bytes) {
      fprintf(stderr, "frontend harness: cannot write frame %lu\n", (unsigned long)f);
      return 5;
    }
  }
  return fflush(stdout) == 0 ? 0 : 5;
}
