/* SPDX-License-Identifier: Apache-2.0 */
/* A minimal firmware using the KWS module the way a product would: init once, fill the input,
 * run, read the scores. The input here is a fixed synthetic feature map, not real audio. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kws_model.h"

int main(void) {
  static kws_model_context_t ctx;
  if (kws_model_init(&ctx) != KWS_STATUS_OK) {
    printf("kws_demo: init failed\n");
    return 1;
  }
  int8_t *features = (int8_t *)kws_model_input(&ctx, 0);
  const int32_t feature_bytes = kws_model_input_bytes(0);
  for (int32_t i = 0; i < feature_bytes; ++i) {
    features[i] = (int8_t)((i * 37) % 256 - 128); /* a deterministic pattern */
  }
  int32_t status = kws_model_run(&ctx);
  if (status != KWS_STATUS_OK) {
    printf("kws_demo: run failed with status %ld\n", (long)status);
    return 1;
  }
  const int8_t *scores = (const int8_t *)kws_model_output(&ctx, 0);
  int32_t best = 0;
  for (int32_t k = 1; k < kws_model_output_bytes(0); ++k) {
    if (scores[k] > scores[best]) {
      best = k;
    }
  }
  printf("kws_demo: class %ld (score %d)\n", (long)best, scores[best]);
  return 0;
}
