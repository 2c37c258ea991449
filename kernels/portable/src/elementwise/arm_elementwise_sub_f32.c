/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_elementwise_sub_f32, float32 SUB of two equally shaped tensors. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

/* output[i] = clamp(a - b); a NaN result passes the clamp (TFLite's behaviour). No broadcasting. */
arm_cmsis_nn_status arm_elementwise_sub_f32(const float32_t *input_1_vect,
                                            const float32_t *input_2_vect,
                                            float32_t *output,
                                            float32_t out_activation_min,
                                            float32_t out_activation_max,
                                            int32_t block_size)
{
    if (input_1_vect == NULL || input_2_vect == NULL || output == NULL || block_size < 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    for (int32_t i = 0; i < block_size; ++i)
    {
        const float32_t value = input_1_vect[i] - input_2_vect[i];
        output[i] = helia_clamp_keep_nan_f32(value, out_activation_min, out_activation_max);
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* ARM_NN_ENABLE_F32 */
