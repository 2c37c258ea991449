/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_maximum_f16, float16 MAXIMUM with NumPy broadcasting (NHWC). */

#include "../support/flt_support.h"
#include "minmax_broadcast.h"

#if ARM_NN_ENABLE_F16

/* a >= b (compared in float32) picks a for the maximum and b for the minimum, else the other one;
 * the pick is made on the bit patterns. */
static inline float16_t helia_select_f16(float16_t a, float16_t b)
{
    const int a_ge_b = (float32_t)a >= (float32_t)b;
    return (float16_t)helia_pick_f16(a_ge_b == 1, (_Float16)a, (_Float16)b);
}

/* Shapes broadcast as in NumPy (see README for the shapes ns-cmsis-nn gets wrong); ctx is not read. */
arm_cmsis_nn_status arm_maximum_f16(const cmsis_nn_context *ctx,
                                    const float16_t *input_1_data,
                                    const cmsis_nn_dims *input_1_dims,
                                    const float16_t *input_2_data,
                                    const cmsis_nn_dims *input_2_dims,
                                    float16_t *output_data,
                                    const cmsis_nn_dims *output_dims)
{
    (void)ctx;
    helia_minmax_plan plan;
    if (input_1_data == NULL || input_2_data == NULL || output_data == NULL ||
        helia_minmax_make_plan(input_1_dims, input_2_dims, output_dims, &plan) != ARM_CMSIS_NN_SUCCESS)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    float16_t *out = output_data;
    for (int32_t n = 0; n < plan.shape[0]; ++n)
    {
        for (int32_t h = 0; h < plan.shape[1]; ++h)
        {
            for (int32_t w = 0; w < plan.shape[2]; ++w)
            {
                for (int32_t c = 0; c < plan.shape[3]; ++c)
                {
                    const float16_t a = input_1_data[n * plan.strides_1[0] + h * plan.strides_1[1] +
                                                    w * plan.strides_1[2] + c * plan.strides_1[3]];
                    const float16_t b = input_2_data[n * plan.strides_2[0] + h * plan.strides_2[1] +
                                                    w * plan.strides_2[2] + c * plan.strides_2[3]];
                    *out++ = plan.second_first ? helia_select_f16(b, a) : helia_select_f16(a, b);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* ARM_NN_ENABLE_F16 */
