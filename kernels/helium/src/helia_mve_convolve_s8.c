/* SPDX-License-Identifier: Apache-2.0 */
/* int8 convolution, any filter size, stride, dilation and padding (one group), on Helium.
 *
 * Two output pixels at a time: their input windows are gathered into two columns of
 * kh * kw * input-channel bytes in the scratch buffer (padding filled with -input_offset, which adds
 * nothing once the input offset is applied through the weight sums), then every output-channel pair
 * runs the 2 x 2 tile of mve_tile.h over the two columns: four VMLADAVA accumulators over sixteen
 * bytes per step. The tile's four sums are requantized as one vector with the pair's multipliers and
 * shifts (gathered per tile) and written by one scatter store.
 *
 * ns-cmsis-nn's MVE arm_convolve_s8 gathers four columns and runs a one-channel-at-a-time product
 * with five loads per four multiply-accumulates; here four loads feed four, the requantization is one
 * vector per four outputs, and the scratch is half as large. */

#include "helia_helium.h"

#if HELIA_HELIUM_AVAILABLE

#include <arm_mve.h>
#include <stddef.h>

#include "mve_gather.h"
#include "mve_requantize.h"
#include "mve_tile.h"

/* Requantizes a tile's four sums (lanes: pixel 0 channel 0, 0/1, 1/0, 1/1) with per-lane shifts and
 * stores the lanes in `lanes` at out (pixel 0) and out + channels (pixel 1). */
HELIA_MVE_INLINE void finish_tile(int32x4_t acc, int32x4_t multiplier, int32x4_t shift, int32_t output_offset,
                                  int32x4_t act_min, int32x4_t act_max, int8_t *out, uint32x4_t store_offsets,
                                  mve_pred16_t lanes)
{
    const int32x4_t zero = vdupq_n_s32(0);
    acc = helia_mve_tile_output(acc, multiplier, vmaxq_s32(shift, zero), vminq_s32(shift, zero), 1, output_offset,
                                act_min, act_max);
    vstrbq_scatter_offset_p_s32(out, store_offsets, acc, lanes);
}

