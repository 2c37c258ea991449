/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_nn_activation_s16, int16 LOGISTIC / TANH for power-of-two input scales. */

#include "arm_nnfunctions.h"
#include "sigmoid_tanh_s16.h"

/*
 * For an input scale of 2^(left_shift - 12): the input is scaled by 3 * 2^left_shift, or for a
 * negative left_shift by 3 and then divided (rounding) by 2^-left_shift. That is arm_logistic_s16 /
 * arm_tanh_s16 with multiplier 0 and shift left_shift (left_shift >= 0), or multiplier 3 and shift
 * -left_shift, which is what is computed here.
 */
arm_cmsis_nn_status arm_nn_activation_s16(const int16_t *input,
                                          int16_t *output,
                                          const int32_t size,
                                          const int32_t left_shift,
                                          const arm_nn_activation_type type)
{
    const int32_t multiplier = left_shift < 0 ? 3 : 3 << left_shift;
    const int32_t right_shift = left_shift < 0 ? -left_shift : 0;
    helia_sigmoid_tanh_s16(input, output, size, multiplier, right_shift, type != ARM_SIGMOID);
    return ARM_CMSIS_NN_SUCCESS;
}
