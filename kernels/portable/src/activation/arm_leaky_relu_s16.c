/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_leaky_relu_s16, int16 LEAKY_RELU with separate scales for each side of zero. */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

/* x = in - input_offset (input_offset is the input zero point);
 * out = clamp(output_offset + requantize(x, x >= 0 ? identity scale : alpha scale), -32768, 32767). */
arm_cmsis_nn_status arm_leaky_relu_s16(const int16_t *input,
                                       const int32_t input_offset,
                                       const int32_t output_offset,
                                       const int32_t output_multiplier_alpha,
                                       const int32_t output_shift_alpha,
                                       const int32_t output_multiplier_identity,
                                       const int32_t output_shift_identity,
                                       int16_t *output,
                                       const int32_t output_size)
{
    for (int32_t i = 0; i < output_size; ++i)
    {
        const int32_t x = (int32_t)input[i] - input_offset;
        const int32_t scaled = x >= 0 ? helia_requantize(x, output_multiplier_identity, output_shift_identity)
                                      : helia_requantize(x, output_multiplier_alpha, output_shift_alpha);
        output[i] = (int16_t)helia_clamp(scaled + output_offset, INT16_MIN, INT16_MAX);
    }
    return ARM_CMSIS_NN_SUCCESS;
}
