/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private bias and requantization rules shared by the int16 CONV_2D entries. */

#ifndef HELIA_PORTABLE_CONV_S16_CORE_H
#define HELIA_PORTABLE_CONV_S16_CORE_H

#include "arm_nnfunctions.h"

/* Bias of output channel oc widened to 64 bits: int32 or int64 entries by is_int32_bias; 0 without data. */
int64_t helia_conv_s16_bias(const cmsis_nn_bias_data *bias_data, int32_t oc);

/*
 * The two requantizations of the int16 convolutions. The int32 route (int32 bias) wraps the
 * accumulator to 32 bits and applies the Q31 multiplier like the int8 kernels; the int64 route
 * applies the multiplier rounded to Q15 to the 64-bit accumulator.
 */
int32_t helia_conv_s16_requantize(int64_t acc, int int32_route, int32_t multiplier, int32_t shift);

/* Clamp to the activation range and store as int16 (the range is expected inside int16). */
int16_t helia_conv_s16_activate(int32_t value, const cmsis_nn_activation *activation);

#endif /* HELIA_PORTABLE_CONV_S16_CORE_H */
