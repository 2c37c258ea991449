/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: reference s8 convolution (grouped, dilated, optionally upscaled input). */

#include "conv_core.h"

#include "../support/fixed_point.h"

/*
 * Where a tap of the (possibly upscaled) input grid reads from. With upscaling by 2 along an axis
 * only even grid positions hold stored pixels (at position / 2); odd ones hold the zero point.
 */
static int tap_reads_stored_pixel(int32_t grid_pos, int32_t grid_size, int32_t upscaled)
{
    if (grid_pos < 0 || grid_pos >= grid_size)
    {
        return 0;
    }
    return !(upscaled && (grid_pos % 2) != 0);
}

arm_cmsis_nn_status helia_convolve_s8_reference(const cmsis_nn_conv_params *conv_params,
                                                const cmsis_nn_per_channel_quant_params *quant_params,
                                                const cmsis_nn_dims *input_dims,
                                                const int8_t *input_data,
                                                const cmsis_nn_dims *filter_dims,
                                                const int8_t *filter_data,
                                                const int32_t *bias_data,
                                                const cmsis_nn_dims *upscale_dims,
                                                const cmsis_nn_dims *output_dims,
                                                int8_t *output_data)
{
    const int32_t input_ch = input_dims->c;
    const int32_t kernel_ch = filter_dims->c;
    const int32_t output_ch = output_dims->c;
    const int32_t groups = input_ch / kernel_ch;
    if (groups == 0 || input_ch % groups != 0 || output_ch % groups != 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t output_ch_per_group = output_ch / groups;

    const int32_t upscale_y = (upscale_dims != NULL && upscale_dims->h == 2) ? 1 : 0;
    const int32_t upscale_x = (upscale_dims != NULL && upscale_dims->w == 2) ? 1 : 0;
    /* The grid the filter slides over, and the stored tensor it is built from. */
    const int32_t grid_h = input_dims->h;
    const int32_t grid_w = input_dims->w;
    const int32_t stored_h = grid_h >> upscale_y;
    const int32_t stored_w = grid_w >> upscale_x;

    const int32_t kernel_h = filter_dims->h;
    const int32_t kernel_w = filter_dims->w;
    const int32_t filter_size = kernel_h * kernel_w * kernel_ch;

    for (int32_t b = 0; b < input_dims->n; ++b)
    {
        const int8_t *image = input_data + (size_t)b * stored_h * stored_w * input_ch;
        int8_t *out_image = output_data + (size_t)b * output_dims->h * output_dims->w * output_ch;
        for (int32_t oy = 0; oy < output_dims->h; ++oy)
        {
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                int8_t *out_pixel = out_image + ((size_t)oy * output_dims->w + ox) * output_ch;
                for (int32_t oc = 0; oc < output_ch; ++oc)
                {
                    const int32_t group = oc / output_ch_per_group;
                    const int8_t *filter = filter_data + (size_t)oc * filter_size;
                    int32_t acc = bias_data != NULL ? bias_data[oc] : 0;
                    for (int32_t ky = 0; ky < kernel_h; ++ky)
                    {
                        const int32_t iy = oy * conv_params->stride.h - conv_params->padding.h +
                            ky * conv_params->dilation.h;
                        if (!tap_reads_stored_pixel(iy, grid_h, upscale_y))
                        {
                            continue;
                        }
                        for (int32_t kx = 0; kx < kernel_w; ++kx)
                        {
                            const int32_t ix = ox * conv_params->stride.w - conv_params->padding.w +
                                kx * conv_params->dilation.w;
                            if (!tap_reads_stored_pixel(ix, grid_w, upscale_x))
                            {
                                continue;
                            }
                            const int8_t *pixel = image +
                                ((size_t)(iy >> upscale_y) * stored_w + (size_t)(ix >> upscale_x)) * input_ch +
                                (size_t)group * kernel_ch;
                            const int8_t *taps = filter + ((size_t)ky * kernel_w + kx) * kernel_ch;
                            for (int32_t ic = 0; ic < kernel_ch; ++ic)
                            {
                                acc += ((int32_t)pixel[ic] + conv_params->input_offset) * taps[ic];
                            }
                        }
                    }
                    const int32_t scaled = helia_requantize(acc, quant_params->multiplier[oc], quant_params->shift[oc]);
                    out_pixel[oc] = (int8_t)helia_clamp(scaled + conv_params->output_offset,
                                                        conv_params->activation.min,
                                                        conv_params->activation.max);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
