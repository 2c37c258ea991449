/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private int8 / int16 MAXIMUM and MINIMUM with NumPy broadcasting. */

#include "minmax_broadcast.h"
#include "minmax_int.h"

/* Offset of output element (n, h, w, c) in an input read at `strides` (0 on broadcast axes). */
static size_t helia_minmax_offset(const size_t strides[4], int32_t n, int32_t h, int32_t w, int32_t c)
{
    return (size_t)n * strides[0] + (size_t)h * strides[1] + (size_t)w * strides[2] + (size_t)c * strides[3];
}

arm_cmsis_nn_status helia_minmax_s8(const int8_t *input_1_data,
                                    const cmsis_nn_dims *input_1_dims,
                                    const int8_t *input_2_data,
                                    const cmsis_nn_dims *input_2_dims,
                                    int8_t *output_data,
                                    const cmsis_nn_dims *output_dims,
                                    int take_max)
{
    helia_minmax_plan plan;
    if (input_1_data == NULL || input_2_data == NULL || output_data == NULL ||
        helia_minmax_make_plan(input_1_dims, input_2_dims, output_dims, &plan) != ARM_CMSIS_NN_SUCCESS)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    int8_t *out = output_data;
    for (int32_t n = 0; n < plan.shape[0]; ++n)
    {
        for (int32_t h = 0; h < plan.shape[1]; ++h)
        {
            for (int32_t w = 0; w < plan.shape[2]; ++w)
            {
                for (int32_t c = 0; c < plan.shape[3]; ++c)
                {
                    const int8_t a = input_1_data[helia_minmax_offset(plan.strides_1, n, h, w, c)];
                    const int8_t b = input_2_data[helia_minmax_offset(plan.strides_2, n, h, w, c)];
                    *out++ = take_max ? (a >= b ? a : b) : (a <= b ? a : b);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status helia_minmax_s16(const int16_t *input_1_data,
                                     const cmsis_nn_dims *input_1_dims,
                                     const int16_t *input_2_data,
                                     const cmsis_nn_dims *input_2_dims,
                                     int16_t *output_data,
                                     const cmsis_nn_dims *output_dims,
                                     int take_max)
{
    helia_minmax_plan plan;
    if (input_1_data == NULL || input_2_data == NULL || output_data == NULL ||
        helia_minmax_make_plan(input_1_dims, input_2_dims, output_dims, &plan) != ARM_CMSIS_NN_SUCCESS)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    int16_t *out = output_data;
    for (int32_t n = 0; n < plan.shape[0]; ++n)
    {
        for (int32_t h = 0; h < plan.shape[1]; ++h)
        {
            for (int32_t w = 0; w < plan.shape[2]; ++w)
            {
                for (int32_t c = 0; c < plan.shape[3]; ++c)
                {
                    const int16_t a = input_1_data[helia_minmax_offset(plan.strides_1, n, h, w, c)];
                    const int16_t b = input_2_data[helia_minmax_offset(plan.strides_2, n, h, w, c)];
                    *out++ = take_max ? (a >= b ? a : b) : (a <= b ? a : b);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
