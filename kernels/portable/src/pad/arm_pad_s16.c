/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_pad_s16, PAD of an int16 NHWC tensor with a constant value. */

#include "arm_nnfunctions.h"

/* out has dims pre + in + post per axis; out[pre + i] = in[i], every other element is pad_value. */
arm_cmsis_nn_status arm_pad_s16(const int16_t *input,
                                int16_t *output,
                                const int16_t pad_value,
                                const cmsis_nn_dims *input_size,
                                const cmsis_nn_dims *pre_pad,
                                const cmsis_nn_dims *post_pad)
{
    const int32_t out_n = pre_pad->n + input_size->n + post_pad->n;
    const int32_t out_h = pre_pad->h + input_size->h + post_pad->h;
    const int32_t out_w = pre_pad->w + input_size->w + post_pad->w;
    const int32_t out_c = pre_pad->c + input_size->c + post_pad->c;
    const size_t out_count = (size_t)out_n * out_h * out_w * out_c;

    for (size_t i = 0; i < out_count; ++i)
    {
        output[i] = pad_value;
    }
    for (int32_t n = 0; n < input_size->n; ++n)
    {
        for (int32_t h = 0; h < input_size->h; ++h)
        {
            for (int32_t w = 0; w < input_size->w; ++w)
            {
                const size_t out_pixel =
                    (((size_t)(n + pre_pad->n) * out_h + (h + pre_pad->h)) * out_w + (w + pre_pad->w)) * out_c;
                const size_t in_pixel = (((size_t)n * input_size->h + h) * input_size->w + w) * input_size->c;
                memcpy(output + out_pixel + pre_pad->c, input + in_pixel, (size_t)input_size->c * sizeof(int16_t));
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
