/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_abs_s8, int8 ABS, optionally requantized to the output scale. */

#include "arm_nnfunctions.h"
#include "../support/fixed_point.h"

/*
 * out = clamp(|in - input_offset| (times out_mult * 2^out_shift when needs_rescale) + out_offset), as
 * TFLite's quantized ABS. input_offset is the input zero point itself (subtracted, not added).
 */
arm_cmsis_nn_status arm_abs_s8(const int8_t *input,
                               const int32_t input_offset,
                               int8_t *output,
                               const int32_t out_offset,
                               const int32_t out_mult,
                               const int32_t out_shift,
                               const bool needs_rescale,
                               const int32_t out_activation_min,
                               const int32_t out_activation_max,
                               const int32_t block_size)
{
    for (int32_t i = 0; i < block_size; ++i)
    {
        const int32_t centred = (int32_t)input[i] - input_offset;
        int32_t value = centred < 0 ? -centred : centred;
        if (needs_rescale)
        {
            value = helia_requantize(value, out_mult, out_shift);
        }
        output[i] = (int8_t)helia_clamp(value + out_offset, out_activation_min, out_activation_max);
    }
    return ARM_CMSIS_NN_SUCCESS;
}
