/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot Helium kernels: helia_mve_depthwise_conv_3x3_s8, int8 3x3 depthwise convolution on MVE
 * without scratch memory. */

#include "helia_helium.h"

#if HELIA_HELIUM_AVAILABLE

#include <arm_mve.h>
#include <stddef.h>

#include "mve_requantize.h"

/*
 * Channels are processed eight at a time, in int16 lanes. Each tap loads eight input bytes widened
 * to int16 and multiplies them by the tap's eight weights into int32 products: VMULLB gives the even
 * channels of the block, VMULLT the odd ones, so one accumulator holds channels 0, 2, 4, 6 and the
 * other 1, 3, 5, 7. Narrowing them back with VQMOVNB / VQMOVNT restores the channel order.
 *
 * The input offset is not added per tap: sum((x + offset) * w) = sum(x * w) + offset * sum(w), and
 * the second term plus the bias is where the accumulators start. A tap outside the input reads a pad
 * vector holding -offset, whose product cancels that tap's share of offset * sum(w): it adds nothing,
 * exactly as the reference's skipped taps. -offset must therefore be an int8 (offset in [-127, 128]).
 *
 * Loop order: channel block outermost, so one block's weights and quantization (below, on the stack)
 * serve every output pixel; output pixels whose nine taps are all inside the input take their tap
 * addresses from three running row pointers, the others pick each tap's address (or the pad vector).
 */

#define BLOCK 8
#define TAPS 9

/* One channel block's constants, about 300 bytes of stack. */
typedef struct
{
    int16_t weight[TAPS][BLOCK]; /* widened; lanes past the last channel are 0 */
    int32_t init[2][4];          /* [even, odd channels]: bias + input_offset * (sum of the nine weights) */
    int32_t mult[2][4];
    int32_t left[2][4];      /* max(shift, 0) */
    int32_t neg_right[2][4]; /* min(shift, 0) */
} block_state;

typedef struct
{
    int32_t in_h, in_w, channels, out_h, out_w;
    int32_t stride_h, stride_w, pad_h, pad_w;
    int32_t x_first, x_end; /* output columns [x_first, x_end) have all three tap columns inside */
    int16_t out_offset, act_min, act_max;
} geometry;

/* Fills st for channels [c0, c0 + n); returns whether any of them has a positive (left) shift. */
static int32_t prepare_block(block_state *st,
                             const int8_t *filter,
                             const int32_t *bias,
                             const cmsis_nn_per_channel_quant_params *quant,
                             int32_t channels,
                             int32_t c0,
                             int32_t n,
                             int32_t input_offset)
{
    const mve_pred16_t lanes = vctp16q((uint32_t)n);
    int16x8_t sum = vdupq_n_s16(0); /* at most 9 * 128 in magnitude */
    for (int32_t k = 0; k < TAPS; ++k)
    {
        const int16x8_t w = vldrbq_z_s16(filter + k * channels + c0, lanes);
        vst1q_s16(st->weight[k], w);
        sum = vaddq_s16(sum, w);
    }
    const int32x4_t sums[2] = {vmovlbq_s16(sum), vmovltq_s16(sum)};
    int32_t any_left = 0;
    for (int32_t half = 0; half < 2; ++half)
    {
        /* Channel indices half, half + 2, half + 4, half + 6 of the block; lanes past the end read 0. */
        const uint32x4_t index = vidupq_n_u32((uint32_t)half, 2);
        const mve_pred16_t valid = vctp32q((uint32_t)((n + 1 - half) / 2));
        const int32x4_t b =
            bias != NULL ? vldrwq_gather_shifted_offset_z_s32(bias + c0, index, valid) : vdupq_n_s32(0);
        vst1q_s32(st->init[half], vmlaq_n_s32(b, sums[half], input_offset));
        vst1q_s32(st->mult[half], vldrwq_gather_shifted_offset_z_s32(quant->multiplier + c0, index, valid));
        const int32x4_t shift = vldrwq_gather_shifted_offset_z_s32(quant->shift + c0, index, valid);
        const int32x4_t left = vmaxq_s32(shift, vdupq_n_s32(0));
        vst1q_s32(st->left[half], left);
        vst1q_s32(st->neg_right[half], vminq_s32(shift, vdupq_n_s32(0)));
        any_left = vmaxvq_s32(any_left, left);
    }
    return any_left;
}

