/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_logistic_s16, int16 LOGISTIC as TFLite's int16 reference kernel computes it. */

#include "arm_nnfunctions.h"
#include "sigmoid_tanh_s16.h"

/*
 * input_multiplier / input_left_shift are TFLite's: the input is scaled by input_multiplier and then
 * divided (rounding) by 2^input_left_shift. A zero multiplier means a power-of-two input scale: the
 * scaling is then 3 * 2^input_left_shift.
 */
arm_cmsis_nn_status arm_logistic_s16(const int16_t *input,
                                     int16_t *output,
                                     const int32_t input_size,
                                     int32_t input_multiplier,
                                     int32_t input_left_shift)
{
    if (input_multiplier == 0)
    {
        input_multiplier = 3 << input_left_shift;
        input_left_shift = 0;
    }
    helia_sigmoid_tanh_s16(input, output, input_size, input_multiplier, input_left_shift, 0);
    return ARM_CMSIS_NN_SUCCESS;
}
