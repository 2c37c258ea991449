/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_squared_difference_s8, int8 SQUARED_DIFFERENCE with NumPy broadcasting (NHWC). */

#include "../elementwise/minmax_broadcast.h"
#include "squared_difference_core.h"

/* Each output element (n, h, w, c) reads its operands at the inputs' broadcast strides. Shapes that do not
 * broadcast to output_dims: ARM_CMSIS_NN_ARG_ERROR. */
arm_cmsis_nn_status arm_squared_difference_s8(const int8_t *input1_data,
                                              const cmsis_nn_dims *input1_dims,
                                              const int8_t *input2_data,
                                              const cmsis_nn_dims *input2_dims,
                                              const int32_t input1_offset,
                                              const int32_t input1_mult,
                                              const int32_t input1_shift,
                                              const int32_t input2_offset,
                                              const int32_t input2_mult,
                                              const int32_t input2_shift,
                                              const int32_t left_shift,
                                              int8_t *output_data,
                                              const cmsis_nn_dims *output_dims,
                                              const int32_t out_offset,
                                              const int32_t out_mult,
                                              const int32_t out_shift,
                                              const int32_t out_activation_min,
                                              const int32_t out_activation_max)
{
    helia_minmax_plan plan;
    if (input1_data == NULL || input2_data == NULL || output_data == NULL ||
        helia_minmax_make_plan(input1_dims, input2_dims, output_dims, &plan) != ARM_CMSIS_NN_SUCCESS)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const helia_sqdiff_params p = {input1_offset, input1_mult, input1_shift, input2_offset, input2_mult,
                                   input2_shift,  left_shift,  out_offset,   out_mult,      out_shift,
                                   out_activation_min, out_activation_max};
    int8_t *out = output_data;
    for (int32_t n = 0; n < plan.shape[0]; ++n)
    {
        for (int32_t h = 0; h < plan.shape[1]; ++h)
        {
            for (int32_t w = 0; w < plan.shape[2]; ++w)
            {
                for (int32_t c = 0; c < plan.shape[3]; ++c)
                {
                    const size_t i1 = (size_t)n * plan.strides_1[0] + (size_t)h * plan.strides_1[1] +
                        (size_t)w * plan.strides_1[2] + (size_t)c * plan.strides_1[3];
                    const size_t i2 = (size_t)n * plan.strides_2[0] + (size_t)h * plan.strides_2[1] +
                        (size_t)w * plan.strides_2[2] + (size_t)c * plan.strides_2[3];
                    const int32_t a =
                        helia_sqdiff_scale_input(input1_data[i1], input1_offset, input1_mult, input1_shift, left_shift);
                    const int32_t b =
                        helia_sqdiff_scale_input(input2_data[i2], input2_offset, input2_mult, input2_shift, left_shift);
                    *out++ = helia_sqdiff_output_s8(a, b, &p);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
