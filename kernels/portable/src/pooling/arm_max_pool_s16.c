/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_max_pool_s16, int16 MAX_POOL_2D over the in-bounds part of each window. */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"
#include "pool_window.h"

arm_cmsis_nn_status arm_max_pool_s16(const cmsis_nn_context *ctx,
                                     const cmsis_nn_pool_params *pool_params,
                                     const cmsis_nn_dims *input_dims,
                                     const int16_t *input_data,
                                     const cmsis_nn_dims *filter_dims,
                                     const cmsis_nn_dims *output_dims,
                                     int16_t *output_data)
{
    (void)ctx;
    const int32_t input_h = input_dims->h;
    const int32_t input_w = input_dims->w;
    const int32_t channels = input_dims->c;
    /* ns-cmsis-nn narrows the activation range to int16 before clamping. */
    const int16_t act_min = (int16_t)pool_params->activation.min;
    const int16_t act_max = (int16_t)pool_params->activation.max;
    if (input_dims->n < 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    for (int32_t b = 0; b < input_dims->n; ++b)
    {
        const int16_t *image = input_data + (size_t)b * input_h * input_w * channels;
        int16_t *out_image = output_data + (size_t)b * output_dims->h * output_dims->w * channels;
        for (int32_t oy = 0; oy < output_dims->h; ++oy)
        {
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                const int32_t y0 = oy * pool_params->stride.h - pool_params->padding.h;
                const int32_t x0 = ox * pool_params->stride.w - pool_params->padding.w;
                int32_t y_begin, y_end, x_begin, x_end;
                helia_pool_window(y0, filter_dims->h, input_h, &y_begin, &y_end);
                helia_pool_window(x0, filter_dims->w, input_w, &x_begin, &x_end);
                int16_t *out = out_image + ((size_t)oy * output_dims->w + ox) * channels;
                for (int32_t c = 0; c < channels; ++c)
                {
                    int has_tap = 0;
                    int32_t max = INT16_MIN;
                    for (int32_t y = y_begin; y < y_end; ++y)
                    {
                        for (int32_t x = x_begin; x < x_end; ++x)
                        {
                            const int32_t v = image[((size_t)y * input_w + x) * channels + c];
                            max = (!has_tap || v > max) ? v : max;
                            has_tap = 1;
                        }
                    }
                    /* A window entirely in the padding leaves the output as it was (then clamped). */
                    const int32_t value = has_tap ? max : out[c];
                    out[c] = (int16_t)helia_clamp(value, act_min, act_max);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
