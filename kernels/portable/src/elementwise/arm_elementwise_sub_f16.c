/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_elementwise_sub_f16, float16 SUB of two equally shaped tensors. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F16

/* output[i] = clamp(a - b), the result rounded to float16 once; a NaN passes the clamp. No broadcasting. */
arm_cmsis_nn_status arm_elementwise_sub_f16(const float16_t *input_1_vect,
                                            const float16_t *input_2_vect,
                                            float16_t *output,
                                            float16_t out_activation_min,
                                            float16_t out_activation_max,
                                            int32_t block_size)
{
    if (input_1_vect == NULL || input_2_vect == NULL || output == NULL || block_size < 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    for (int32_t i = 0; i < block_size; ++i)
    {
        const _Float16 value = (_Float16)input_1_vect[i] - (_Float16)input_2_vect[i];
        output[i] = (float16_t)helia_clamp_keep_nan_f16(value, (_Float16)out_activation_min,
                                                        (_Float16)out_activation_max);
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* ARM_NN_ENABLE_F16 */
