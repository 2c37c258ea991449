/* SPDX-License-Identifier: Apache-2.0 */
/* The micro_speech golden test: for each clip, the classifier alone on TFLM's features, then the
 * whole pipeline (our features, our scores, our label), against TensorFlow Lite Micro bit for bit; then
 * the zero padding of a clip that ends inside its last frame.
 * On Corstone-300 (SPEECH_COUNT_INSTRUCTIONS) it also prints the instructions of each clip. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speech_data.h"
#include "speech_pipeline.h"

#ifdef SPEECH_COUNT_INSTRUCTIONS
#include "instruction_counter.h"
#define COUNTER_START() helia_counter_start()
#define COUNTER_READ() helia_counter_instructions()
#else
#define COUNTER_START() ((void)0)
#define COUNTER_READ() ((uint64_t)0)
#endif

/* Largest |a - b| over n codes, how many differ, and the first that does (-1 if none). */
static int32_t max_diff(const int8_t *a, const int8_t *b, int32_t n, int32_t *off, int32_t *first) {
  int32_t worst = 0;
  *off = 0;
  *first = -1;
  for (int32_t i = 0; i < n; ++i) {
    int32_t d = abs((int32_t)a[i] - (int32_t)b[i]);
    if (d != 0) {
      *off += 1;
      if (*first < 0) {
        *first = i;
      }
    }
    worst = d > worst ? d : worst;
  }
  return worst;
}

/* Checks one clip; returns 0 when everything equals TFLM's. */
static int32_t check_clip(int32_t c) {
  const speech_clip_t *clip = &speech_clips[c];
  const int8_t *want_features = speech_expected_features[c];
  const int8_t *want_scores = speech_expected_scores[c];
  int32_t off, first, failed = 0;

  /* The classifier alone, on TFLM's features. */
  int8_t scores[SPEECH_NUM_LABELS];
  int32_t status = speech_classify(want_features, scores);
  if (status != 0) {
    printf("speech_golden: %s: classifier failed with status %ld\n", clip->name, (long)status);
    return 1;
  }
  int32_t classifier_diff = max_diff(scores, want_scores, SPEECH_NUM_LABELS, &off, &first);
  failed |= classifier_diff != 0;

  /* The whole pipeline. */
  static int8_t features[SPEECH_FEATURE_BYTES];
  COUNTER_START();
  status = speech_features(clip->samples, clip->num_samples, features);
  uint64_t feature_instructions = COUNTER_READ();
  if (status != 0) {
    printf("speech_golden: %s: preprocessor failed with status %ld\n", clip->name, (long)status);
    return 1;
  }
  COUNTER_START();
  status = speech_classify(features, scores);
  uint64_t classifier_instructions = COUNTER_READ();
  if (status != 0) {
    printf("speech_golden: %s: classifier failed with status %ld\n", clip->name, (long)status);
    return 1;
  }
  int32_t feature_diff = max_diff(features, want_features, SPEECH_FEATURE_BYTES, &off, &first);
  printf("speech_golden: %s: features max |diff| %ld (%ld of %d codes off)", clip->name, (long)feature_diff,
         (long)off, SPEECH_FEATURE_BYTES);
  if (first >= 0) {
    printf(", first at frame %ld feature %ld: %d, TFLM %d", (long)(first / SPEECH_NUM_FEATURES),
           (long)(first % SPEECH_NUM_FEATURES), features[first], want_features[first]);
  }
  int32_t score_diff = max_diff(scores, want_scores, SPEECH_NUM_LABELS, &off, &first);
  int32_t label = speech_best_label(scores);
  printf("; scores max |diff| %ld (classifier on TFLM's features %ld): %d %d %d %d, TFLM %d %d %d %d; "
         "label %s, expected %s\n",
         (long)score_diff, (long)classifier_diff, scores[0], scores[1], scores[2], scores[3], want_scores[0],
         want_scores[1], want_scores[2], want_scores[3], speech_labels[label],
         speech_labels[speech_expected_labels[c]]);
#ifdef SPEECH_COUNT_INSTRUCTIONS
  printf("speech_golden: %s: instructions per frame %llu (preprocessor, mean of %d), per clip %llu "
         "(%llu in %d frames, %llu in the classifier)\n",
         clip->name, (unsigned long long)((feature_instructions + SPEECH_NUM_FRAMES / 2) / SPEECH_NUM_FRAMES),
         SPEECH_NUM_FRAMES, (unsigned long long)(feature_instructions + classifier_instructions),
         (unsigned long long)feature_instructions, SPEECH_NUM_FRAMES, (unsigned long long)classifier_instructions);
#else
  (void)feature_instructions;
  (void)classifier_instructions;
#endif
  failed |= feature_diff != 0 || score_diff != 0 || label != speech_expected_labels[c];
  return failed;
}

