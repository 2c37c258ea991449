/* SPDX-License-Identifier: Apache-2.0 */
/* int8 1x1 convolution (stride 1, no padding) on Helium: a matrix product of the input pixels
 * (rows x input channels) with the filter (output channels x input channels).
 *
 * Each step computes a 2 x 2 tile: two pixels by two output channels, four VMLADAVA accumulators
 * over sixteen input channels per instruction, the loads of both pixels and both filter rows shared
 * by the tile (four loads feed four 16-lane multiply-accumulates). The tile's four sums form one
 * vector (pixel 0 channel 0, 0/1, 1/0, 1/1), so the requantization runs once per four outputs with
 * the channel pair's multipliers and shifts hoisted into vectors, and one scatter store writes the
 * four bytes. Output-channel pairs are the outer loop so those vectors are built once per pair.
 *
 * The input offset enters as bias + input_offset * sum(filter row) per output channel: read from
 * weight_sum_ctx when the module precomputed it (ns-cmsis-nn's MVE convention, as
 * arm_convolve_1x1_s8_fast), else summed here once per channel. A last single pixel or channel
 * reuses the tile with a duplicated row and stores only its own lanes. */

#include "helia_helium.h"

#if HELIA_HELIUM_AVAILABLE

#include <arm_mve.h>
#include <stddef.h>

#include "mve_requantize.h"
#include "mve_tile.h"

/* One channel pair (filter rows w0, w1; a last odd channel passes itself twice and stores only lanes
 * 0 and 2) over every pixel. with_left and channel_lanes are constants at each call, so the loop has
 * no branch on them and a full pair stores unpredicated. */
HELIA_MVE_INLINE void channel_pair(const int8_t *input, const int8_t *w0, const int8_t *w1, int8_t *out,
                                   int32_t rows, int32_t depth, int32_t channels, int32_t start_0, int32_t start_1,
                                   int32x4_t multiplier, int32x4_t left, int32x4_t neg_right, int32_t with_left,
                                   int32_t output_offset, int32x4_t act_min, int32x4_t act_max,
                                   uint32x4_t store_offsets, mve_pred16_t channel_lanes)
{
    const int8_t *pixel = input;
    for (int32_t pairs = rows >> 1; pairs > 0; --pairs)
    {
        const int32x4_t acc =
            helia_mve_tile_output(helia_mve_tile_2x2(pixel, pixel + depth, w0, w1, depth, start_0, start_1),
                                  multiplier, left, neg_right, with_left, output_offset, act_min, act_max);
        if (channel_lanes == 0xFFFF)
        {
            vstrbq_scatter_offset_s32(out, store_offsets, acc);
        }
        else
        {
            vstrbq_scatter_offset_p_s32(out, store_offsets, acc, channel_lanes);
        }
        pixel += 2 * depth;
        out += 2 * channels;
    }
    if (rows & 1)
    {
        /* A last single pixel: the tile's second pixel repeats it and is not stored. */
        const int32x4_t acc =
            helia_mve_tile_output(helia_mve_tile_2x2(pixel, pixel, w0, w1, depth, start_0, start_1), multiplier,
                                  left, neg_right, with_left, output_offset, act_min, act_max);
        vstrbq_scatter_offset_p_s32(out, store_offsets, acc, (mve_pred16_t)(channel_lanes & 0x00FF));
    }
}

