/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_convolve_s16_group_ch_mult_1, int16 CONV_2D with one input channel per group. */

#include "arm_nnfunctions.h"
#include "conv_s16_core.h"

/*
 * out[b, oy, ox, c] = clamp(requantize(bias[c] + sum over in-bounds taps (ky, kx) of
 *     in[b, oy*sy - py + ky*dy, ox*sx - px + kx*dx, c] * filter[c, ky, kx, 0]))
 * for c < output channels, which must equal the input channels (the wrapper checks; this entry
 * does not). The sum is exact in 64 bits. Unlike arm_convolve_s16, the int32 route is taken only
 * when bias data is actually given: a NULL bias (or NULL bias struct) uses the int64 route.
 */
arm_cmsis_nn_status arm_convolve_s16_group_ch_mult_1(const cmsis_nn_context *ctx,
                                                     const cmsis_nn_conv_params *conv_params,
                                                     const cmsis_nn_per_channel_quant_params *quant_params,
                                                     const cmsis_nn_dims *input_dims,
                                                     const int16_t *input_data,
                                                     const cmsis_nn_dims *filter_dims,
                                                     const int8_t *filter_data,
                                                     const cmsis_nn_dims *bias_dims,
                                                     const cmsis_nn_bias_data *bias_data,
                                                     const cmsis_nn_dims *output_dims,
                                                     int16_t *output_data)
{
    (void)ctx;
    (void)bias_dims;
    const int32_t input_h = input_dims->h;
    const int32_t input_w = input_dims->w;
    const int32_t input_ch = input_dims->c;
    const int32_t output_ch = output_dims->c;
    const int32_t kernel_h = filter_dims->h;
    const int32_t kernel_w = filter_dims->w;
    const int int32_route = bias_data != NULL && bias_data->data != NULL && bias_data->is_int32_bias;

    for (int32_t b = 0; b < input_dims->n; ++b)
    {
        const int16_t *image = input_data + (size_t)b * input_h * input_w * input_ch;
        int16_t *out_image = output_data + (size_t)b * output_dims->h * output_dims->w * output_ch;
        for (int32_t oy = 0; oy < output_dims->h; ++oy)
        {
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                int16_t *out_pixel = out_image + ((size_t)oy * output_dims->w + ox) * output_ch;
                for (int32_t c = 0; c < output_ch; ++c)
                {
                    const int8_t *filter = filter_data + (size_t)c * kernel_h * kernel_w;
                    int64_t acc = helia_conv_s16_bias(bias_data, c);
                    for (int32_t ky = 0; ky < kernel_h; ++ky)
                    {
                        const int32_t iy = oy * conv_params->stride.h - conv_params->padding.h +
                            ky * conv_params->dilation.h;
                        for (int32_t kx = 0; kx < kernel_w; ++kx)
                        {
                            const int32_t ix = ox * conv_params->stride.w - conv_params->padding.w +
                                kx * conv_params->dilation.w;
                            if (iy >= 0 && iy < input_h && ix >= 0 && ix < input_w)
                            {
                                acc += (int64_t)image[((size_t)iy * input_w + ix) * input_ch + c] *
                                    filter[ky * kernel_w + kx];
                            }
                        }
                    }
                    const int32_t scaled = helia_conv_s16_requantize(
                        acc, int32_route, quant_params->multiplier[c], quant_params->shift[c]);
                    out_pixel[c] = helia_conv_s16_activate(scaled, &conv_params->activation);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
