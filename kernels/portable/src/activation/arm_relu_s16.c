/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_relu_generic_s16 and arm_relu_s16, int16 RELU-family activations with a change of quantization. */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

/* out = clamp(output_offset + requantize(in - input_offset), max(act_min, -32768), min(act_max, 32767));
 * input_offset is the input zero point, output_offset the output zero point. */
arm_cmsis_nn_status arm_relu_generic_s16(const int16_t *input,
                                         const int32_t input_offset,
                                         const int32_t output_offset,
                                         const int32_t output_multiplier,
                                         const int32_t output_shift,
                                         const int32_t act_min,
                                         const int32_t act_max,
                                         int16_t *output,
                                         const int32_t output_size)
{
    const int32_t lowest = act_min > INT16_MIN ? act_min : INT16_MIN;
    const int32_t highest = act_max < INT16_MAX ? act_max : INT16_MAX;
    for (int32_t i = 0; i < output_size; ++i)
    {
        const int32_t centred = (int32_t)input[i] - input_offset;
        const int32_t rescaled = helia_requantize(centred, output_multiplier, output_shift) + output_offset;
        /* the lower bound wins when the range is empty, as in ns-cmsis-nn */
        output[i] = (int16_t)helia_clamp(rescaled < highest ? rescaled : highest, lowest, INT16_MAX);
    }
    return ARM_CMSIS_NN_SUCCESS;
}

/* RELU: everything below the output zero point (real value 0) is cut off. */
arm_cmsis_nn_status arm_relu_s16(const int16_t *input,
                                 const int32_t input_offset,
                                 const int32_t output_offset,
                                 const int32_t output_multiplier,
                                 const int32_t output_shift,
                                 int16_t *output,
                                 const int32_t output_size)
{
    return arm_relu_generic_s16(input, input_offset, output_offset, output_multiplier, output_shift, output_offset,
                                INT16_MAX, output, output_size);
}
