/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private int16 LOGISTIC / TANH shared by arm_logistic_s16, arm_tanh_s16, arm_nn_activation_s16. */

#ifndef HELIA_PORTABLE_SIGMOID_TANH_S16_H
#define HELIA_PORTABLE_SIGMOID_TANH_S16_H

#include <stdint.h>

/*
 * out = sigmoid(x) or tanh(x) in Q0.15 for each input, where x is the input rescaled so that
 * 1.0 is 4096 / 3: x_scaled = (in * multiplier + 2^(right_shift - 1)) >> right_shift (no rounding term
 * for right_shift 0). Table lookup with linear interpolation, as TFLite's int16 reference kernels.
 */
void helia_sigmoid_tanh_s16(const int16_t *input,
                            int16_t *output,
                            int32_t size,
                            int32_t multiplier,
                            int32_t right_shift,
                            int is_tanh);

#endif /* HELIA_PORTABLE_SIGMOID_TANH_S16_H */
