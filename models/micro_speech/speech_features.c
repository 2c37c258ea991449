/* SPDX-License-Identifier: Apache-2.0 */
/* The audio front end of the micro_speech pipeline: a clip, frame by frame, through the stateful
 * preprocessor module, as TFLM's micro_speech example slices it. */
#include <string.h>

#include "audio_preprocessor_model.h"
#include "speech_pipeline.h"

static audio_preprocessor_model_context_t preprocessor;

int32_t speech_preprocessor_init(void) {
  if (audio_preprocessor_model_input_bytes(0) != SPEECH_FRAME_SAMPLES * (int32_t)sizeof(int16_t) ||
      audio_preprocessor_model_output_bytes(0) != SPEECH_NUM_FEATURES) {
    return SPEECH_PREPROCESSOR_ERROR + AUDIO_PREPROCESSOR_STATUS_BAD_ARENA;
  }
  int32_t status = audio_preprocessor_model_init(&preprocessor);
  return status == AUDIO_PREPROCESSOR_STATUS_OK ? 0 : SPEECH_PREPROCESSOR_ERROR + status;
}

int32_t speech_frame_features(const int16_t *clip, int32_t num_samples, int32_t index,
                              int8_t features[SPEECH_NUM_FEATURES]) {
  int16_t *frame = (int16_t *)audio_preprocessor_model_input(&preprocessor, 0);
  if (frame == NULL) {
    return SPEECH_PREPROCESSOR_ERROR + AUDIO_PREPROCESSOR_STATUS_NOT_INITIALIZED;
  }
  /* Samples [320 index, 320 index + 480) of the clip; the last frames of a short clip end in zeros. */
  int32_t start = SPEECH_FRAME_STRIDE * index;
  int32_t available = num_samples > start ? num_samples - start : 0;
  if (available > SPEECH_FRAME_SAMPLES) {
    available = SPEECH_FRAME_SAMPLES;
  }
  if (available > 0) {
    memcpy(frame, clip + start, (size_t)available * sizeof(int16_t));
  }
  memset(frame + available, 0, (size_t)(SPEECH_FRAME_SAMPLES - available) * sizeof(int16_t));
  int32_t status = audio_preprocessor_model_run(&preprocessor);
  if (status != AUDIO_PREPROCESSOR_STATUS_OK) {
    return SPEECH_PREPROCESSOR_ERROR + status;
  }
  memcpy(features, audio_preprocessor_model_output(&preprocessor, 0), SPEECH_NUM_FEATURES);
  return 0;
}

int32_t speech_features(const int16_t *clip, int32_t num_samples, int8_t features[SPEECH_FEATURE_BYTES]) {
  /* Noise estimates start afresh for every clip, as TFLM's example resets its interpreter. */
  int32_t status = audio_preprocessor_model_reset(&preprocessor);
  if (status != AUDIO_PREPROCESSOR_STATUS_OK) {
    return SPEECH_PREPROCESSOR_ERROR + status;
  }
  for (int32_t i = 0; i < SPEECH_NUM_FRAMES; ++i) {
    status = speech_frame_features(clip, num_samples, i, features + i * SPEECH_NUM_FEATURES);
    if (status != 0) {
      return status;
    }
  }
  return 0;
}
