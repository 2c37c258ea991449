/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_dequantize_s16_f32, int16 -> float32 DEQUANTIZE. */

#include "arm_nnfunctions.h"

/* out = (float)(in - zero_point) * scale, one float multiplication (exact integer conversion). */
arm_cmsis_nn_status
arm_dequantize_s16_f32(const int16_t *input, float *output, int32_t size, int32_t zero_point, float scale)
{
    for (int32_t i = 0; i < size; ++i)
    {
        output[i] = (float)((int32_t)input[i] - zero_point) * scale;
    }
    return ARM_CMSIS_NN_SUCCESS;
}
