/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_max_pool_f16, float16 MAX_POOL_2D (NHWC). */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F16

/* a > b ? a : b, through the bit patterns. */
static inline _Float16 helia_larger_f16(_Float16 a, _Float16 b)
{
    return helia_pick_f16(a > b, a, b);
}

/* The 1 x 2 / stride 2 and unclamped 1 x 3 / stride 3 row cases of arm_max_pool_f32, for float16. */
static int helia_pool_is_row(const cmsis_nn_pool_params_f16 *p,
                             const cmsis_nn_dims *in,
                             const cmsis_nn_dims *filter,
                             const cmsis_nn_dims *out,
                             int32_t width)
{
    return in->h == 1 && out->h == 1 && filter->h == 1 && p->stride.h == 1 && p->padding.h == 0 && filter->w == width &&
        p->stride.w == width && p->padding.w == 0 && (out->w - 1) * p->stride.w + width <= in->w;
}

/* Clamps let a NaN through, as ns-cmsis-nn's float16 clamp does. ctx is not read. */
arm_cmsis_nn_status arm_max_pool_f16(const cmsis_nn_context *ctx,
                                     const cmsis_nn_pool_params_f16 *pool_params,
                                     const cmsis_nn_dims *input_dims,
                                     const float16_t *src,
                                     const cmsis_nn_dims *filter_dims,
                                     const cmsis_nn_dims *output_dims,
                                     float16_t *dst)
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
    const _Float16 finite_max = (_Float16)ARM_NN_F16_FINITE_MAX;
    const _Float16 finite_lowest = -finite_max;
    const _Float16 act_min = (_Float16)pool_params->activation.min;
    const _Float16 act_max = (_Float16)pool_params->activation.max;
    const int unclamped = act_min <= finite_lowest && act_max >= finite_max;
    const int row_2 = helia_pool_is_row(pool_params, input_dims, filter_dims, output_dims, 2);
    const int row_3 = unclamped && helia_pool_is_row(pool_params, input_dims, filter_dims, output_dims, 3);

    for (int32_t n = 0; n < input_dims->n; ++n)
    {
        const float16_t *in = src + (size_t)n * in_h * in_w * channels;
        float16_t *out = dst + (size_t)n * output_dims->h * output_dims->w * channels;
        if (row_2 || row_3)
        {
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                const float16_t *x = in + (size_t)ox * (row_2 ? 2 : 3) * channels;
                for (int32_t c = 0; c < channels; ++c)
                {
                    _Float16 v = helia_larger_f16((_Float16)x[c], (_Float16)x[channels + c]);
                    if (row_3)
                    {
                        v = helia_larger_f16(v, (_Float16)x[2 * channels + c]);
                    }
                    else if (!unclamped)
                    {
                        v = helia_clamp_keep_nan_f16(v, act_min, act_max);
                    }
                    out[(size_t)ox * channels + c] = (float16_t)v;
                }
            }
            continue;
        }
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
                for (int32_t c = 0; c < channels; ++c)
                {
                    _Float16 largest = finite_lowest;
                    for (int32_t ky = ky_begin; ky < ky_end; ++ky)
                    {
                        for (int32_t kx = kx_begin; kx < kx_end; ++kx)
                        {
                            const size_t at = ((size_t)(top + ky) * in_w + (left + kx)) * channels + c;
                            largest = helia_larger_f16((_Float16)in[at], largest);
                        }
                    }
                    out[((size_t)oy * output_dims->w + ox) * channels + c] =
                        (float16_t)helia_clamp_keep_nan_f16(largest, act_min, act_max);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* ARM_NN_ENABLE_F16 */
