/* SPDX-License-Identifier: Apache-2.0 */
/* A firmware that spots keywords the way TFLM's micro_speech example does: each 1 s clip (built in at
 * build time) goes frame by frame through the audio preprocessor module, the 49 x 40 features through
 * the classifier module, and the best-scoring label is printed. */
#include <stdint.h>
#include <stdio.h>

#include "speech_data.h"
#include "speech_pipeline.h"

int main(void) {
  int32_t status = speech_preprocessor_init();
  if (status == 0) {
    status = speech_classifier_init();
  }
  if (status != 0) {
    printf("micro_speech_demo: init failed with status %ld\n", (long)status);
    return 1;
  }
  static int8_t features[SPEECH_FEATURE_BYTES];
  for (int32_t c = 0; c < speech_num_clips; ++c) {
    const speech_clip_t *clip = &speech_clips[c];
    int8_t scores[SPEECH_NUM_LABELS];
    status = speech_features(clip->samples, clip->num_samples, features);
    if (status == 0) {
      status = speech_classify(features, scores);
    }
    if (status != 0) {
      printf("micro_speech_demo: %s failed with status %ld\n", clip->name, (long)status);
      return 1;
    }
    printf("micro_speech_demo: %s: %s (scores %d %d %d %d)\n", clip->name, speech_labels[speech_best_label(scores)],
           scores[0], scores[1], scores[2], scores[3]);
  }
  return 0;
}
