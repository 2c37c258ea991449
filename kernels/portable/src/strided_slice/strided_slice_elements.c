/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private STRIDED_SLICE of NHWC tensors of any element size (the float kernels). */

#include "strided_slice_elements.h"

arm_cmsis_nn_status helia_strided_slice_elements(const void *input,
                                                 void *output,
                                                 size_t element_size,
                                                 const cmsis_nn_dims *input_dims,
                                                 const cmsis_nn_dims *begin_dims,
                                                 const cmsis_nn_dims *stride_dims,
                                                 const cmsis_nn_dims *output_dims)
{
    if (input == NULL || output == NULL || input_dims == NULL || begin_dims == NULL || stride_dims == NULL ||
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
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
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
                    const size_t from = pixel + (size_t)(begin_dims->c + c * stride_dims->c);
                    memcpy(out, in + from * element_size, element_size);
                    out += element_size;
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
