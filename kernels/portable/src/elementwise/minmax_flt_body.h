/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of arm_maximum_{f16,f32} and arm_minimum_{f16,f32}
 * (arm_maximum_f16.c, ...), float MAXIMUM / MINIMUM with NumPy broadcasting (NHWC).
 *
 * The file including this one defines `flt_t`, the element type, flt_select(a, b), the operand the
 * operation picks when ns-cmsis-nn compares a against b, and ARM_MINMAX_FLT, the function's name.
 */

#ifndef HELIA_PORTABLE_MINMAX_FLT_BODY_H
#define HELIA_PORTABLE_MINMAX_FLT_BODY_H

#include "minmax_broadcast.h"

/* Shapes broadcast as in NumPy (see README for the shapes ns-cmsis-nn gets wrong); ctx is not read. */
arm_cmsis_nn_status ARM_MINMAX_FLT(const cmsis_nn_context *ctx,
                                   const flt_t *input_1_data,
                                   const cmsis_nn_dims *input_1_dims,
                                   const flt_t *input_2_data,
                                   const cmsis_nn_dims *input_2_dims,
                                   flt_t *output_data,
                                   const cmsis_nn_dims *output_dims)
{
    (void)ctx;
    helia_minmax_plan plan;
    if (input_1_data == NULL || input_2_data == NULL || output_data == NULL ||
        helia_minmax_make_plan(input_1_dims, input_2_dims, output_dims, &plan) != ARM_CMSIS_NN_SUCCESS)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    flt_t *out = output_data;
    for (int32_t n = 0; n < plan.shape[0]; ++n)
    {
        for (int32_t h = 0; h < plan.shape[1]; ++h)
        {
            for (int32_t w = 0; w < plan.shape[2]; ++w)
            {
                for (int32_t c = 0; c < plan.shape[3]; ++c)
                {
                    const flt_t a = input_1_data[n * plan.strides_1[0] + h * plan.strides_1[1] +
                                                 w * plan.strides_1[2] + c * plan.strides_1[3]];
                    const flt_t b = input_2_data[n * plan.strides_2[0] + h * plan.strides_2[1] +
                                                 w * plan.strides_2[2] + c * plan.strides_2[3]];
                    *out++ = plan.second_first ? flt_select(b, a) : flt_select(a, b);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* HELIA_PORTABLE_MINMAX_FLT_BODY_H */
