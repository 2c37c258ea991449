/* SPDX-License-Identifier: Apache-2.0 */
/* int8 convolution to int32 sums (no bias, no requantization): the integer part of LiteRT's hybrid
 * (dynamic-range) CONV_2D and FULLY_CONNECTED, whose float input is quantized to int8 at run time and
 * whose int32 sums are then scaled to float by the module.
 *
 *   output[n][oy][ox][c] = sum over the taps (ky, kx, i) whose input pixel lies inside the input of
 *                          filter[c][ky][kx][i] * (input[n][oy*sh - ph + ky*dh][ox*sw - pw + kx*dw][i] + input_offset)
 *
 * helia_convolve_s8_s32 computes exactly that in plain C; helia_mve_convolve_s8_s32 computes the same
 * int32 values on Helium (tests/kernels/test_helium_parity.py compares them), and runs the plain C
 * where MVE is not available.
 *
 * On Helium: two output pixels at a time, as helia_mve_convolve_s8 (the same gathering into two columns
 * and the same 2 x 2 VMLADAVA tile, mve_gather.h and mve_tile.h), padding filled with -input_offset so
 * the offset enters once per channel as input_offset * sum(filter row); the tile's four sums are stored
 * by one scatter store. A 1x1 filter with stride 1 and no padding reads the input pixels in place. */

#include "helia_helium.h"

#include <stddef.h>

/* The contract both versions check: one group, sizes >= 1, strides and dilations >= 1, padding >= 0,
 * input_offset in [-127, 128] (minus an int8 zero point). Output pixels whose window lies partly or
 * wholly outside the input sum only the taps inside it. */
static int32_t arguments_ok(const cmsis_nn_conv_params *p, const cmsis_nn_dims *in, const cmsis_nn_dims *filter,
                            const cmsis_nn_dims *out)
{
    return p != NULL && in->n >= 1 && in->h >= 1 && in->w >= 1 && in->c >= 1 && filter->n >= 1 && filter->h >= 1 &&
           filter->w >= 1 && filter->c == in->c && out->n == in->n && out->h >= 1 && out->w >= 1 &&
           out->c == filter->n && p->stride.h >= 1 && p->stride.w >= 1 && p->dilation.h >= 1 && p->dilation.w >= 1 &&
           p->padding.h >= 0 && p->padding.w >= 0 && p->input_offset >= -127 && p->input_offset <= 128;
}

