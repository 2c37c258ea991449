/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_depthwise_conv_wrapper_f16 / _f16 / arm_depthwise_nhwc_conv_f16, float16 DEPTHWISE_CONV_2D. */

#include "../support/flt_support.h"
#include "depthwise_flt_rules.h"

#if ARM_NN_ENABLE_F16

/*
 * ns-cmsis-nn's plain-C float16 routes round differently, and are mirrored route by route (each sums
 * bias first, then the window in (ky, kx) order):
 *  - one-row 1x3 filters: float32 sum, rounded once, clamp letting a NaN through;
 *  - 2x5 filters over two rows: float32 sum, clamped in float32 (a NaN becomes the lower bound),
 *    rounded once;
 *  - 3x3 filters (ch_mult 1): acc = acc + x*w rounded to float16 per position inside the input,
 *    clamp letting a NaN through;
 *  - other ch_mult 1 / dilation 1 filters (given the scratch its get_buffer_size asks for): the
 *    same per-position rounding, positions outside the input added as 0 * w, NaN to the upper bound;
 *  - everything else: per-position rounding, inside positions only, NaN to the upper bound.
 * ctx is not read.
 */

typedef enum
{
    HELIA_DW_F16_ROW_3,
    HELIA_DW_F16_2X5,
    HELIA_DW_F16_3X3,
    HELIA_DW_F16_PACKED,
    HELIA_DW_F16_GENERIC,
} helia_dw_f16_route;

/* acc + (x * w), rounded to float16 once. */
static inline _Float16 helia_mac_f16(_Float16 acc, float16_t x, float16_t w)
{
    const _Float16 sum = acc + (_Float16)x * (_Float16)w;
    return sum;
}

static float16_t helia_dw_f16_output(helia_dw_f16_route route,
                                     const helia_dw_flt_geometry *g,
                                     const cmsis_nn_dims *in,
                                     const float16_t *input_b,
                                     const cmsis_nn_dims *filter_dims,
                                     const float16_t *kernel,
                                     const float16_t *bias,
                                     int32_t out_c,
                                     int32_t oc,
                                     int32_t top,
                                     int32_t left,
                                     const cmsis_nn_activation_f16 *activation)
{
    const int32_t ic = oc / g->ch_mult;
    const _Float16 act_min = (_Float16)activation->min;
    const _Float16 act_max = (_Float16)activation->max;
    if (route == HELIA_DW_F16_ROW_3 || route == HELIA_DW_F16_2X5)
    {
        float32_t acc = (bias != NULL) ? (float32_t)bias[oc] : 0.0f;
        if (route == HELIA_DW_F16_ROW_3)
        {
            for (int32_t kx = 0; kx < 3; ++kx)
            {
                acc += (float32_t)input_b[(size_t)(left + kx) * in->c + ic] * (float32_t)kernel[(size_t)kx * out_c + oc];
            }
            return (float16_t)helia_clamp_keep_nan_f16((_Float16)(float16_t)acc, act_min, act_max);
        }
        /* the two rows alternate: row 0 tap kx, then row 1 tap kx */
        for (int32_t kx = 0; kx < 5; ++kx)
        {
            acc += (float32_t)input_b[(size_t)(left + kx) * in->c + ic] * (float32_t)kernel[(size_t)kx * out_c + oc];
            acc += (float32_t)input_b[((size_t)in->w + left + kx) * in->c + ic] *
                (float32_t)kernel[(size_t)(5 + kx) * out_c + oc];
        }
        acc = (acc > (float32_t)activation->min) ? acc : (float32_t)activation->min;
        acc = (acc < (float32_t)activation->max) ? acc : (float32_t)activation->max;
        return (float16_t)acc;
    }

    _Float16 acc = (bias != NULL) ? (_Float16)bias[oc] : (_Float16)0.0f;
    for (int32_t ky = 0; ky < filter_dims->h; ++ky)
    {
        const int32_t y = top + ky * g->dilation.h;
        for (int32_t kx = 0; kx < filter_dims->w; ++kx)
        {
            const int32_t x = left + kx * g->dilation.w;
            const float16_t w = kernel[((size_t)ky * filter_dims->w + kx) * out_c + oc];
            if ((uint32_t)y < (uint32_t)in->h && (uint32_t)x < (uint32_t)in->w)
            {
                acc = helia_mac_f16(acc, input_b[((size_t)y * in->w + x) * in->c + ic], w);
            }
            else if (route == HELIA_DW_F16_PACKED)
            {
                acc = helia_mac_f16(acc, (float16_t)0.0f, w);
            }
        }
    }
    if (route == HELIA_DW_F16_3X3)
    {
        return (float16_t)helia_clamp_keep_nan_f16(acc, act_min, act_max);
    }
    return (float16_t)helia_clamp_nan_high_f16(acc, act_min, act_max);
}

