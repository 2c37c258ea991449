/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_avg_pool_f32, float32 AVERAGE_POOL_2D (NHWC). */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

/*
 * Each output is the mean of the window elements inside the input (padding is not counted, as in
 * TFLite): the sum in window order (rows, then columns) divided by that count, then clamped (a NaN
 * becomes the upper bound, as in ns-cmsis-nn). ctx is not read.
 */
arm_cmsis_nn_status arm_avg_pool_f32(const cmsis_nn_context *ctx,
                                     const cmsis_nn_pool_params_f32 *pool_params,
                                     const cmsis_nn_dims *input_dims,
                                     const float32_t *src,
                                     const cmsis_nn_dims *filter_dims,
                                     const cmsis_nn_dims *output_dims,
                                     float32_t *dst)
{
    (void)ctx;
    if (pool_params == NULL || input_dims == NULL || filter_dims == NULL || output_dims == NULL || src == NULL ||
        dst == NULL || input_dims->n < 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t in_h = input_dims->h;
    const int32_t in_w = input_dims->w;
    const int32_t channels = input_dims->c;
    const float32_t act_min = pool_params->activation.min;
    const float32_t act_max = pool_params->activation.max;

    for (int32_t n = 0; n < input_dims->n; ++n)
    {
        const float32_t *in = src + (size_t)n * in_h * in_w * channels;
        float32_t *out = dst + (size_t)n * output_dims->h * output_dims->w * channels;
        for (int32_t oy = 0; oy < output_dims->h; ++oy)
        {
            const int32_t top = oy * pool_params->stride.h - pool_params->padding.h;
            const int32_t ky_begin = (top < 0) ? -top : 0;
            const int32_t ky_end = (filter_dims->h < in_h - top) ? filter_dims->h : in_h - top;
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                const int32_t left = ox * pool_params->stride.w - pool_params->padding.w;
                const int32_t kx_begin = (left < 0) ? -left : 0;
                const int32_t kx_end = (filter_dims->w < in_w - left) ? filter_dims->w : in_w - left;
                const int32_t count = (ky_end - ky_begin) * (kx_end - kx_begin);
                for (int32_t c = 0; c < channels; ++c)
                {
                    float32_t sum = 0.0f;
                    for (int32_t ky = ky_begin; ky < ky_end; ++ky)
                    {
                        for (int32_t kx = kx_begin; kx < kx_end; ++kx)
                        {
                            sum += in[((size_t)(top + ky) * in_w + (left + kx)) * channels + c];
                        }
                    }
                    const float32_t mean = (count > 0) ? (sum / (float32_t)count) : 0.0f;
                    out[((size_t)oy * output_dims->w + ox) * channels + c] =
                        helia_clamp_nan_high_f32(mean, act_min, act_max);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* ARM_NN_ENABLE_F32 */