arm_cmsis_nn_status helia_convolve_s8_s32(const cmsis_nn_conv_params *conv_params,
                                          const cmsis_nn_dims *input_dims,
                                          const int8_t *input_data,
                                          const cmsis_nn_dims *filter_dims,
                                          const int8_t *filter_data,
                                          const cmsis_nn_dims *output_dims,
                                          int32_t *output_data)
{
    if (!arguments_ok(conv_params, input_dims, filter_dims, output_dims))
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t in_h = input_dims->h, in_w = input_dims->w, in_c = input_dims->c;
    for (int32_t n = 0; n < output_dims->n; ++n)
    {
        for (int32_t oy = 0; oy < output_dims->h; ++oy)
        {
            for (int32_t ox = 0; ox < output_dims->w; ++ox)
            {
                for (int32_t c = 0; c < output_dims->c; ++c)
                {
                    int32_t sum = 0;
                    for (int32_t ky = 0; ky < filter_dims->h; ++ky)
                    {
                        const int32_t y = oy * conv_params->stride.h - conv_params->padding.h + ky * conv_params->dilation.h;
                        if (y < 0 || y >= in_h)
                        {
                            continue;
                        }
                        for (int32_t kx = 0; kx < filter_dims->w; ++kx)
                        {
                            const int32_t x =
                                ox * conv_params->stride.w - conv_params->padding.w + kx * conv_params->dilation.w;
                            if (x < 0 || x >= in_w)
                            {
                                continue;
                            }
                            const int8_t *tap = input_data + ((n * in_h + y) * in_w + x) * in_c;
                            const int8_t *weights = filter_data + ((c * filter_dims->h + ky) * filter_dims->w + kx) * in_c;
                            for (int32_t i = 0; i < in_c; ++i)
                            {
                                sum += (int32_t)weights[i] * ((int32_t)tap[i] + conv_params->input_offset);
                            }
                        }
                    }
                    output_data[((n * output_dims->h + oy) * output_dims->w + ox) * output_dims->c + c] = sum;
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

/* Reads the input pixels in place: a 1x1 filter, stride 1, no padding (dilation does not matter). */
static int32_t reads_in_place(const cmsis_nn_conv_params *p, const cmsis_nn_dims *in, const cmsis_nn_dims *filter,
                              const cmsis_nn_dims *out)
{
    return filter->h == 1 && filter->w == 1 && p->stride.h == 1 && p->stride.w == 1 && p->padding.h == 0 &&
           p->padding.w == 0 && out->h <= in->h && out->w == in->w;
}

int32_t helia_mve_convolve_s8_s32_buffer_size(const cmsis_nn_conv_params *conv_params,
                                              const cmsis_nn_dims *input_dims,
                                              const cmsis_nn_dims *filter_dims,
                                              const cmsis_nn_dims *output_dims)
{
    return reads_in_place(conv_params, input_dims, filter_dims, output_dims)
               ? 0
               : 2 * filter_dims->h * filter_dims->w * input_dims->c;
}

#if HELIA_HELIUM_AVAILABLE

#include <arm_mve.h>

#include "mve_gather.h"
#include "mve_tile.h"

/* input_offset * sum(filter row): the accumulator's start, from the caller's row sums when given. */
HELIA_MVE_INLINE int32_t row_start(const int32_t *row_sums, const int8_t *row, int32_t depth, int32_t channel,
                                   int32_t input_offset)
{
    if (input_offset == 0)
    {
        return 0;
    }
    if (row_sums != NULL)
    {
        return input_offset * row_sums[channel];
    }
    return helia_mve_row_start(NULL, row, depth, NULL, channel, input_offset);
}

arm_cmsis_nn_status helia_mve_convolve_s8_s32(const cmsis_nn_context *ctx,
                                              const cmsis_nn_conv_params *conv_params,
                                              const int32_t *filter_row_sums,
                                              const cmsis_nn_dims *input_dims,
                                              const int8_t *input_data,
                                              const cmsis_nn_dims *filter_dims,
                                              const int8_t *filter_data,
                                              const cmsis_nn_dims *output_dims,
                                              int32_t *output_data)
{
    if (!arguments_ok(conv_params, input_dims, filter_dims, output_dims))
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t in_place = reads_in_place(conv_params, input_dims, filter_dims, output_dims);
    if (!in_place &&
        (ctx == NULL || ctx->buf == NULL ||
         ctx->size < helia_mve_convolve_s8_s32_buffer_size(conv_params, input_dims, filter_dims, output_dims)))
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const geometry g = {input_dims->h,           input_dims->w,           input_dims->c,
                        filter_dims->h,          filter_dims->w,          conv_params->stride.h,
                        conv_params->stride.w,   conv_params->padding.h,  conv_params->padding.w,
                        conv_params->dilation.h, conv_params->dilation.w, output_dims->w};
    const int32_t depth = g.kernel_h * g.kernel_w * g.in_c;
    const int32_t channels = output_dims->c;
    const int32_t input_offset = conv_params->input_offset;
    int8_t *const column_0 = in_place ? NULL : (int8_t *)ctx->buf;
    int8_t *const column_1 = in_place ? NULL : column_0 + depth;
    const int8x16_t pad = vdupq_n_s8((int8_t)-input_offset);
    /* Lanes: (pixel 0, channel 0), (0, 1), (1, 0), (1, 1). */
    const uint32x4_t store_offsets = {0, 1, (uint32_t)channels, (uint32_t)channels + 1};
    const int32_t pixels = output_dims->h * g.out_w;

    for (int32_t b = 0; b < input_dims->n; ++b)
    {
        const int8_t *const image = input_data + b * g.in_h * g.in_w * g.in_c;
        int32_t *out = output_data + b * pixels * channels;
        int32_t oy = 0;
        int32_t ox = 0;
        for (int32_t p = 0; p < pixels; p += 2, out += 2 * channels)
        {
            /* A last single pixel runs as the tile's both pixels; only its own lanes are stored. */
            const int32_t pair = p + 1 < pixels;
            const int8_t *x0;
            const int8_t *x1;
            if (in_place)
            {
                x0 = image + p * g.in_c;
                x1 = pair ? x0 + g.in_c : x0;
            }
            else
            {
                gather_column(image, &g, oy, ox, pad, column_0);
                next_pixel(&oy, &ox, g.out_w);
                if (pair)
                {
                    gather_column(image, &g, oy, ox, pad, column_1);
                    next_pixel(&oy, &ox, g.out_w);
                }
                x0 = column_0;
                x1 = pair ? column_1 : column_0;
            }
            const mve_pred16_t pixel_lanes = pair ? 0xFFFF : 0x00FF;
            const int8_t *w = filter_data;
            int32_t c = 0;
            for (; c + 1 < channels; c += 2, w += 2 * depth)
            {
                const int32_t start_0 = row_start(filter_row_sums, w, depth, c, input_offset);
                const int32_t start_1 = row_start(filter_row_sums, w + depth, depth, c + 1, input_offset);
                const int32x4_t acc = helia_mve_tile_2x2(x0, x1, w, w + depth, depth, start_0, start_1);
                vstrwq_scatter_shifted_offset_p_s32(out + c, store_offsets, acc, pixel_lanes);
            }
            if (c < channels)
            {
                /* A last single channel: the tile's both channels, lanes 0 and 2 stored. */
                const int32_t start = row_start(filter_row_sums, w, depth, c, input_offset);
                const int32x4_t acc = helia_mve_tile_2x2(x0, x1, w, w, depth, start, start);
                vstrwq_scatter_shifted_offset_p_s32(out + c, store_offsets, acc, (mve_pred16_t)(pixel_lanes & 0x0F0F));
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#else /* !HELIA_HELIUM_AVAILABLE: no MVE (e.g. a host build of a module converted for a Helium core) */

/* The plain C above, the same int32 values for every call the Helium version accepts. */
arm_cmsis_nn_status helia_mve_convolve_s8_s32(const cmsis_nn_context *ctx,
                                              const cmsis_nn_conv_params *conv_params,
                                              const int32_t *filter_row_sums,
                                              const cmsis_nn_dims *input_dims,
                                              const int8_t *input_data,
                                              const cmsis_nn_dims *filter_dims,
                                              const int8_t *filter_data,
                                              const cmsis_nn_dims *output_dims,
                                              int32_t *output_data)
{
    (void)ctx;
    (void)filter_row_sums;
    return helia_convolve_s8_s32(conv_params, input_dims, input_data, filter_dims, filter_data, output_dims,
                                 output_data);
}

#endif /* HELIA_HELIUM_AVAILABLE */
