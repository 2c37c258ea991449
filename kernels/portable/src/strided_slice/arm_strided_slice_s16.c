/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_strided_slice_s16, STRIDED_SLICE of an int16 NHWC tensor. */

#include "arm_nnfunctions.h"

/* out[n, h, w, c] = in[begin.n + n*stride.n, begin.h + h*stride.h, begin.w + w*stride.w, begin.c + c*stride.c];
 * strides may be negative but not zero, and every input and output dimension must be at least 1. */
arm_cmsis_nn_status arm_strided_slice_s16(const int16_t *input_data,
                                          int16_t *output_data,
                                          const cmsis_nn_dims *const input_dims,
                                          const cmsis_nn_dims *const begin_dims,
                                          const cmsis_nn_dims *const stride_dims,
                                          const cmsis_nn_dims *const output_dims)
{
    if (input_data == NULL || output_data == NULL || input_dims == NULL || begin_dims == NULL || stride_dims == NULL ||
        output_dims == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    if (input_dims->n < 1 || input_dims->h < 1 || input_dims->w < 1 || input_dims->c < 1 || output_dims->n < 1 ||
        output_dims->h < 1 || output_dims->w < 1 || output_dims->c < 1 || stride_dims->n == 0 || stride_dims->h == 0 ||
        stride_dims->w == 0 || stride_dims->c == 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    int16_t *out = output_data;
    for (int32_t n = 0; n < output_dims->n; ++n)
    {
        const int32_t in_n = begin_dims->n + n * stride_dims->n;
        for (int32_t h = 0; h < output_dims->h; ++h)
        {
            const int32_t in_h = begin_dims->h + h * stride_dims->h;
            for (int32_t w = 0; w < output_dims->w; ++w)
            {
                const int32_t in_w = begin_dims->w + w * stride_dims->w;
                const size_t pixel = (((size_t)in_n * input_dims->h + in_h) * input_dims->w + in_w) * input_dims->c;
                for (int32_t c = 0; c < output_dims->c; ++c)
                {
                    *out++ = input_data[pixel + (size_t)(begin_dims->c + c * stride_dims->c)];
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