arm_cmsis_nn_status helia_mve_convolve_s8(const cmsis_nn_context *ctx,
                                          const cmsis_nn_context *weight_sum_ctx,
                                          const cmsis_nn_conv_params *conv_params,
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
    (void)bias_dims;
    const geometry g = {input_dims->h,          input_dims->w,          input_dims->c,
                        filter_dims->h,         filter_dims->w,         conv_params->stride.h,
                        conv_params->stride.w,  conv_params->padding.h, conv_params->padding.w,
                        conv_params->dilation.h, conv_params->dilation.w, output_dims->w};
    const int32_t depth = g.kernel_h * g.kernel_w * g.in_c;
    const int32_t channels = output_dims->c;
    if (filter_dims->c != g.in_c || filter_dims->n != channels || output_dims->n != input_dims->n ||
        g.in_c < 1 || g.kernel_h < 1 || g.kernel_w < 1 || channels < 1 || output_dims->h < 1 || g.out_w < 1 ||
        g.stride_h < 1 || g.stride_w < 1 || g.dilation_h < 1 || g.dilation_w < 1 || g.pad_h < 0 || g.pad_w < 0 ||
        ctx == NULL || ctx->buf == NULL || ctx->size < helia_mve_convolve_s8_buffer_size(input_dims, filter_dims) ||
        !helia_mve_conv_quantization_ok(conv_params, quant_params, channels))
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t *const weight_sums = helia_mve_weight_sums(weight_sum_ctx, channels);
    int8_t *const column_0 = (int8_t *)ctx->buf;
    int8_t *const column_1 = column_0 + depth;
    const int8x16_t pad = vdupq_n_s8((int8_t)-conv_params->input_offset);
    const int32_t input_offset = conv_params->input_offset;
    const int32_t output_offset = conv_params->output_offset;
    const int32x4_t act_min = vdupq_n_s32(conv_params->activation.min);
    const int32x4_t act_max = vdupq_n_s32(conv_params->activation.max);
    /* Lanes: (pixel 0, channel 0), (0, 1), (1, 0), (1, 1). */
    const uint32x4_t store_offsets = {0, 1, (uint32_t)channels, (uint32_t)channels + 1};
    const uint32x4_t pair_lanes = {0, 1, 0, 1};
    const int32_t pixels = output_dims->h * g.out_w;

    for (int32_t b = 0; b < input_dims->n; ++b)
    {
        const int8_t *const image = input_data + b * g.in_h * g.in_w * g.in_c;
        int8_t *out = output_data + b * pixels * channels;
        int32_t oy = 0;
        int32_t ox = 0;
        for (int32_t p = 0; p < pixels; p += 2, out += 2 * channels)
        {
            /* A last single pixel runs as the tile's both pixels; only its own lanes are stored. */
            const int32_t pair = p + 1 < pixels;
            gather_column(image, &g, oy, ox, pad, column_0);
            next_pixel(&oy, &ox, g.out_w);
            if (pair)
            {
                gather_column(image, &g, oy, ox, pad, column_1);
                next_pixel(&oy, &ox, g.out_w);
            }
            const int8_t *const x1 = pair ? column_1 : column_0;
            const mve_pred16_t pixel_lanes = pair ? 0xFFFF : 0x00FF;
            const int8_t *w = filter_data;
            int32_t c = 0;
            for (; c + 1 < channels; c += 2, w += 2 * depth)
            {
                const int32_t start_0 = helia_mve_row_start(weight_sums, w, depth, bias_data, c, input_offset);
                const int32_t start_1 =
                    helia_mve_row_start(weight_sums, w + depth, depth, bias_data, c + 1, input_offset);
                const int32x4_t acc = helia_mve_tile_2x2(column_0, x1, w, w + depth, depth, start_0, start_1);
                finish_tile(acc, vldrwq_gather_shifted_offset_s32(quant_params->multiplier + c, pair_lanes),
                            vldrwq_gather_shifted_offset_s32(quant_params->shift + c, pair_lanes), output_offset,
                            act_min, act_max, out + c, store_offsets, pixel_lanes);
            }
            if (c < channels)
            {
                /* A last single channel: the tile's both channels, lanes 0 and 2 stored. */
                const int32_t start = helia_mve_row_start(weight_sums, w, depth, bias_data, c, input_offset);
                const int32x4_t acc = helia_mve_tile_2x2(column_0, x1, w, w, depth, start, start);
                finish_tile(acc, vdupq_n_s32(quant_params->multiplier[c]), vdupq_n_s32(quant_params->shift[c]),
                            output_offset, act_min, act_max, out + c, store_offsets,
                            (mve_pred16_t)(pixel_lanes & 0x0F0F));
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#else /* !HELIA_HELIUM_AVAILABLE: no MVE (e.g. a host build of a module converted for a Helium core) */

#include "arm_nnfunctions.h"

/* The kernel library's general entry with the same arguments: for every call this kernel accepts it
 * computes the same bytes (tests/kernels/test_helium_parity.py). */
arm_cmsis_nn_status helia_mve_convolve_s8(const cmsis_nn_context *ctx,
                                          const cmsis_nn_context *weight_sum_ctx,
                                          const cmsis_nn_conv_params *conv_params,
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
    return arm_convolve_s8(ctx, weight_sum_ctx, conv_params, quant_params, input_dims, input_data, filter_dims,
                           filter_data, bias_dims, bias_data, NULL, output_dims, output_data);
}

#endif /* HELIA_HELIUM_AVAILABLE */

int32_t helia_mve_convolve_s8_buffer_size(const cmsis_nn_dims *input_dims, const cmsis_nn_dims *filter_dims)
{
    return 2 * filter_dims->h * filter_dims->w * input_dims->c;
}
