/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_clamp_s16, RELU / RELU6 / RELU_N1_TO_1 when input and output share quantization. */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

arm_cmsis_nn_status
arm_clamp_s16(const int16_t *input, const int16_t act_min, const int16_t act_max, int16_t *output, const int32_t output_size)
{
    for (int32_t i = 0; i < output_size; ++i)
    {
        output[i] = (int16_t)helia_clamp(input[i], act_min, act_max);
    }
    return ARM_CMSIS_NN_SUCCESS;
}