arm_cmsis_nn_status arm_depthwise_nhwc_conv_f16(const cmsis_nn_context *ctx,
                                                const cmsis_nn_dw_conv_params_f16 *dw_conv_params,
                                                const cmsis_nn_dims *input_dims,
                                                const float16_t *input,
                                                const cmsis_nn_dims *filter_dims,
                                                const float16_t *kernel,
                                                const cmsis_nn_dims *bias_dims,
                                                const float16_t *bias,
                                                const cmsis_nn_dims *output_dims,
                                                float16_t *output)
{
    (void)ctx;
    (void)bias_dims;
    if (dw_conv_params == NULL || input_dims == NULL || filter_dims == NULL || output_dims == NULL || input == NULL ||
        kernel == NULL || output == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const helia_dw_flt_geometry g = {dw_conv_params->ch_mult, dw_conv_params->stride, dw_conv_params->padding,
                                     dw_conv_params->dilation};
    helia_dw_f16_route route = HELIA_DW_F16_GENERIC;
    if (helia_dw_flt_is_row_3(&g, input_dims, filter_dims, output_dims))
    {
        route = HELIA_DW_F16_ROW_3;
    }
    else if (helia_dw_flt_is_2x5(&g, input_dims, filter_dims, output_dims))
    {
        route = HELIA_DW_F16_2X5;
    }
    else if (helia_dw_flt_is_3x3(&g, input_dims, filter_dims, output_dims))
    {
        route = HELIA_DW_F16_3X3;
    }
    else if (helia_dw_flt_scratch(&g, input_dims, filter_dims, sizeof(float16_t)) > 0)
    {
        route = HELIA_DW_F16_PACKED;
    }
    else if (g.ch_mult == 1 && g.dilation.w == 1 && g.dilation.h == 1)
    {
        route = HELIA_DW_F16_3X3; /* ns-cmsis-nn's scratch-less ch_mult 1 loop rounds and clamps like its 3x3 one */
    }

    const int32_t in_h = input_dims->h;
    const int32_t in_w = input_dims->w;
    const int32_t in_c = input_dims->c;
    const int32_t out_c = in_c * g.ch_mult;
    for (int32_t n = 0; n < input_dims->n; ++n)
    {
        const float16_t *input_b = input + (size_t)n * in_h * in_w * in_c;
        float16_t *output_b = output + (size_t)n * output_dims->h * output_dims->w * out_c;
        for (int32_t oy = 0; oy < output_dims->h; ++oy)
        {
            const int32_t top = oy * g.stride.h - g.padding.h;
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                const int32_t left = ox * g.stride.w - g.padding.w;
                for (int32_t oc = 0; oc < out_c; ++oc)
                {
                    output_b[((size_t)oy * output_dims->w + ox) * out_c + oc] =
                        helia_dw_f16_output(route, &g, input_dims, input_b, filter_dims, kernel, bias, out_c, oc, top,
                                            left, &dw_conv_params->activation);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

/* The entry points that check the layout and call arm_depthwise_nhwc_conv_f16. */
typedef float16_t flt_t;
typedef cmsis_nn_dw_conv_params_f16 flt_dw_conv_params_t;
#define ARM_DEPTHWISE_NHWC_CONV_FLT arm_depthwise_nhwc_conv_f16
#define ARM_DEPTHWISE_CONV_FLT arm_depthwise_conv_f16
#define ARM_DEPTHWISE_CONV_WRAPPER_FLT arm_depthwise_conv_wrapper_f16
#include "arm_depthwise_conv_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */
