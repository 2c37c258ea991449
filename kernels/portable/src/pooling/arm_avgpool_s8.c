/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_avgpool_s8, AVERAGE_POOL_2D over the in-bounds part of each window. */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"
#include "pool_window.h"

/* sum / count rounded to nearest, ties away from zero (C division truncates towards zero). */
static int32_t rounded_average(int32_t sum, int32_t count)
{
    const int32_t half = count / 2;
    return sum > 0 ? (sum + half) / count : (sum - half) / count;
}

arm_cmsis_nn_status arm_avgpool_s8(const cmsis_nn_context *ctx,
                                   const cmsis_nn_pool_params *pool_params,
                                   const cmsis_nn_dims *input_dims,
                                   const int8_t *input_data,
                                   const cmsis_nn_dims *filter_dims,
                                   const cmsis_nn_dims *output_dims,
                                   int8_t *output_data)
{
    (void)ctx;
    const int32_t input_h = input_dims->h;
    const int32_t input_w = input_dims->w;
    const int32_t channels = input_dims->c;
    if (input_dims->n < 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    for (int32_t b = 0; b < input_dims->n; ++b)
    {
        const int8_t *image = input_data + (size_t)b * input_h * input_w * channels;
        int8_t *out_image = output_data + (size_t)b * output_dims->h * output_dims->w * channels;
        for (int32_t oy = 0; oy < output_dims->h; ++oy)
        {
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                const int32_t y0 = oy * pool_params->stride.h - pool_params->padding.h;
                const int32_t x0 = ox * pool_params->stride.w - pool_params->padding.w;
                int32_t y_begin, y_end, x_begin, x_end;
                helia_pool_window(y0, filter_dims->h, input_h, &y_begin, &y_end);
                helia_pool_window(x0, filter_dims->w, input_w, &x_begin, &x_end);
                for (int32_t c = 0; c < channels; ++c)
                {
                    int32_t sum = 0;
                    int32_t count = 0;
                    for (int32_t y = y_begin; y < y_end; ++y)
                    {
                        for (int32_t x = x_begin; x < x_end; ++x)
                        {
                            sum += image[((size_t)y * input_w + x) * channels + c];
                            ++count;
                        }
                    }
                    if (count == 0)
                    {
                        return ARM_CMSIS_NN_ARG_ERROR; /* a window entirely in the padding */
                    }
                    out_image[((size_t)oy * output_dims->w + ox) * channels + c] = (int8_t)helia_clamp(
                        rounded_average(sum, count), pool_params->activation.min, pool_params->activation.max);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
