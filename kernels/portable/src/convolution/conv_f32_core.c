/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private float32 CONV_2D arithmetic, one function per summation order. */

/*
 * Float sums depend on their order, and ns-cmsis-nn's plain-C build sums differently by route:
 *  - 1x1 and PATCH: acc = bias + (x0*w0 + x1*w1 + ...), the dot product over the window in
 *    (ky, kx, channel) order starting from 0, positions outside the input read as 0;
 *  - DIRECT: acc = bias, then acc += (dot product over the channels) for each window position
 *    inside the input, in (ky, kx) order;
 *  - ROW_3 / ROW_5: acc = bias, then for each channel acc += x*w for each tap in turn.
 * The result is clamped with NaN going to the upper bound (ns-cmsis-nn's CLAMP).
 */

#include "../support/flt_support.h"
#include "conv_f32_core.h"

#if ARM_NN_ENABLE_F32

typedef struct
{
    const helia_conv_flt_geometry *g;
    const cmsis_nn_dims *in;
    const cmsis_nn_dims *filter;
    int32_t out_c;
} helia_conv_f32_shape;

/* bias + the dot product of one filter with the window at (top, left). */
static float32_t helia_patch_sum(const helia_conv_f32_shape *s,
                                 const float32_t *input_b,
                                 const float32_t *w,
                                 float32_t bias,
                                 int32_t top,
                                 int32_t left)
{
    const int32_t in_c = s->in->c;
    float32_t dot = 0.0f;
    for (int32_t ky = 0; ky < s->filter->h; ++ky)
    {
        const int32_t y = top + ky * s->g->dilation.h;
        for (int32_t kx = 0; kx < s->filter->w; ++kx)
        {
            const int32_t x = left + kx * s->g->dilation.w;
            const int inside = (uint32_t)y < (uint32_t)s->in->h && (uint32_t)x < (uint32_t)s->in->w;
            const float32_t *px = inside ? input_b + ((size_t)y * s->in->w + x) * in_c : NULL;
            for (int32_t c = 0; c < in_c; ++c)
            {
                /* padding is multiplied too (0 * w), as the packed window holds zeros there */
                const float32_t value = inside ? px[c] : 0.0f;
                dot += value * *w++;
            }
        }
    }
    float32_t acc = bias;
    acc += dot;
    return acc;
}

/* bias, plus one channel dot product per window position inside the input. */
static float32_t helia_direct_sum(const helia_conv_f32_shape *s,
                                  const float32_t *input_b,
                                  const float32_t *w,
                                  float32_t bias,
                                  int32_t top,
                                  int32_t left)
{
    const int32_t in_c = s->in->c;
    float32_t acc = bias;
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
            const float32_t *px = input_b + ((size_t)y * s->in->w + x) * in_c;
            const float32_t *wk = w + ((size_t)ky * s->filter->w + kx) * in_c;
            float32_t dot = 0.0f;
            for (int32_t c = 0; c < in_c; ++c)
            {
                dot += px[c] * wk[c];
            }
            acc += dot;
        }
    }
    return acc;
}

/* One-row input, 1 x taps filter, stride 1, no padding: per channel, every tap in turn. */
static float32_t helia_row_sum(const helia_conv_f32_shape *s,
                               const float32_t *input_b,
                               const float32_t *w,
                               float32_t bias,
                               int32_t left)
{
    const int32_t in_c = s->in->c;
    const int32_t taps = s->filter->w;
    const float32_t *px = input_b + (size_t)left * in_c;
    float32_t acc = bias;
    for (int32_t c = 0; c < in_c; ++c)
    {
        for (int32_t k = 0; k < taps; ++k)
        {
            acc += px[(size_t)k * in_c + c] * w[(size_t)k * in_c + c];
        }
    }
    return acc;
}

void helia_conv_f32_run(helia_conv_flt_route route,
                        const helia_conv_flt_geometry *g,
                        const cmsis_nn_dims *input_dims,
                        const float32_t *input,
                        const cmsis_nn_dims *filter_dims,
                        const float32_t *filter,
                        const float32_t *bias,
                        const cmsis_nn_dims *output_dims,
                        float32_t *output,
                        const cmsis_nn_activation_f32 *activation)
{
    const helia_conv_f32_shape s = {g, input_dims, filter_dims, output_dims->c};
    const size_t filter_stride = (size_t)filter_dims->h * filter_dims->w * input_dims->c;
    for (int32_t n = 0; n < input_dims->n; ++n)
    {
        const float32_t *input_b = input + (size_t)n * input_dims->h * input_dims->w * input_dims->c;
        for (int32_t oy = 0; oy < output_dims->h; ++oy)
        {
            const int32_t top = oy * g->stride.h - g->padding.h;
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                const int32_t left = ox * g->stride.w - g->padding.w;
                float32_t *out_px = output + (((size_t)n * output_dims->h + oy) * output_dims->w + ox) * s.out_c;
                for (int32_t oc = 0; oc < s.out_c; ++oc)
                {
                    const float32_t *w = filter + (size_t)oc * filter_stride;
                    const float32_t b = (bias != NULL) ? bias[oc] : 0.0f;
                    float32_t acc;
                    switch (route)
                    {
                    case HELIA_CONV_FLT_DIRECT:
                        acc = helia_direct_sum(&s, input_b, w, b, top, left);
                        break;
                    case HELIA_CONV_FLT_ROW_3:
                    case HELIA_CONV_FLT_ROW_5:
                        acc = helia_row_sum(&s, input_b, w, b, left);
                        break;
                    case HELIA_CONV_FLT_1X1:
                    case HELIA_CONV_FLT_PATCH:
                    default:
                        acc = helia_patch_sum(&s, input_b, w, b, top, left);
                        break;
                    }
                    out_px[oc] = helia_clamp_nan_high_f32(acc, activation->min, activation->max);
                }
            }
        }
    }
}

#endif /* ARM_NN_ENABLE_F32 */
