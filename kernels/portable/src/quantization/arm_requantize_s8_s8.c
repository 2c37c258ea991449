/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_requantize_s8_s8, int8 -> int8 QUANTIZE (a change of scale and zero point). */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

/* out = clamp(output_zeropoint + requantize(in - input_zeropoint, multiplier, shift), -128, 127) */
arm_cmsis_nn_status arm_requantize_s8_s8(const int8_t *input,
                                         int8_t *output,
                                         int32_t size,
                                         int32_t effective_scale_multiplier,
                                         int32_t effective_scale_shift,
                                         int32_t input_zeropoint,
                                         int32_t output_zeropoint)
{
    for (int32_t i = 0; i < size; ++i)
    {
        const int32_t centred = (int32_t)input[i] - input_zeropoint;
        const int32_t rescaled = helia_requantize(centred, effective_scale_multiplier, effective_scale_shift);
        output[i] = (int8_t)helia_clamp(rescaled + output_zeropoint, INT8_MIN, INT8_MAX);
    }
    return ARM_CMSIS_NN_SUCCESS;
}