/* One output pixel of the block: nine taps, requantization, offset, clamp, store. */
HELIA_MVE_INLINE void pixel(const block_state *st,
                            const geometry *g,
                            int32_t with_left,
                            const int8_t *const tap[TAPS],
                            int8_t *out,
                            int32_t tail,
                            mve_pred16_t lanes)
{
    int32x4_t even = vldrwq_s32(st->init[0]);
    int32x4_t odd = vldrwq_s32(st->init[1]);
    /* Written out, not looped: the nine addresses then stay in registers. A full block never reads
     * past its channels, so only the last, partial one is predicated. */
#define HELIA_DW_TAP(k)                                                                    \
    do                                                                                     \
    {                                                                                      \
        const int16x8_t x = tail ? vldrbq_z_s16(tap[k], lanes) : vldrbq_s16(tap[k]);      \
        const int16x8_t w = vldrhq_s16(st->weight[k]);                                     \
        even = vaddq_s32(even, vmullbq_int_s16(x, w));                                     \
        odd = vaddq_s32(odd, vmulltq_int_s16(x, w));                                       \
    } while (0)
    HELIA_DW_TAP(0);
    HELIA_DW_TAP(1);
    HELIA_DW_TAP(2);
    HELIA_DW_TAP(3);
    HELIA_DW_TAP(4);
    HELIA_DW_TAP(5);
    HELIA_DW_TAP(6);
    HELIA_DW_TAP(7);
    HELIA_DW_TAP(8);
#undef HELIA_DW_TAP
    even = helia_mve_requantize(even, st->mult[0], st->left[0], st->neg_right[0], with_left);
    odd = helia_mve_requantize(odd, st->mult[1], st->left[1], st->neg_right[1], with_left);
    /* Saturating to int16 first keeps the result: the offset is within +-128 and the clamp within int8. */
    int16x8_t v = vqmovntq_s32(vqmovnbq_s32(vuninitializedq_s16(), even), odd);
    v = vqaddq_n_s16(v, g->out_offset);
    v = vmaxq_s16(v, vdupq_n_s16(g->act_min));
    v = vminq_s16(v, vdupq_n_s16(g->act_max));
    if (tail)
    {
        vstrbq_p_s16(out, v, lanes);
    }
    else
    {
        vstrbq_s16(out, v);
    }
}

/* Output pixel ox of a row some of whose taps fall outside the input. row[ky] is NULL for rows outside. */
HELIA_MVE_INLINE void border_pixel(const block_state *st,
                                   const geometry *g,
                                   int32_t with_left,
                                   const int8_t *const row[3],
                                   const int8_t *pad,
                                   int32_t ox,
                                   int8_t *out,
                                   int32_t tail,
                                   mve_pred16_t lanes)
{
    const int8_t *tap[TAPS];
    const int32_t ix0 = ox * g->stride_w - g->pad_w;
    for (int32_t kx = 0; kx < 3; ++kx)
    {
        const int32_t ix = ix0 + kx;
        const int32_t inside = ix >= 0 && ix < g->in_w;
        for (int32_t ky = 0; ky < 3; ++ky)
        {
            tap[ky * 3 + kx] = inside && row[ky] != NULL ? row[ky] + ix * g->channels : pad;
        }
    }
    pixel(st, g, with_left, tap, out, tail, lanes);
}

/* Every output pixel of one image for the channel block st describes; image and out_image point
 * at the block's first channel. tail: the block has fewer than BLOCK channels. */
