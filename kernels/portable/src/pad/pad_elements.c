/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private PAD of NHWC tensors of any element size (the float kernels). */

#include "pad_elements.h"

arm_cmsis_nn_status helia_pad_elements(const void *input,
                                       void *output,
                                       const void *pad_value,
                                       size_t element_size,
                                       const cmsis_nn_dims *input_size,
                                       const cmsis_nn_dims *pre_pad,
                                       const cmsis_nn_dims *post_pad)
{
    if (input == NULL || output == NULL || pad_value == NULL || input_size == NULL || pre_pad == NULL ||
        post_pad == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t out_n = pre_pad->n + input_size->n + post_pad->n;
    const int32_t out_h = pre_pad->h + input_size->h + post_pad->h;
    const int32_t out_w = pre_pad->w + input_size->w + post_pad->w;
    const int32_t out_c = pre_pad->c + input_size->c + post_pad->c;
    if (out_n <= 0 || out_h <= 0 || out_w <= 0 || out_c <= 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    const size_t total = (size_t)out_n * out_h * out_w * out_c;
    for (size_t i = 0; i < total; ++i)
    {
        memcpy(out + i * element_size, pad_value, element_size);
    }
    const size_t row_bytes = (size_t)input_size->c * element_size;
    for (int32_t n = 0; n < input_size->n; ++n)
    {
        for (int32_t h = 0; h < input_size->h; ++h)
        {
            for (int32_t w = 0; w < input_size->w; ++w)
            {
                const size_t to = (((size_t)(n + pre_pad->n) * out_h + (h + pre_pad->h)) * out_w + (w + pre_pad->w)) *
                        out_c + pre_pad->c;
                memcpy(out + to * element_size, in, row_bytes);
                in += row_bytes;
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
