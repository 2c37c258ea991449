/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_transpose_conv_s8, TRANSPOSE_CONV computed output pixel by output pixel. */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

/*
 * Input taps (i, k) of a transposed convolution along one axis that land on output o:
 * o = i * stride + k - pad, 0 <= i < input size, 0 <= k < kernel size. Returns the input index
 * for kernel index k, or -1 when k contributes nothing to o.
 */
static int32_t source_index(int32_t o, int32_t k, int32_t stride, int32_t pad, int32_t input_size)
{
    const int32_t scaled = o + pad - k;
    if (scaled < 0 || scaled % stride != 0 || scaled / stride >= input_size)
    {
        return -1;
    }
    return scaled / stride;
}

/*
 * out[b, oy, ox, oc] = clamp(output_offset + requantize(bias[oc] + sum over input pixels (iy, ix)
 *     and kernel taps (ky, kx) with oy = iy*sy + ky - py, ox = ix*sx + kx - px, and input channels ic of
 *     (in[b, iy, ix, ic] + input_offset) * filter[oc, ky, kx, ic]))
 * The sum wraps at 32 bits like ns-cmsis-nn's int32 accumulators (only reachable with thousands of
 * channels). Every output pixel is written.
 */
arm_cmsis_nn_status arm_transpose_conv_s8(const cmsis_nn_context *ctx,
                                          const cmsis_nn_context *output_ctx,
                                          const cmsis_nn_transpose_conv_params *transpose_conv_params,
                                          const cmsis_nn_per_channel_quant_params *quant_params,
                                          const cmsis_nn_dims *input_dims,
                                          const int8_t *input_data,
                                          const cmsis_nn_dims *filter_dims,
                                          const int8_t *filter_data,
                                          const cmsis_nn_dims *bias_dims,
                                          const int32_t *bias_data,
                                          const cmsis_nn_dims *output_dims,
                                          int8_t *output_data)
{
    (void)ctx; /* no rolling accumulator buffer: each output is gathered directly */
    (void)output_ctx;
    (void)bias_dims;
    const cmsis_nn_transpose_conv_params *p = transpose_conv_params;
    if (p->dilation.w != 1 || p->dilation.h != 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR; /* TFLite's TRANSPOSE_CONV has no dilation */
    }
    const int32_t input_h = input_dims->h;
    const int32_t input_w = input_dims->w;
    const int32_t input_ch = input_dims->c;
    const int32_t output_ch = output_dims->c;
    const int32_t kernel_h = filter_dims->h;
    const int32_t kernel_w = filter_dims->w;
    const int32_t filter_size = kernel_h * kernel_w * input_ch;

    for (int32_t b = 0; b < input_dims->n; ++b)
    {
        const int8_t *image = input_data + (size_t)b * input_h * input_w * input_ch;
        int8_t *out_image = output_data + (size_t)b * output_dims->h * output_dims->w * output_ch;
        for (int32_t oy = 0; oy < output_dims->h; ++oy)
        {
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                int8_t *out_pixel = out_image + ((size_t)oy * output_dims->w + ox) * output_ch;
                for (int32_t oc = 0; oc < output_ch; ++oc)
                {
                    const int8_t *filter = filter_data + (size_t)oc * filter_size;
                    uint32_t acc = bias_data != NULL ? (uint32_t)bias_data[oc] : 0u; /* wrapping int32 sum */
                    for (int32_t ky = 0; ky < kernel_h; ++ky)
                    {
                        const int32_t iy = source_index(oy, ky, p->stride.h, p->padding.h, input_h);
                        if (iy < 0)
                        {
                            continue;
                        }
                        for (int32_t kx = 0; kx < kernel_w; ++kx)
                        {
                            const int32_t ix = source_index(ox, kx, p->stride.w, p->padding.w, input_w);
                            if (ix < 0)
                            {
                                continue;
                            }
                            const int8_t *in = image + ((size_t)iy * input_w + ix) * input_ch;
                            const int8_t *taps = filter + ((size_t)ky * kernel_w + kx) * input_ch;
                            for (int32_t ic = 0; ic < input_ch; ++ic)
                            {
                                acc += (uint32_t)(((int32_t)in[ic] + p->input_offset) * taps[ic]);
                            }
                        }
                    }
                    const int32_t scaled = helia_requantize(
                        helia_wrap_s32((int64_t)acc), quant_params->multiplier[oc], quant_params->shift[oc]);
                    out_pixel[oc] =
                        (int8_t)helia_clamp(scaled + p->output_offset, p->activation.min, p->activation.max);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