/* A clip that ends inside its last frame: the frame is zero-padded, so the features of a clip cut at
 * CUT_SAMPLES equal those of a full-length copy whose samples from CUT_SAMPLES on are zeros. The clip is
 * the one loudest past the cut, where reading on would change the features most. (TFLM's 1 s clips end
 * past their last frame, so only this check reaches the padding.) */
#define CUT_SAMPLES (SPEECH_FRAME_STRIDE * (SPEECH_NUM_FRAMES - 1) + 340)
static int32_t check_padding(void) {
  static int16_t zeroed[SPEECH_FRAME_STRIDE * (SPEECH_NUM_FRAMES - 1) + SPEECH_FRAME_SAMPLES];
  static int8_t cut_features[SPEECH_FEATURE_BYTES];
  static int8_t zeroed_features[SPEECH_FEATURE_BYTES];
  const int32_t length = (int32_t)(sizeof(zeroed) / sizeof(zeroed[0]));
  const speech_clip_t *clip = NULL;
  int32_t loudest = 0;
  for (int32_t c = 0; c < speech_num_clips; ++c) {
    for (int32_t i = CUT_SAMPLES; i < length && i < speech_clips[c].num_samples; ++i) {
      if (abs(speech_clips[c].samples[i]) > loudest) {
        loudest = abs(speech_clips[c].samples[i]);
        clip = &speech_clips[c];
      }
    }
  }
  if (clip == NULL) {
    printf("speech_golden: zero padding: no clip has a sample past %d to leave out\n", CUT_SAMPLES);
    return 1;
  }
  memcpy(zeroed, clip->samples, CUT_SAMPLES * sizeof(int16_t));
  int32_t status = speech_features(clip->samples, CUT_SAMPLES, cut_features);
  if (status == 0) {
    status = speech_features(zeroed, length, zeroed_features);
  }
  if (status != 0) {
    printf("speech_golden: zero padding: preprocessor failed with status %ld\n", (long)status);
    return 1;
  }
  int32_t off, first;
  int32_t diff = max_diff(cut_features, zeroed_features, SPEECH_FEATURE_BYTES, &off, &first);
  printf("speech_golden: zero padding: %s cut at %d samples against its zero-padded copy: features max |diff| %ld\n",
         clip->name, CUT_SAMPLES, (long)diff);
  return diff != 0;
}

int main(void) {
  int32_t status = speech_preprocessor_init();
  if (status == 0) {
    status = speech_classifier_init();
  }
  if (status != 0) {
    printf("speech_golden: init failed with status %ld\n", (long)status);
    return 1;
  }
  int32_t failed = 0;
  for (int32_t c = 0; c < speech_num_clips; ++c) {
    failed += check_clip(c);
  }
  if (check_padding() != 0) {
    printf("speech_golden: FAIL: zero padding\n");
    return 1;
  }
  if (failed != 0) {
    printf("speech_golden: FAIL: %ld of %ld clips differ from TensorFlow Lite Micro\n", (long)failed,
           (long)speech_num_clips);
    return 1;
  }
  printf("speech_golden: PASS: %ld clips bit-identical to TensorFlow Lite Micro\n", (long)speech_num_clips);
  return 0;
}
