/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of arm_max_pool_f16 and arm_max_pool_f32 (arm_max_pool_f16.c,
 * arm_max_pool_f32.c), float MAX_POOL_2D (NHWC).
 *
 * The file including this one defines `flt_t`, the element type, `flt_arith_t`, the type comparisons
 * and clamps are written in, `flt_pool_params_t`, its cmsis_nn_pool_params_*, FLT_FINITE_MAX, the
 * largest finite flt_t, flt_larger(a, b), a > b ? a : b as ns-cmsis-nn picks it, flt_clamp_output(x, lo,
 * hi), the clamp of a flt_arith_t, and ARM_MAX_POOL_FLT, the function's name.
 */

#ifndef HELIA_PORTABLE_ARM_MAX_POOL_FLT_BODY_H
#define HELIA_PORTABLE_ARM_MAX_POOL_FLT_BODY_H

/*
 * ns-cmsis-nn has row kernels for 1 x 2 windows with stride 2 and for unclamped 1 x 3 windows with
 * stride 3 (one-row input, no padding, every window inside the input); they only differ from the
 * general loop in how a NaN input propagates, and are mirrored for that. ctx is not read.
 */
static int helia_pool_is_row(const flt_pool_params_t *p,
                             const cmsis_nn_dims *in,
                             const cmsis_nn_dims *filter,
                             const cmsis_nn_dims *out,
                             int32_t width)
{
    return in->h == 1 && out->h == 1 && filter->h == 1 && p->stride.h == 1 && p->padding.h == 0 && filter->w == width &&
        p->stride.w == width && p->padding.w == 0 && (out->w - 1) * p->stride.w + width <= in->w;
}

arm_cmsis_nn_status ARM_MAX_POOL_FLT(const cmsis_nn_context *ctx,
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
    const flt_arith_t finite_max = (flt_arith_t)FLT_FINITE_MAX;
    const flt_arith_t finite_lowest = -finite_max;
    const flt_arith_t act_min = (flt_arith_t)pool_params->activation.min;
    const flt_arith_t act_max = (flt_arith_t)pool_params->activation.max;
    const int unclamped = act_min <= finite_lowest && act_max >= finite_max;
    const int row_2 = helia_pool_is_row(pool_params, input_dims, filter_dims, output_dims, 2);
    const int row_3 = unclamped && helia_pool_is_row(pool_params, input_dims, filter_dims, output_dims, 3);

    for (int32_t n = 0; n < input_dims->n; ++n)
    {
        const flt_t *in = src + (size_t)n * in_h * in_w * channels;
        flt_t *out = dst + (size_t)n * output_dims->h * output_dims->w * channels;
        if (row_2 || row_3)
        {
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                const flt_t *x = in + (size_t)ox * (row_2 ? 2 : 3) * channels;
                for (int32_t c = 0; c < channels; ++c)
                {
                    flt_arith_t v = flt_larger((flt_arith_t)x[c], (flt_arith_t)x[channels + c]);
                    if (row_3)
                    {
                        v = flt_larger(v, (flt_arith_t)x[2 * channels + c]);
                    }
                    else if (!unclamped)
                    {
                        v = flt_clamp_output(v, act_min, act_max);
                    }
                    out[(size_t)ox * channels + c] = (flt_t)v;
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
                    /* starts at the lowest finite float; NaN inputs are skipped */
                    flt_arith_t largest = finite_lowest;
                    for (int32_t ky = ky_begin; ky < ky_end; ++ky)
                    {
                        for (int32_t kx = kx_begin; kx < kx_end; ++kx)
                        {
                            const size_t at = ((size_t)(top + ky) * in_w + (left + kx)) * channels + c;
                            largest = flt_larger((flt_arith_t)in[at], largest);
                        }
                    }
                    out[((size_t)oy * output_dims->w + ox) * channels + c] =
                        (flt_t)flt_clamp_output(largest, act_min, act_max);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* HELIA_PORTABLE_ARM_MAX_POOL_FLT_BODY_H */
