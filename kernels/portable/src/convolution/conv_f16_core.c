/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private float16 CONV_2D arithmetic, one function per summation order. */

/*
 * The float32 orders (conv_f32_core.c), with ns-cmsis-nn's float16 rounding:
 *  - 1x1, PATCH and DIRECT keep every partial sum in float16: each dot product step is
 *    dot = dot + x*w rounded to float16, and acc = acc + dot rounded to float16; the result is
 *    clamped with NaN going to the upper bound;
 *  - ROW_3 / ROW_5 sum in float32 and round once, then clamp letting a NaN through.
 */

#include "../support/flt_support.h"
#include "conv_f16_core.h"

#if ARM_NN_ENABLE_F16

typedef struct
{
    const helia_conv_flt_geometry *g;
    const cmsis_nn_dims *in;
    const cmsis_nn_dims *filter;
    int32_t out_c;
} helia_conv_f16_shape;

static _Float16 helia_patch_sum(const helia_conv_f16_shape *s,
                                const float16_t *input_b,
                                const float16_t *w,
                                _Float16 bias,
                                int32_t top,
                                int32_t left)
{
    const int32_t in_c = s->in->c;
    _Float16 dot = (_Float16)0.0f;
    for (int32_t ky = 0; ky < s->filter->h; ++ky)
    {
        const int32_t y = top + ky * s->g->dilation.h;
        for (int32_t kx = 0; kx < s->filter->w; ++kx)
        {
            const int32_t x = left + kx * s->g->dilation.w;
            const int inside = (uint32_t)y < (uint32_t)s->in->h && (uint32_t)x < (uint32_t)s->in->w;
            const float16_t *px = inside ? input_b + ((size_t)y * s->in->w + x) * in_c : NULL;
            for (int32_t c = 0; c < in_c; ++c)
            {
                const float16_t value = inside ? px[c] : (float16_t)0.0f;
                dot += (_Float16)value * (_Float16)*w++;
            }
        }
    }
    _Float16 acc = bias;
    acc += (_Float16)dot;
    return acc;
}

static _Float16 helia_direct_sum(const helia_conv_f16_shape *s,
                                 const float16_t *input_b,
                                 const float16_t *w,
                                 _Float16 bias,
                                 int32_t top,
                                 int32_t left)
{
    const int32_t in_c = s->in->c;
    _Float16 acc = bias;
    for (int32_t ky = 0; ky < s->filter->h; ++ky)
    {
        const int32_t y = top + ky * s->g->dilation.h;
        if (y < 0 || y >= s->in->h)
        {
            continue;
        }
        for (int32_t kx = 0; kx < s->filter->w; ++kx)
        {
            const int32_t x = left + kx * s->g->dilation.w;
            if (x < 0 || x >= s->in->w)
            {
                continue;
            }
            const float16_t *px = input_b + ((size_t)y * s->in->w + x) * in_c;
            const float16_t *wk = w + ((size_t)ky * s->filter->w + kx) * in_c;
            _Float16 dot = (_Float16)0.0f;
            for (int32_t c = 0; c < in_c; ++c)
            {
                dot += (_Float16)px[c] * (_Float16)wk[c];
            }
            acc += (_Float16)dot;
        }
    }
    return acc;
}

/* float32 sum rounded once to float16. */
static float16_t helia_row_sum(const helia_conv_f16_shape *s,
                               const float16_t *input_b,
                               const float16_t *w,
                               const float16_t *bias,
                               int32_t oc,
                               int32_t left)
{
    const int32_t in_c = s->in->c;
    const int32_t taps = s->filter->w;
    const float16_t *px = input_b + (size_t)left * in_c;
    float32_t acc = (bias != NULL) ? (float32_t)bias[oc] : 0.0f;
    for (int32_t c = 0; c < in_c; ++c)
    {
        for (int32_t k = 0; k < taps; ++k)
        {
            acc += (float32_t)px[(size_t)k * in_c + c] * (float32_t)w[(size_t)k * in_c + c];
        }
    }
    return (float16_t)acc;
}

void helia_conv_f16_run(helia_conv_flt_route route,
                        const helia_conv_flt_geometry *g,
                        const cmsis_nn_dims *input_dims,
                        const float16_t *input,
                        const cmsis_nn_dims *filter_dims,
                        const float16_t *filter,
                        const float16_t *bias,
                        const cmsis_nn_dims *output_dims,
                        float16_t *output,
                        const cmsis_nn_activation_f16 *activation)
{
    const helia_conv_f16_shape s = {g, input_dims, filter_dims, output_dims->c};
    const size_t filter_stride = (size_t)filter_dims->h * filter_dims->w * input_dims->c;
    const _Float16 act_min = (_Float16)activation->min;
    const _Float16 act_max = (_Float16)activation->max;
    for (int32_t n = 0; n < input_dims->n; ++n)
    {
        const float16_t *input_b = input + (size_t)n * input_dims->h * input_dims->w * input_dims->c;
        for (int32_t oy = 0; oy < output_dims->h; ++oy)
        {
            const int32_t top = oy * g->stride.h - g->padding.h;
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                const int32_t left = ox * g->stride.w - g->padding.w;
                float16_t *out_px = output + (((size_t)n * output_dims->h + oy) * output_dims->w + ox) * s.out_c;
                for (int32_t oc = 0; oc < s.out_c; ++oc)
                {
                    const float16_t *w = filter + (size_t)oc * filter_stride;
                    const _Float16 b = (bias != NULL) ? (_Float16)bias[oc] : (_Float16)0.0f;
                    switch (route)
                    {
                    case HELIA_CONV_FLT_ROW_3:
                    case HELIA_CONV_FLT_ROW_5: {
                        const float16_t sum = helia_row_sum(&s, input_b, w, bias, oc, left);
                        out_px[oc] = (float16_t)helia_clamp_keep_nan_f16((_Float16)sum, act_min, act_max);
                        break;
                    }
                    case HELIA_CONV_FLT_DIRECT:
                        out_px[oc] = (float16_t)helia_clamp_nan_high_f16(
                            helia_direct_sum(&s, input_b, w, b, top, left), act_min, act_max);
                        break;
                    case HELIA_CONV_FLT_1X1:
                    case HELIA_CONV_FLT_PATCH:
                    default:
                        out_px[oc] = (float16_t)helia_clamp_nan_high_f16(
                            helia_patch_sum(&s, input_b, w, b, top, left), act_min, act_max);
                        break;
                    }
                }
            }
        }
    }
}

#endif /* ARM_NN_ENABLE_F16 */
