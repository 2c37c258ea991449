/* SPDX-License-Identifier: Apache-2.0 */
/* The micro_speech example's build-time data (speech_data.py writes the .c files): TFLM's test clips,
 * and TensorFlow Lite Micro's features, scores and labels for them (the golden test's reference). */
#ifndef SPEECH_DATA_H
#define SPEECH_DATA_H

#include <stdint.h>

#include "speech_pipeline.h"

typedef struct {
  const char *name;       /* e.g. "yes_1000ms" */
  const int16_t *samples; /* 16 kHz mono */
  int32_t num_samples;
} speech_clip_t;

extern const int32_t speech_num_clips;
extern const speech_clip_t speech_clips[];

/* Per clip, in speech_clips' order: TFLM's 49 x 40 features (frame after frame), its classifier
 * scores and the expected label (an index into speech_labels). */
extern const int8_t speech_expected_features[][SPEECH_FEATURE_BYTES];
extern const int8_t speech_expected_scores[][SPEECH_NUM_LABELS];
extern const int32_t speech_expected_labels[];

#endif /* SPEECH_DATA_H */
