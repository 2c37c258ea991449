/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_relu_generic_s8, a clamp with a change of quantization
 * (RELU_N1_TO_1, RELU_0_TO_1: LiteRT's quantized ReluX). */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

/* out = clamp(output_offset + requantize(in - input_offset), max(act_min, -128), min(act_max, 127));
 * input_offset is the input zero point, output_offset the output zero point. */
arm_cmsis_nn_status arm_relu_generic_s8(const int8_t *input,
                                        const int32_t input_offset,
                                        const int32_t output_offset,
                                        const int32_t output_multiplier,
                                        const int32_t output_shift,
                                        const int32_t act_min,
                                        const int32_t act_max,
                                        int8_t *output,
                                        const int32_t output_size)
{
    const int32_t lowest = act_min > INT8_MIN ? act_min : INT8_MIN;
    const int32_t highest = act_max < INT8_MAX ? act_max : INT8_MAX;
    for (int32_t i = 0; i < output_size; ++i)
    {
        const int32_t centred = (int32_t)input[i] - input_offset;
        const int32_t rescaled = helia_requantize(centred, output_multiplier, output_shift) + output_offset;
        /* the lower bound wins when the range is empty, as in ns-cmsis-nn */
        output[i] = (int8_t)helia_clamp(rescaled < highest ? rescaled : highest, lowest, INT8_MAX);
    }
    return ARM_CMSIS_NN_SUCCESS;
}