HELIA_MVE_INLINE void run_block(const block_state *st,
                                const geometry *g,
                                int32_t with_left,
                                const int8_t *image,
                                int8_t *out_image,
                                const int8_t *pad,
                                int32_t tail,
                                mve_pred16_t lanes)
{
    const int32_t ch = g->channels;
    for (int32_t oy = 0; oy < g->out_h; ++oy)
    {
        const int32_t iy0 = oy * g->stride_h - g->pad_h;
        const int8_t *row[3];
        int32_t rows_inside = 1;
        for (int32_t ky = 0; ky < 3; ++ky)
        {
            const int32_t iy = iy0 + ky;
            const int32_t inside = iy >= 0 && iy < g->in_h;
            row[ky] = inside ? image + iy * g->in_w * ch : NULL;
            rows_inside &= inside;
        }
        int8_t *out = out_image + oy * g->out_w * ch;
        const int32_t first = rows_inside ? g->x_first : g->out_w;
        const int32_t end = rows_inside ? g->x_end : g->out_w;
        int32_t ox = 0;
        for (; ox < first; ++ox)
        {
            border_pixel(st, g, with_left, row, pad, ox, out + ox * ch, tail, lanes);
        }
        if (ox < end)
        {
            const int32_t step = g->stride_w * ch;
            const int32_t ix0 = ox * g->stride_w - g->pad_w;
            const int8_t *r0 = row[0] + ix0 * ch;
            const int8_t *r1 = row[1] + ix0 * ch;
            const int8_t *r2 = row[2] + ix0 * ch;
            for (; ox < end; ++ox)
            {
                const int8_t *const tap[TAPS] = {r0, r0 + ch, r0 + 2 * ch, r1, r1 + ch,
                                                 r1 + 2 * ch, r2, r2 + ch, r2 + 2 * ch};
                pixel(st, g, with_left, tap, out + ox * ch, tail, lanes);
                r0 += step;
                r1 += step;
                r2 += step;
            }
        }
        for (; ox < g->out_w; ++ox)
        {
            border_pixel(st, g, with_left, row, pad, ox, out + ox * ch, tail, lanes);
        }
    }
}

/* Output columns whose taps ix0 .. ix0 + 2 (ix0 = ox * stride - pad) all lie in [0, in_w). */
static void interior_columns(geometry *g)
{
    int32_t first = (g->pad_w + g->stride_w - 1) / g->stride_w;
    first = first < g->out_w ? first : g->out_w;
    int32_t end = first;
    if (g->in_w - 3 + g->pad_w >= 0)
    {
        end = (g->in_w - 3 + g->pad_w) / g->stride_w + 1;
        end = end < g->out_w ? end : g->out_w;
        end = end > first ? end : first;
    }
    g->x_first = first;
    g->x_end = end;
}

arm_cmsis_nn_status helia_mve_depthwise_conv_3x3_s8(const cmsis_nn_context *ctx,
                                                    const cmsis_nn_dw_conv_params *dw_conv_params,
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
    const cmsis_nn_dw_conv_params *p = dw_conv_params;
    const int32_t channels = input_dims->c;
    if (filter_dims->h != 3 || filter_dims->w != 3 || output_dims->c != channels ||
        (filter_dims->c != 0 && filter_dims->c != channels) || p->dilation.w != 1 || p->dilation.h != 1 ||
        p->stride.w < 1 || p->stride.h < 1 || p->padding.w < 0 || p->padding.h < 0 || p->input_offset < -127 ||
        p->input_offset > 128 || p->output_offset < -128 || p->output_offset > 127 || p->activation.min < -128 ||
        p->activation.max > 127 || p->activation.min > p->activation.max)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    geometry g = {input_dims->h, input_dims->w, channels, output_dims->h, output_dims->w,
                  p->stride.h, p->stride.w, p->padding.h, p->padding.w, 0, 0,
                  (int16_t)p->output_offset, (int16_t)p->activation.min, (int16_t)p->activation.max};
    interior_columns(&g);

    /* A tap outside the input reads this: -input_offset cancels its share of the start value. */
    int8_t pad[BLOCK];
    for (int32_t i = 0; i < BLOCK; ++i)
    {
        pad[i] = (int8_t)-p->input_offset;
    }
    const int32_t in_image = g.in_h * g.in_w * channels;
    const int32_t out_image = g.out_h * g.out_w * channels;
    block_state st;
    for (int32_t b = 0; b < input_dims->n; ++b)
    {
        for (int32_t c0 = 0; c0 < channels; c0 += BLOCK)
        {
            const int32_t n = channels - c0 < BLOCK ? channels - c0 : BLOCK;
            const int32_t with_left =
                prepare_block(&st, filter_data, bias_data, quant_params, channels, c0, n, p->input_offset);
            const int8_t *image = input_data + b * in_image + c0;
            int8_t *out = output_data + b * out_image + c0;
            if (n == BLOCK)
            {
                run_block(&st, &g, with_left, image, out, pad, 0, 0);
            }
            else
            {
                run_block(&st, &g, with_left, image, out, pad, 1, vctp16q((uint32_t)n));
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* HELIA_HELIUM_AVAILABLE */
