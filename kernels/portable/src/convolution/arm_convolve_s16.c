/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_convolve_s16, the general int16-activation CONV_2D kernel. */

/*
 * out[b, oy, ox, oc] = clamp(requantize(bias[oc] + sum over filter columns k = (ky, kx, ic) of
 *     in[b, oy*sy - py + ky*dy, ox*sx - px + kx*dx, g*kc + ic] * filter[oc, ky, kx, ic]))
 * with groups as in arm_convolve_s8 and taps outside the input contributing nothing.
 *
 * The sum has the exact width ns-cmsis-nn's plain-C build gives it, which matters only when it
 * leaves the int32 range: that build pairs up consecutive output pixels of an image and sums a
 * pair's first 512 columns (all of them with an int32 bias) in a wrapping 32-bit accumulator
 * and the rest in 64 bits; the unpaired last pixel of an odd pixel count is summed entirely in
 * 32 bits. Both are reproduced so results stay bit-identical even then.
 */

#include "arm_nnfunctions.h"
#include "conv_s16_core.h"

#include "../support/fixed_point.h"

/* Columns a paired pixel sums in 32 bits before switching to 64 bits (ns-cmsis-nn's MAX_COL_COUNT). */
enum
{
    PAIRED_32_BIT_COLUMNS = 512
};

arm_cmsis_nn_status arm_convolve_s16(const cmsis_nn_context *ctx,
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
    (void)ctx; /* computed directly, no im2col scratch */
    (void)bias_dims;
    const int32_t input_ch = input_dims->c;
    const int32_t kernel_ch = filter_dims->c;
    const int32_t output_ch = output_dims->c;
    const int32_t groups = kernel_ch > 0 ? input_ch / kernel_ch : 0;
    if (groups == 0 || input_ch % groups != 0 || output_ch % groups != 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t output_ch_per_group = output_ch / groups;
    const int int32_route = bias_data != NULL && bias_data->is_int32_bias;

    const int32_t input_h = input_dims->h;
    const int32_t input_w = input_dims->w;
    const int32_t kernel_h = filter_dims->h;
    const int32_t kernel_w = filter_dims->w;
    const int32_t columns = kernel_h * kernel_w * kernel_ch;
    const int32_t pixels = output_dims->h * output_dims->w;

    for (int32_t b = 0; b < input_dims->n; ++b)
    {
        const int16_t *image = input_data + (size_t)b * input_h * input_w * input_ch;
        int16_t *out_image = output_data + (size_t)b * pixels * output_ch;
        for (int32_t oy = 0; oy < output_dims->h; ++oy)
        {
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                const int32_t pixel = oy * output_dims->w + ox;
                const int unpaired = (pixels % 2) != 0 && pixel == pixels - 1;
                const int32_t columns_in_32_bits =
                    (int32_route || unpaired || columns < PAIRED_32_BIT_COLUMNS) ? columns : PAIRED_32_BIT_COLUMNS;
                int16_t *out_pixel = out_image + (size_t)pixel * output_ch;
                for (int32_t oc = 0; oc < output_ch; ++oc)
                {
                    const int32_t group = oc / output_ch_per_group;
                    const int8_t *filter = filter_data + (size_t)oc * columns;
                    uint32_t low = 0; /* wrapping 32-bit part of the sum */
                    int64_t high = 0;
                    for (int32_t ky = 0; ky < kernel_h; ++ky)
                    {
                        const int32_t iy = oy * conv_params->stride.h - conv_params->padding.h +
                            ky * conv_params->dilation.h;
                        for (int32_t kx = 0; kx < kernel_w; ++kx)
                        {
                            const int32_t ix = ox * conv_params->stride.w - conv_params->padding.w +
                                kx * conv_params->dilation.w;
                            if (iy < 0 || iy >= input_h || ix < 0 || ix >= input_w)
                            {
                                continue; /* padding: zero products */
                            }
                            const int16_t *in =
                                image + ((size_t)iy * input_w + ix) * input_ch + (size_t)group * kernel_ch;
                            const int32_t first_column = (ky * kernel_w + kx) * kernel_ch;
                            const int8_t *taps = filter + first_column;
                            for (int32_t ic = 0; ic < kernel_ch; ++ic)
                            {
                                const int32_t product = (int32_t)in[ic] * taps[ic];
                                if (first_column + ic < columns_in_32_bits)
                                {
                                    low += (uint32_t)product;
                                }
                                else
                                {
                                    high += product;
                                }
                            }
                        }
                    }
                    const int64_t acc =
                        (int64_t)helia_wrap_s32((int64_t)low) + high + helia_conv_s16_bias(bias_data, oc);
                    const int32_t scaled = helia_conv_s16_requantize(
                        acc, int32_route, quant_params->multiplier[oc], quant_params->shift[oc]);
                    out_pixel[oc] = helia_conv_s16_activate(scaled, &conv_params->activation);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
