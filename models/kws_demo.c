/* SPDX-License-Identifier: Apache-2.0 */
/* A minimal firmware using the KWS module the way a product would: init once, quantize a float
 * feature map into the input, run, dequantize the scores and print the best class. Every size,
 * scale and zero point comes from kws_model.h (its macros and descriptor tables): nothing here is
 * copied from the model, so a regenerated model with other shapes or quantization still fits.
 * The features are a fixed synthetic pattern, not real audio (and the model's weights are random). */
#include <stdint.h>
#include <stdio.h>

#include "kws_model.h"

static float features[KWS_INPUT0_ELEMENTS];
static float scores[KWS_OUTPUT0_ELEMENTS];

/* Counts the operators a run executes (kws_model_set_observer). */
static void count_operator(void *user, int32_t index, const char *id, const char *type) {
  (void)index;
  (void)id;
  (void)type;
  *(int32_t *)user += 1;
}

int main(void) {
  static kws_model_context_t ctx;
  int32_t operators = 0;
  if (kws_model_init(&ctx) != KWS_STATUS_OK) {
    printf("kws_demo: init failed\n");
    return 1;
  }
  kws_model_set_observer(&ctx, count_operator, &operators);
  /* A deterministic pattern of feature values, in the model's real units. */
  for (int32_t i = 0; i < KWS_INPUT0_ELEMENTS; ++i) {
    features[i] = (float)((i * 37) % 61 - 30) * 0.75f;
  }
  int32_t status = kws_model_quantize_input(&ctx, 0, features);
  if (status == KWS_STATUS_OK) {
    status = kws_model_run(&ctx);
  }
  if (status == KWS_STATUS_OK) {
    status = kws_model_dequantize_output(&ctx, 0, scores);
  }
  if (status != KWS_STATUS_OK) {
    printf("kws_demo: failed with status %ld\n", (long)status);
    return 1;
  }
  int32_t best = 0;
  for (int32_t k = 1; k < KWS_OUTPUT0_ELEMENTS; ++k) {
    if (scores[k] > scores[best]) {
      best = k;
    }
  }
  /* Per mille, so that the firmware needs no printf with float support. */
  printf("kws_demo: class %ld of output '%s' (probability %ld per mille, %ld operators ran)\n", (long)best,
         kws_model_outputs[0].name, (long)(scores[best] * 1000.0f + 0.5f), (long)operators);
  return 0;
}
