/* SPDX-License-Identifier: Apache-2.0 */
/* TFLM's micro_speech pipeline on two helia-aot modules: the audio preprocessor (prefix
 * audio_preprocessor, one 30 ms frame of 16 kHz audio to 40 int8 features, stateful) and the keyword
 * classifier (prefix micro_speech, 49 frames of features to 4 scores). */
#ifndef SPEECH_PIPELINE_H
#define SPEECH_PIPELINE_H

#include <stdint.h>

#define SPEECH_FRAME_SAMPLES (480) /* 30 ms at 16 kHz */
#define SPEECH_FRAME_STRIDE (320)  /* 20 ms */
#define SPEECH_NUM_FRAMES (49)     /* frames of a 1 s clip */
#define SPEECH_NUM_FEATURES (40)   /* features per frame */
#define SPEECH_FEATURE_BYTES (SPEECH_NUM_FRAMES * SPEECH_NUM_FEATURES)
#define SPEECH_NUM_LABELS (4)

/* The classifier's outputs, in order: silence, unknown, yes, no. */
extern const char *const speech_labels[SPEECH_NUM_LABELS];

/* Status of the calls below: 0, or the failing module's status code plus one of these. */
#define SPEECH_PREPROCESSOR_ERROR (100)
#define SPEECH_CLASSIFIER_ERROR (200)

/* Initialize the preprocessor and the classifier module (static arenas), once each. */
int32_t speech_preprocessor_init(void);
int32_t speech_classifier_init(void);

/* The 40 features of frame `index` of a clip: samples [320 index, 320 index + 480), zeros past
 * num_samples. The preprocessor keeps noise estimates from the frames before; see speech_features. */
int32_t speech_frame_features(const int16_t *clip, int32_t num_samples, int32_t index,
                              int8_t features[SPEECH_NUM_FEATURES]);

/* The 49 x 40 features of a clip, frame after frame: resets the preprocessor, then runs frames 0..48. */
int32_t speech_features(const int16_t *clip, int32_t num_samples, int8_t features[SPEECH_FEATURE_BYTES]);

/* The classifier's scores for 49 x 40 features. */
int32_t speech_classify(const int8_t features[SPEECH_FEATURE_BYTES], int8_t scores[SPEECH_NUM_LABELS]);

/* Index of the highest score (the first on a tie). */
int32_t speech_best_label(const int8_t scores[SPEECH_NUM_LABELS]);

#endif /* SPEECH_PIPELINE_H */
