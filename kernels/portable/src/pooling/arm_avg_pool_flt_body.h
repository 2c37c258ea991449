/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of arm_avg_pool_f16 and arm_avg_pool_f32 (arm_avg_pool_f16.c,
 * arm_avg_pool_f32.c), float AVERAGE_POOL_2D (NHWC).
 *
 * The file including this one defines `flt_t`, the element type, `flt_arith_t`, the type the clamp
 * is written in, `flt_pool_params_t`, its cmsis_nn_pool_params_*, flt_clamp_output(x, lo, hi), the
 * clamp of a flt_arith_t, and ARM_AVG_POOL_FLT, the function's name.
 */

#ifndef HELIA_PORTABLE_ARM_AVG_POOL_FLT_BODY_H
#define HELIA_PORTABLE_ARM_AVG_POOL_FLT_BODY_H

/*
 * Each output is the mean of the window elements inside the input (padding is not counted, as in
 * TFLite): the sum in window order (rows, then columns) and in float32, divided by that count and
 * rounded to flt_t, then clamped (flt_clamp_output). ctx is not read.
 */
arm_cmsis_nn_status ARM_AVG_POOL_FLT(const cmsis_nn_context *ctx,
                                     const flt_pool_params_t *pool_params,
                                     const cmsis_nn_dims *input_dims,
                                     const flt_t *src,
                                     const cmsis_nn_dims *filter_dims,
                                     const cmsis_nn_dims *output_dims,
                                     flt_t *dst)
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
    const flt_arith_t act_min = (flt_arith_t)pool_params->activation.min;
    const flt_arith_t act_max = (flt_arith_t)pool_params->activation.max;

    for (int32_t n = 0; n < input_dims->n; ++n)
    {
        const flt_t *in = src + (size_t)n * in_h * in_w * channels;
        flt_t *out = dst + (size_t)n * output_dims->h * output_dims->w * channels;
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
                            sum += (float32_t)in[((size_t)(top + ky) * in_w + (left + kx)) * channels + c];
                        }
                    }
                    const flt_t mean = (count > 0) ? (flt_t)(sum / (float32_t)count) : (flt_t)0.0f;
                    out[((size_t)oy * output_dims->w + ox) * channels + c] =
                        (flt_t)flt_clamp_output((flt_arith_t)mean, act_min, act_max);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* HELIA_PORTABLE_ARM_AVG_POOL_FLT_BODY_H */
