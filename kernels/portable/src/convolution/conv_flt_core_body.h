/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of helia_conv_f32_run and helia_conv_f16_run (conv_f32_core.c,
 * conv_f16_core.c), float CONV_2D arithmetic, one function per summation order.
 *
 * Float sums depend on their order, and ns-cmsis-nn's plain-C build sums differently by route:
 *  - 1x1 and PATCH: acc = bias + (x0*w0 + x1*w1 + ...), the dot product over the window in
 *    (ky, kx, channel) order starting from 0, positions outside the input read as 0;
 *  - DIRECT: acc = bias, then acc += (dot product over the channels) for each window position
 *    inside the input, in (ky, kx) order;
 *  - ROW_3 / ROW_5: acc = bias, then for each channel acc += x*w for each tap in turn, in float32.
 * 1x1, PATCH and DIRECT results are clamped with NaN going to the upper bound (ns-cmsis-nn's CLAMP);
 * ROW_3 / ROW_5 results with flt_clamp_row.
 *
 * The file including this one defines:
 *   flt_t                          the element type
 *   flt_sum_t                      what the 1x1 / PATCH / DIRECT partial sums are rounded to
 *   flt_activation_t               its cmsis_nn_activation_*
 *   flt_clamp_nan_high(x, lo, hi)  ns-cmsis-nn's CLAMP of a flt_sum_t
 *   flt_clamp_row(x, lo, hi)       the clamp of a ROW_3 / ROW_5 result (as a flt_sum_t)
 *   HELIA_CONV_FLT_RUN             the function's name
 */

#ifndef HELIA_PORTABLE_CONV_FLT_CORE_BODY_H
#define HELIA_PORTABLE_CONV_FLT_CORE_BODY_H

typedef struct
{
    const helia_conv_flt_geometry *g;
    const cmsis_nn_dims *in;
    const cmsis_nn_dims *filter;
    int32_t out_c;
} helia_conv_flt_shape;

/* bias + the dot product of one filter with the window at (top, left). */
static flt_sum_t helia_patch_sum(const helia_conv_flt_shape *s,
                                 const flt_t *input_b,
                                 const flt_t *w,
                                 flt_sum_t bias,
                                 int32_t top,
                                 int32_t left)
{
    const int32_t in_c = s->in->c;
    flt_sum_t dot = (flt_sum_t)0.0f;
    for (int32_t ky = 0; ky < s->filter->h; ++ky)
    {
        const int32_t y = top + ky * s->g->dilation.h;
        for (int32_t kx = 0; kx < s->filter->w; ++kx)
        {
            const int32_t x = left + kx * s->g->dilation.w;
            const int inside = (uint32_t)y < (uint32_t)s->in->h && (uint32_t)x < (uint32_t)s->in->w;
            const flt_t *px = inside ? input_b + ((size_t)y * s->in->w + x) * in_c : NULL;
            for (int32_t c = 0; c < in_c; ++c)
            {
                /* padding is multiplied too (0 * w), as the packed window holds zeros there */
                const flt_t value = inside ? px[c] : (flt_t)0.0f;
                dot += (flt_sum_t)value * (flt_sum_t)*w++;
            }
        }
    }
    flt_sum_t acc = bias;
    acc += (flt_sum_t)dot;
    return acc;
}

/* bias, plus one channel dot product per window position inside the input. */
static flt_sum_t helia_direct_sum(const helia_conv_flt_shape *s,
                                  const flt_t *input_b,
                                  const flt_t *w,
                                  flt_sum_t bias,
                                  int32_t top,
                                  int32_t left)
{
    const int32_t in_c = s->in->c;
    flt_sum_t acc = bias;
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
            const flt_t *px = input_b + ((size_t)y * s->in->w + x) * in_c;
            const flt_t *wk = w + ((size_t)ky * s->filter->w + kx) * in_c;
            flt_sum_t dot = (flt_sum_t)0.0f;
            for (int32_t c = 0; c < in_c; ++c)
            {
                dot += (flt_sum_t)px[c] * (flt_sum_t)wk[c];
            }
            acc += (flt_sum_t)dot;
        }
    }
    return acc;
}

/* One-row input, 1 x taps filter, stride 1, no padding: per channel, every tap in turn, in float32,
 * rounded once to flt_t. */
static flt_t helia_row_sum(const helia_conv_flt_shape *s,
                               const flt_t *input_b,
                               const flt_t *w,
                               const flt_t *bias,
                               int32_t oc,
                               int32_t left)
{
    const int32_t in_c = s->in->c;
    const int32_t taps = s->filter->w;
    const flt_t *px = input_b + (size_t)left * in_c;
    float32_t acc = (bias != NULL) ? (float32_t)bias[oc] : 0.0f;
    for (int32_t c = 0; c < in_c; ++c)
    {
        for (int32_t k = 0; k < taps; ++k)
        {
            acc += (float32_t)px[(size_t)k * in_c + c] * (float32_t)w[(size_t)k * in_c + c];
        }
    }
    return (flt_t)acc;
}

void HELIA_CONV_FLT_RUN(helia_conv_flt_route route,
                        const helia_conv_flt_geometry *g,
                        const cmsis_nn_dims *input_dims,
                        const flt_t *input,
                        const cmsis_nn_dims *filter_dims,
                        const flt_t *filter,
                        const flt_t *bias,
                        const cmsis_nn_dims *output_dims,
                        flt_t *output,
                        const flt_activation_t *activation)
{
    const helia_conv_flt_shape s = {g, input_dims, filter_dims, output_dims->c};
    const size_t filter_stride = (size_t)filter_dims->h * filter_dims->w * input_dims->c;
    const flt_sum_t act_min = (flt_sum_t)activation->min;
    const flt_sum_t act_max = (flt_sum_t)activation->max;
    for (int32_t n = 0; n < input_dims->n; ++n)
    {
        const flt_t *input_b = input + (size_t)n * input_dims->h * input_dims->w * input_dims->c;
        for (int32_t oy = 0; oy < output_dims->h; ++oy)
        {
            const int32_t top = oy * g->stride.h - g->padding.h;
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                const int32_t left = ox * g->stride.w - g->padding.w;
                flt_t *out_px = output + (((size_t)n * output_dims->h + oy) * output_dims->w + ox) * s.out_c;
                for (int32_t oc = 0; oc < s.out_c; ++oc)
                {
                    const flt_t *w = filter + (size_t)oc * filter_stride;
                    const flt_sum_t b = (bias != NULL) ? (flt_sum_t)bias[oc] : (flt_sum_t)0.0f;
                    switch (route)
                    {
                    case HELIA_CONV_FLT_ROW_3:
                    case HELIA_CONV_FLT_ROW_5:
                        out_px[oc] = (flt_t)flt_clamp_row((flt_sum_t)helia_row_sum(&s, input_b, w, bias, oc, left),
                                                          act_min, act_max);
                        break;
                    case HELIA_CONV_FLT_DIRECT:
                        out_px[oc] = (flt_t)flt_clamp_nan_high(helia_direct_sum(&s, input_b, w, b, top, left),
                                                               act_min, act_max);
                        break;
                    case HELIA_CONV_FLT_1X1:
                    case HELIA_CONV_FLT_PATCH:
                    default:
                        out_px[oc] = (flt_t)flt_clamp_nan_high(helia_patch_sum(&s, input_b, w, b, top, left),
                                                               act_min, act_max);
                        break;
                    }
                }
            }
        }
    }
}

#endif /* HELIA_PORTABLE_CONV_FLT_CORE_BODY_H */