arm_cmsis_nn_status helia_mve_convolve_1x1_s8(const cmsis_nn_context *ctx,
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
    (void)ctx;
    (void)bias_dims;
    const int32_t depth = input_dims->c;
    const int32_t channels = output_dims->c;
    const int32_t rows = input_dims->n * input_dims->h * input_dims->w;
    if (conv_params->padding.w != 0 || conv_params->padding.h != 0 || conv_params->stride.w != 1 ||
        conv_params->stride.h != 1 || filter_dims->h != 1 || filter_dims->w != 1 || filter_dims->c != depth ||
        filter_dims->n != channels || output_dims->n != input_dims->n || output_dims->h != input_dims->h ||
        output_dims->w != input_dims->w || depth < 1 || channels < 1 ||
        !helia_mve_conv_quantization_ok(conv_params, quant_params, channels))
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t *const weight_sums = helia_mve_weight_sums(weight_sum_ctx, channels);
    const int32_t output_offset = conv_params->output_offset;
    const int32x4_t act_min = vdupq_n_s32(conv_params->activation.min);
    const int32x4_t act_max = vdupq_n_s32(conv_params->activation.max);
    /* Lanes: (pixel 0, channel 0), (0, 1), (1, 0), (1, 1). */
    const uint32x4_t lane_pixel = {0, 0, 1, 1};
    const uint32x4_t lane_channel = {0, 1, 0, 1};
    const uint32x4_t store_offsets = vaddq_u32(vmulq_n_u32(lane_pixel, (uint32_t)channels), lane_channel);

    for (int32_t c = 0; c < channels; c += 2)
    {
        /* A last odd channel runs as a pair of itself; its copy's lanes are not stored. */
        const int32_t c1 = c + 1 < channels ? c + 1 : c;
        const int8_t *const filter_0 = filter_data + c * depth;
        const int8_t *const filter_1 = filter_data + c1 * depth;
        const int32_t input_offset = conv_params->input_offset;
        const int32_t start_0 = helia_mve_row_start(weight_sums, filter_0, depth, bias_data, c, input_offset);
        const int32_t start_1 = helia_mve_row_start(weight_sums, filter_1, depth, bias_data, c1, input_offset);
        const int32_t shift_0 = quant_params->shift[c];
        const int32_t shift_1 = quant_params->shift[c1];
        const int32_t left_0 = shift_0 > 0 ? shift_0 : 0;
        const int32_t left_1 = shift_1 > 0 ? shift_1 : 0;
        const int32x4_t pair_multiplier = {quant_params->multiplier[c], quant_params->multiplier[c1],
                                           quant_params->multiplier[c], quant_params->multiplier[c1]};
        const int32x4_t pair_left = {left_0, left_1, left_0, left_1};
        const int32x4_t pair_neg_right = {shift_0 - left_0, shift_1 - left_1, shift_0 - left_0, shift_1 - left_1};
        const int32_t with_left = (left_0 | left_1) != 0;

        int8_t *const out = output_data + c;
        if (c1 == c)
        {
            channel_pair(input_data, filter_0, filter_1, out, rows, depth, channels, start_0, start_1, pair_multiplier,
                         pair_left, pair_neg_right, with_left, output_offset, act_min, act_max, store_offsets, 0x0F0F);
        }
        else if (with_left)
        {
            channel_pair(input_data, filter_0, filter_1, out, rows, depth, channels, start_0, start_1, pair_multiplier,
                         pair_left, pair_neg_right, 1, output_offset, act_min, act_max, store_offsets, 0xFFFF);
        }
        else
        {
            channel_pair(input_data, filter_0, filter_1, out, rows, depth, channels, start_0, start_1, pair_multiplier,
                         pair_left, pair_neg_right, 0, output_offset, act_min, act_max, store_offsets, 0xFFFF);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#else /* !HELIA_HELIUM_AVAILABLE: no MVE (e.g. a host build of a module converted for a Helium core) */

#include "arm_nnfunctions.h"

/* The kernel library's general entry with the same arguments: for every call this kernel accepts it
 * computes the same bytes (tests/kernels/test_helium_parity.py). */
arm_cmsis_nn_status helia_mve_convolve_1x1_s8(const cmsis_nn_context *ctx,
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
    return arm_convolve_1x1_s8_fast(ctx, weight_sum_ctx, conv_params, quant_params, input_dims, input_data,
                                    filter_dims, filter_data, bias_dims, bias_data, output_dims, output_data);
}

#endif /* HELIA_HELIUM_AVAILABLE */
