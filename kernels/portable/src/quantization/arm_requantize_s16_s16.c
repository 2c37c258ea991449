/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_requantize_s16_s16, int16 -> int16 QUANTIZE (a change of scale and zero point). */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

/* out = clamp(output_zeropoint + requantize(in - input_zeropoint, multiplier, shift), -32768, 32767) */
arm_cmsis_nn_status arm_requantize_s16_s16(const int16_t *input,
                                           int16_t *output,
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
        output[i] = (int16_t)helia_clamp(rescaled + output_zeropoint, INT16_MIN, INT16_MAX);
    }
    return ARM_CMSIS_NN_SUCCESS;
}
