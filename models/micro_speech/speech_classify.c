/* SPDX-License-Identifier: Apache-2.0 */
/* The keyword classifier of the micro_speech pipeline: 49 x 40 features in, four int8 scores out. */
#include <string.h>

#include "micro_speech_model.h"
#include "speech_pipeline.h"

const char *const speech_labels[SPEECH_NUM_LABELS] = {"silence", "unknown", "yes", "no"};

static micro_speech_model_context_t classifier;

int32_t speech_classifier_init(void) {
  /* The pipeline's sizes are the model's: a different classifier fails here, not in memcpy. */
  if (micro_speech_model_input_bytes(0) != SPEECH_FEATURE_BYTES ||
      micro_speech_model_output_bytes(0) != SPEECH_NUM_LABELS) {
    return SPEECH_CLASSIFIER_ERROR + MICRO_SPEECH_STATUS_BAD_ARENA;
  }
  int32_t status = micro_speech_model_init(&classifier);
  return status == MICRO_SPEECH_STATUS_OK ? 0 : SPEECH_CLASSIFIER_ERROR + status;
}

int32_t speech_classify(const int8_t features[SPEECH_FEATURE_BYTES], int8_t scores[SPEECH_NUM_LABELS]) {
  int8_t *input = (int8_t *)micro_speech_model_input(&classifier, 0);
  if (input == NULL) {
    return SPEECH_CLASSIFIER_ERROR + MICRO_SPEECH_STATUS_NOT_INITIALIZED;
  }
  memcpy(input, features, SPEECH_FEATURE_BYTES);
  int32_t status = micro_speech_model_run(&classifier);
  if (status != MICRO_SPEECH_STATUS_OK) {
    return SPEECH_CLASSIFIER_ERROR + status;
  }
  memcpy(scores, micro_speech_model_output(&classifier, 0), SPEECH_NUM_LABELS);
  return 0;
}

int32_t speech_best_label(const int8_t scores[SPEECH_NUM_LABELS]) {
  int32_t best = 0;
  for (int32_t k = 1; k < SPEECH_NUM_LABELS; ++k) {
    if (scores[k] > scores[best]) {
      best = k;
    }
  }
  return best;
}
