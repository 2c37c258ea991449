/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_depthwise_conv_s16, the general int16-activation DEPTHWISE_CONV_2D kernel. */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

/*
 * For output channel oc = ic * ch_mult + m (ic an input channel):
 * out[b, oy, ox, oc] = clamp(requantize_s64(bias[oc] + sum over in-bounds taps (ky, kx) of
 *     in[b, oy*sy - py + ky*dy, ox*sx - px + kx*dx, ic] * filter[ky, kx, oc]))
 * with an exact 64-bit sum and the multiplier rounded to Q15. There are no offsets.
 */
arm_cmsis_nn_status arm_depthwise_conv_s16(const cmsis_nn_context *ctx,
                                           const cmsis_nn_dw_conv_params *dw_conv_params,
                                           const cmsis_nn_per_channel_quant_params *quant_params,
                                           const cmsis_nn_dims *input_dims,
                                           const int16_t *input_data,
                                           const cmsis_nn_dims *filter_dims,
                                           const int8_t *filter_data,
                                           const cmsis_nn_dims *bias_dims,
                                           const int64_t *bias_data,
                                           const cmsis_nn_dims *output_dims,
                                           int16_t *output_data)
{
    (void)ctx;
    (void)bias_dims;
    const int32_t input_h = input_dims->h;
    const int32_t input_w = input_dims->w;
    const int32_t input_ch = input_dims->c;
    const int32_t ch_mult = dw_conv_params->ch_mult;
    /* The output channel count follows from the multiplier, as in ns-cmsis-nn. */
    const int32_t output_ch = input_ch * ch_mult;
    const int32_t kernel_h = filter_dims->h;
    const int32_t kernel_w = filter_dims->w;

    for (int32_t b = 0; b < input_dims->n; ++b)
    {
        const int16_t *image = input_data + (size_t)b * input_h * input_w * input_ch;
        int16_t *out_image = output_data + (size_t)b * output_dims->h * output_dims->w * output_ch;
        for (int32_t oy = 0; oy < output_dims->h; ++oy)
        {
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                int16_t *out_pixel = out_image + ((size_t)oy * output_dims->w + ox) * output_ch;
                for (int32_t oc = 0; oc < output_ch; ++oc)
                {
                    const int32_t ic = oc / ch_mult;
                    int64_t acc = bias_data != NULL ? bias_data[oc] : 0;
                    for (int32_t ky = 0; ky < kernel_h; ++ky)
                    {
                        const int32_t iy = oy * dw_conv_params->stride.h - dw_conv_params->padding.h +
                            ky * dw_conv_params->dilation.h;
                        for (int32_t kx = 0; kx < kernel_w; ++kx)
                        {
                            const int32_t ix = ox * dw_conv_params->stride.w - dw_conv_params->padding.w +
                                kx * dw_conv_params->dilation.w;
                            if (iy >= 0 && iy < input_h && ix >= 0 && ix < input_w)
                            {
                                acc += (int64_t)image[((size_t)iy * input_w + ix) * input_ch + ic] *
                                    filter_data[((size_t)ky * kernel_w + kx) * output_ch + oc];
                            }
                        }
                    }
                    const int32_t scaled = helia_requantize_s64(
                        acc, helia_reduce_multiplier(quant_params->multiplier[oc]), quant_params->shift[oc]);
                    out_pixel[oc] = (int16_t)helia_clamp(
                        scaled, dw_conv_params->activation.min, dw_conv_params->activation.max);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
