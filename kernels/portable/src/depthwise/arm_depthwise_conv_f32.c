/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_depthwise_conv_wrapper_f32 / _f32 / arm_depthwise_nhwc_conv_f32, float32 DEPTHWISE_CONV_2D. */

#include "../support/flt_support.h"
#include "depthwise_flt_rules.h"

#if ARM_NN_ENABLE_F32

/*
 * Every route of ns-cmsis-nn's plain-C build sums the same way: acc = bias (or 0), then
 * acc += input * filter for each window position in (ky, kx) order, then clamps with NaN going to
 * the upper bound. The one difference is whether positions outside the input are skipped or added
 * as 0 * filter: its ch_mult 1 / dilation 1 route (when given the scratch its get_buffer_size asks
 * for, not for 1x3 rows or 3x3 filters) packs them as zeros, which only matters for non-finite
 * filter values, and is mirrored. ctx is not read.
 */

static void helia_depthwise_f32(const helia_dw_flt_geometry *g,
                                const cmsis_nn_dims *input_dims,
                                const float32_t *input,
                                const cmsis_nn_dims *filter_dims,
                                const float32_t *kernel,
                                const float32_t *bias,
                                const cmsis_nn_dims *output_dims,
                                float32_t *output,
                                const cmsis_nn_activation_f32 *activation,
                                int add_padding)
{
    const int32_t in_h = input_dims->h;
    const int32_t in_w = input_dims->w;
    const int32_t in_c = input_dims->c;
    const int32_t out_c = in_c * g->ch_mult;
    for (int32_t n = 0; n < input_dims->n; ++n)
    {
        const float32_t *input_b = input + (size_t)n * in_h * in_w * in_c;
        float32_t *output_b = output + (size_t)n * output_dims->h * output_dims->w * out_c;
        for (int32_t oy = 0; oy < output_dims->h; ++oy)
        {
            const int32_t top = oy * g->stride.h - g->padding.h;
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                const int32_t left = ox * g->stride.w - g->padding.w;
                for (int32_t oc = 0; oc < out_c; ++oc)
                {
                    const int32_t ic = oc / g->ch_mult;
                    float32_t acc = (bias != NULL) ? bias[oc] : 0.0f;
                    for (int32_t ky = 0; ky < filter_dims->h; ++ky)
                    {
                        const int32_t y = top + ky * g->dilation.h;
                        for (int32_t kx = 0; kx < filter_dims->w; ++kx)
                        {
                            const int32_t x = left + kx * g->dilation.w;
                            const float32_t w = kernel[((size_t)ky * filter_dims->w + kx) * out_c + oc];
                            if ((uint32_t)y < (uint32_t)in_h && (uint32_t)x < (uint32_t)in_w)
                            {
                                acc += input_b[((size_t)y * in_w + x) * in_c + ic] * w;
                            }
                            else if (add_padding)
                            {
                                acc += 0.0f * w;
                            }
                        }
                    }
                    output_b[((size_t)oy * output_dims->w + ox) * out_c + oc] =
                        helia_clamp_nan_high_f32(acc, activation->min, activation->max);
                }
            }
        }
    }
}

arm_cmsis_nn_status arm_depthwise_nhwc_conv_f32(const cmsis_nn_context *ctx,
                                                const cmsis_nn_dw_conv_params_f32 *dw_conv_params,
                                                const cmsis_nn_dims *input_dims,
                                                const float32_t *input,
                                                const cmsis_nn_dims *filter_dims,
                                                const float32_t *kernel,
                                                const cmsis_nn_dims *bias_dims,
                                                const float32_t *bias,
                                                const cmsis_nn_dims *output_dims,
                                                float32_t *output)
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
    const int add_padding = !helia_dw_flt_is_row_3(&g, input_dims, filter_dims, output_dims) &&
        !helia_dw_flt_is_3x3(&g, input_dims, filter_dims, output_dims) &&
        helia_dw_flt_scratch(&g, input_dims, filter_dims, sizeof(float32_t)) > 0;
    helia_depthwise_f32(&g, input_dims, input, filter_dims, kernel, bias, output_dims, output,
                        &dw_conv_params->activation, add_padding);
    return ARM_CMSIS_NN_SUCCESS;
}

/* The entry points that check the layout and call arm_depthwise_nhwc_conv_f32. */
typedef float32_t flt_t;
typedef cmsis_nn_dw_conv_params_f32 flt_dw_conv_params_t;
#define ARM_DEPTHWISE_NHWC_CONV_FLT arm_depthwise_nhwc_conv_f32
#define ARM_DEPTHWISE_CONV_FLT arm_depthwise_conv_f32
#define ARM_DEPTHWISE_CONV_WRAPPER_FLT arm_depthwise_conv_wrapper_f32
#include "arm_depthwise_conv_flt_body.h"

#endif /* ARM_NN_ENABLE_F32 */
