/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_relu_s8, RELU with a change of quantization. */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

/* out = clamp(output_offset + requantize(in - input_offset), output_offset, 127): values below the
 * output zero point (real value 0) are cut off. input_offset is the input zero point. */
arm_cmsis_nn_status arm_relu_s8(const int8_t *input,
                                const int32_t input_offset,
                                const int32_t output_offset,
                                const int32_t output_multiplier,
                                const int32_t output_shift,
                                int8_t *output,
                                const int32_t output_size)
{
    const int32_t lowest = output_offset > INT8_MIN ? output_offset : INT8_MIN;
    for (int32_t i = 0; i < output_size; ++i)
    {
        const int32_t centred = (int32_t)input[i] - input_offset;
        const int32_t rescaled = helia_requantize(centred, output_multiplier, output_shift) + output_offset;
        output[i] = (int8_t)helia_clamp(rescaled, lowest, INT8_MAX);
    }
    return ARM_CMSIS_NN_SUCCESS;
}
