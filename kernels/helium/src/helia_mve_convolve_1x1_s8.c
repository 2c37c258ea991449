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
 * reuses the tile with a duplicated row and stores only its own lanes.
 *
 * Depths that are multiples of 32 take a wide tile: 32 channels per loop pass, the first pass peeled
 * with non-accumulating VMLADAV so the accumulators need no starting values (the tile's starting
 * values are added as one vector afterwards), no tail predication, and the filter pointers rewound
 * inside the tile rather than copied. Per kws tile that is ~10 instructions fewer.
 *
 * Depths up to 16 take their own path (small_depth below): groups of four output channels, two or
 * four pixels per step, so a vector load holds whole pixels and the requantization's constants are
 * built once per group. */

#include "helia_helium.h"

#if HELIA_HELIUM_AVAILABLE

#include <arm_mve.h>
#include <stddef.h>
#include <string.h>

#include "mve_requantize.h"
#include "mve_tile.h"

/* Sums of a 2 x 2 tile over a depth that is a multiple of 32 (passes = depth / 32 - 1 loop passes
 * after the peeled first one), without the starting values: (x0 w0, x0 w1, x1 w0, x1 w1) for the
 * pixels *pixel and *pixel + depth. *pixel is left at the next pair and the filter rows' pointers come
 * back rewound, all in the registers they came in (copies would cost a move each per tile). */
HELIA_MVE_INLINE int32x4_t tile_2x2_wide(const int8_t **pixel, const int8_t **w0_row, const int8_t **w1_row,
                                         int32_t depth, int32_t passes, int32_t fixed_depth)
{
    const int8_t *x0 = *pixel;
    const int8_t *x1;
    const int8_t *w0 = *w0_row;
    const int8_t *w1 = *w1_row;
    int32_t acc_00;
    int32_t acc_01;
    int32_t acc_10;
    int32_t acc_11;
    int32x4_t sums;
#define HELIA_WIDE_HALF(op)                                                                                            \
    "   vldrb.8         q0, [%[w0]], #16         \n"                                                                   \
    "   vldrb.8         q1, [%[x0]], #16         \n"                                                                   \
    "   " op "          %[acc_00], q0, q1        \n"                                                                   \
    "   vldrb.8         q2, [%[x1]], #16         \n"                                                                   \
    "   " op "          %[acc_10], q0, q2        \n"                                                                   \
    "   vldrb.8         q0, [%[w1]], #16         \n"                                                                   \
    "   " op "          %[acc_01], q0, q1        \n"                                                                   \
    "   " op "          %[acc_11], q0, q2        \n"
#define HELIA_WIDE_FIRST(step)                                                                                         \
    "   add             %[x1], %[x0], " step "   \n" HELIA_WIDE_HALF("vmladav.s8") HELIA_WIDE_HALF("vmladava.s8")
#define HELIA_WIDE_LAST(step)                                                                                          \
    "   add             %[x0], %[x0], " step "   \n"                                                                   \
    "   sub             %[w0], %[w0], " step "   \n"                                                                   \
    "   sub             %[w1], %[w1], " step "   \n"                                                                   \
    "   vmov            %q[sums][2], %q[sums][0], %[acc_00], %[acc_10] \n"                                             \
    "   vmov            %q[sums][3], %q[sums][1], %[acc_01], %[acc_11] \n"
#define HELIA_WIDE_OUTPUTS                                                                                             \
    [w0] "+r"(w0), [w1] "+r"(w1), [x0] "+r"(x0), [x1] "=&r"(x1), [acc_00] "=&Te"(acc_00), [acc_01] "=&Te"(acc_01),    \
        [acc_10] "=&Te"(acc_10), [acc_11] "=&Te"(acc_11), [sums] "=w"(sums)
    /* Depths of 32 and 64 (common ones) run unrolled: no loop, no loop register, and the steps are
     * immediates, which leaves GCC two more registers for the pixel loop. */
    if (fixed_depth == 32)
    {
        __asm volatile(HELIA_WIDE_FIRST("#32") HELIA_WIDE_LAST("#32")
                       : HELIA_WIDE_OUTPUTS
                       :
                       : "q0", "q1", "q2", "memory");
    }
    else if (fixed_depth == 64)
    {
        __asm volatile(HELIA_WIDE_FIRST("#64") HELIA_WIDE_HALF("vmladava.s8") HELIA_WIDE_HALF("vmladava.s8")
                       HELIA_WIDE_LAST("#64")
                       : HELIA_WIDE_OUTPUTS
                       :
                       : "q0", "q1", "q2", "memory");
    }
    else
    {
        __asm volatile(HELIA_WIDE_FIRST("%[depth]")
                       "   wls             lr, %[passes], 1f        \n"
                       "2:                                          \n"
                       HELIA_WIDE_HALF("vmladava.s8") HELIA_WIDE_HALF("vmladava.s8")
                       "   le              lr, 2b                   \n"
                       "1:                                          \n"
                       HELIA_WIDE_LAST("%[depth]")
                       : HELIA_WIDE_OUTPUTS
                       : [depth] "r"(depth), [passes] "r"(passes)
                       : "q0", "q1", "q2", "memory", "r14");
    }
#undef HELIA_WIDE_OUTPUTS
#undef HELIA_WIDE_LAST
#undef HELIA_WIDE_FIRST
#undef HELIA_WIDE_HALF
    *pixel = x0;
    *w0_row = w0;
    *w1_row = w1;
    return sums;
}

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

/* channel_pair with the wide tile (depth a multiple of 32, passes = depth / 32 - 1), for a full pair
 * whose two channels both shift right (the usual case; others take channel_pair): the rounding's sign
 * correction then needs no mask. The pixel loop ends on the pixel pointer, which the tile advances. */
HELIA_MVE_INLINE void channel_pair_wide(const int8_t *input, const int8_t *w0, const int8_t *w1, int8_t *out,
                                        int32_t rows, int32_t depth, int32_t channels, int32_t start_0,
                                        int32_t start_1, int32_t passes, int32x4_t multiplier, int32x4_t neg_right,
                                        int32_t output_offset, int32x4_t act_min, int32x4_t act_max,
                                        uint32x4_t store_offsets, int32_t fixed_depth)
{
    const int32x4_t start = {start_0, start_1, start_0, start_1};
    const int8_t *pixel = input;
    const int8_t *const pairs_end = input + (rows & ~1) * depth;
    while (pixel != pairs_end)
    {
        int32x4_t acc = vaddq_s32(tile_2x2_wide(&pixel, &w0, &w1, depth, passes, fixed_depth), start);
        acc = vqrdmulhq_s32(acc, multiplier);
        acc = vrshlq_s32(vqaddq_s32(acc, vshrq_n_s32(acc, 31)), neg_right);
        acc = vminq_s32(vmaxq_s32(vaddq_n_s32(acc, output_offset), act_min), act_max);
        vstrbq_scatter_offset_s32(out, store_offsets, acc);
        out += 2 * channels;
    }
    if (rows & 1)
    {
        /* A last single pixel: the tile's second pixel repeats it and is not stored. */
        const int32x4_t acc = helia_mve_tile_output(helia_mve_tile_2x2(pixel, pixel, w0, w1, depth, start_0, start_1),
                                                    multiplier, vdupq_n_s32(0), neg_right, 0, output_offset, act_min,
                                                    act_max);
        vstrbq_scatter_offset_p_s32(out, store_offsets, acc, 0x00FF);
    }
}

/* Every channel pair, with the wide tile or the general one: wide is a constant in each of the two
 * entries below, which are separate functions so that each pixel loop gets its own register allocation
 * (together, the general loop spilled more and lost ~8 %). */
HELIA_MVE_INLINE void channel_pairs(const cmsis_nn_conv_params *conv_params,
                                    const cmsis_nn_per_channel_quant_params *quant_params,
                                    const int32_t *weight_sums, const int8_t *input_data, const int8_t *filter_data,
                                    const int32_t *bias_data, int8_t *output_data, int32_t rows, int32_t depth,
                                    int32_t channels, int32_t wide)
{
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
        if (wide && c1 != c && shift_0 < 0 && shift_1 < 0)
        {
            const int32_t passes = (depth >> 5) - 1;
            if (depth == 64)
            {
                channel_pair_wide(input_data, filter_0, filter_1, out, rows, depth, channels, start_0, start_1,
                                  passes, pair_multiplier, pair_neg_right, output_offset, act_min, act_max,
                                  store_offsets, 64);
            }
            else if (depth == 32)
            {
                channel_pair_wide(input_data, filter_0, filter_1, out, rows, depth, channels, start_0, start_1,
                                  passes, pair_multiplier, pair_neg_right, output_offset, act_min, act_max,
                                  store_offsets, 32);
            }
            else
            {
                channel_pair_wide(input_data, filter_0, filter_1, out, rows, depth, channels, start_0, start_1,
                                  passes, pair_multiplier, pair_neg_right, output_offset, act_min, act_max,
                                  store_offsets, 0);
            }
        }
        else if (c1 == c)
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
}

static __attribute__((noinline)) void channel_pairs_wide(const cmsis_nn_conv_params *conv_params,
                                                         const cmsis_nn_per_channel_quant_params *quant_params,
                                                         const int32_t *weight_sums, const int8_t *input_data,
                                                         const int8_t *filter_data, const int32_t *bias_data,
                                                         int8_t *output_data, int32_t rows, int32_t depth,
                                                         int32_t channels)
{
    channel_pairs(conv_params, quant_params, weight_sums, input_data, filter_data, bias_data, output_data, rows, depth,
                  channels, 1);
}

static __attribute__((noinline)) void channel_pairs_general(const cmsis_nn_conv_params *conv_params,
                                                            const cmsis_nn_per_channel_quant_params *quant_params,
                                                            const int32_t *weight_sums, const int8_t *input_data,
                                                            const int8_t *filter_data, const int32_t *bias_data,
                                                            int8_t *output_data, int32_t rows, int32_t depth,
                                                            int32_t channels)
{
    channel_pairs(conv_params, quant_params, weight_sums, input_data, filter_data, bias_data, output_data, rows, depth,
                  channels, 0);
}

/* Small depths (1 to 16, vww's 8 and 16): a 2 x 2 tile would use half a vector or less per load and
 * requantize four outputs for as few as 32 MACs. Instead a tile is two pixels by four output channels:
 * eight VMLADAV of one whole pixel each, the sums gathered as two vectors whose lanes are four
 * consecutive output channels of one pixel, so each is requantized with the group's per-lane constants
 * (built once per group) and stored as four contiguous bytes. The group's filter rows are copied once
 * into a zero-padded stack buffer of 16-byte rows, so every load is a whole vector and the lanes past
 * the depth add nothing. Depths up to 8 load both pixels with one load (pixel 1 at lanes depth..):
 * the buffer then holds each row twice, once at lane 0 and once at lane `depth`, zeros elsewhere. */
#define SMALL_MAX_DEPTH 16

/* Sums of pixels x (and the next) by the group's four rows w, lanes = channels 0..3, as *a (pixel 0)
 * and *b (pixel 1); *x advances by two pixels. pair: both pixels in one load (depth <= 8; w holds eight
 * rows, (channel, half) at (2 * channel + half) * 16); else one load per pixel (w holds four rows at
 * channel * 16). fixed_depth 8 (pair) or 16 (not pair) makes the step an immediate. */
HELIA_MVE_INLINE void small_tile(const int8_t **x, const int8_t *w, int32_t depth, int32_t pair, int32_t fixed_depth,
                                 int32x4_t *a, int32x4_t *b)
{
    const int8_t *p = *x;
    int32_t acc_0;
    int32_t acc_1;
    int32_t acc_2;
    int32_t acc_3;
    int32x4_t sums_a;
    int32x4_t sums_b;
#define HELIA_SMALL_PAIR_HALF(r0, r1, r2, r3, la, lb)                                                                 \
    "   vldrb.8         q1, [%[w], #" r0 "]      \n"                                                                   \
    "   vmladav.s8      %[acc_0], q1, q0         \n"                                                                   \
    "   vldrb.8         q2, [%[w], #" r1 "]      \n"                                                                   \
    "   vmladav.s8      %[acc_1], q2, q0         \n"                                                                   \
    "   vldrb.8         q1, [%[w], #" r2 "]      \n"                                                                   \
    "   vmladav.s8      %[acc_2], q1, q0         \n"                                                                   \
    "   vldrb.8         q2, [%[w], #" r3 "]      \n"                                                                   \
    "   vmladav.s8      %[acc_3], q2, q0         \n"                                                                   \
    "   vmov            %q[sums_a][" la "], %q[sums_a][" lb "], %[acc_0], %[acc_2] \n"                                 \
    "   vmov            %q[sums_b][" la "], %q[sums_b][" lb "], %[acc_1], %[acc_3] \n"
#define HELIA_SMALL_SINGLE_HALF(r0, r2, la, lb)                                                                        \
    "   vldrb.8         q2, [%[w], #" r0 "]      \n"                                                                   \
    "   vmladav.s8      %[acc_0], q2, q0         \n"                                                                   \
    "   vmladav.s8      %[acc_1], q2, q1         \n"                                                                   \
    "   vldrb.8         q2, [%[w], #" r2 "]      \n"                                                                   \
    "   vmladav.s8      %[acc_2], q2, q0         \n"                                                                   \
    "   vmladav.s8      %[acc_3], q2, q1         \n"                                                                   \
    "   vmov            %q[sums_a][" la "], %q[sums_a][" lb "], %[acc_0], %[acc_2] \n"                                 \
    "   vmov            %q[sums_b][" la "], %q[sums_b][" lb "], %[acc_1], %[acc_3] \n"
#define HELIA_SMALL_PAIR HELIA_SMALL_PAIR_HALF("0", "16", "64", "80", "2", "0") HELIA_SMALL_PAIR_HALF("32", "48", "96", "112", "3", "1")
#define HELIA_SMALL_SINGLE HELIA_SMALL_SINGLE_HALF("0", "32", "2", "0") HELIA_SMALL_SINGLE_HALF("16", "48", "3", "1")
#define HELIA_SMALL_OUTPUTS                                                                                            \
    [x] "+r"(p), [acc_0] "=&Te"(acc_0), [acc_1] "=&Te"(acc_1), [acc_2] "=&Te"(acc_2), [acc_3] "=&Te"(acc_3),          \
        [sums_a] "=&w"(sums_a), [sums_b] "=&w"(sums_b)
    if (pair && fixed_depth == 8)
    {
        __asm volatile("   vldrb.8         q0, [%[x]], #16          \n" HELIA_SMALL_PAIR
                       : HELIA_SMALL_OUTPUTS
                       : [w] "r"(w)
                       : "q0", "q1", "q2", "memory");
    }
    else if (pair)
    {
        __asm volatile("   vldrb.8         q0, [%[x]]               \n"
                       "   add             %[x], %[x], %[step]      \n" HELIA_SMALL_PAIR
                       : HELIA_SMALL_OUTPUTS
                       : [w] "r"(w), [step] "r"(2 * depth)
                       : "q0", "q1", "q2", "memory");
    }
    else if (fixed_depth == 16)
    {
        __asm volatile("   vldrb.8         q0, [%[x]], #16          \n"
                       "   vldrb.8         q1, [%[x]], #16          \n" HELIA_SMALL_SINGLE
                       : HELIA_SMALL_OUTPUTS
                       : [w] "r"(w)
                       : "q0", "q1", "q2", "memory");
    }
    else
    {
        __asm volatile("   vldrb.8         q0, [%[x]]               \n"
                       "   add             %[x], %[x], %[step]      \n"
                       "   vldrb.8         q1, [%[x]]               \n"
                       "   add             %[x], %[x], %[step]      \n" HELIA_SMALL_SINGLE
                       : HELIA_SMALL_OUTPUTS
                       : [w] "r"(w), [step] "r"(depth)
                       : "q0", "q1", "q2", "memory");
    }
#undef HELIA_SMALL_OUTPUTS
#undef HELIA_SMALL_SINGLE
#undef HELIA_SMALL_PAIR
#undef HELIA_SMALL_SINGLE_HALF
#undef HELIA_SMALL_PAIR_HALF
    *x = p;
    *a = sums_a;
    *b = sums_b;
}

/* One group's per-lane constants (lanes = its four channels). */
typedef struct
{
    int32x4_t start;
    int32x4_t multiplier;
    int32x4_t left;
    int32x4_t neg_right;
    int32x4_t act_min;
    int32x4_t act_max;
    int32_t output_offset;
    mve_pred16_t lanes; /* the group's channels (a last group may hold fewer than four) */
} small_quant;

/* A vector of sums to the bytes to store. fast: every lane shifts right (the rounding's sign correction
 * then needs no mask, and no left shift). */
HELIA_MVE_INLINE int32x4_t small_output(int32x4_t acc, const small_quant *q, int32_t fast)
{
    acc = vaddq_s32(acc, q->start);
    if (fast)
    {
        acc = vqrdmulhq_s32(acc, q->multiplier);
        acc = vrshlq_s32(vqaddq_s32(acc, vshrq_n_s32(acc, 31)), q->neg_right);
    }
    else
    {
        acc = helia_mve_requantize_q(acc, q->multiplier, q->left, q->neg_right, 1);
    }
    return vminq_s32(vmaxq_s32(vaddq_n_s32(acc, q->output_offset), q->act_min), q->act_max);
}

HELIA_MVE_INLINE void small_store(int8_t *out, int32x4_t v, const small_quant *q, int32_t fast)
{
    if (fast)
    {
        vstrbq_s32(out, v);
    }
    else
    {
        vstrbq_p_s32(out, v, q->lanes);
    }
}

/* One group of four channels over every pixel. Pixel pairs whose loads stay inside the input run from
 * it; the last few (whose 16-byte loads would read past its end) are copied into a zeroed buffer first.
 * A last odd pixel stores only its own outputs. fast: a full group whose channels all shift right. */
HELIA_MVE_INLINE void small_group(const int8_t *input, const int8_t *w, int8_t *out, int32_t rows, int32_t depth,
                                  int32_t channels, const small_quant *quant, int32_t fast, int32_t pair,
                                  int32_t fixed_depth)
{
    const small_quant q = *quant;
    /* Pairs starting at pixel p read input bytes up to p * depth + 16 (pair) or (p + 1) * depth + 16. */
    const int32_t per_load = (16 + depth - 1) / depth;
    const int32_t last_safe = rows - per_load - (pair ? 0 : 1);
    const int32_t main_pairs = last_safe < 0 ? 0 : (last_safe >> 1) + 1;
    const int8_t *x = input;
    for (int32_t n = main_pairs; n > 0; --n)
    {
        int32x4_t a;
        int32x4_t b;
        small_tile(&x, w, depth, pair, fixed_depth, &a, &b);
        small_store(out, small_output(a, &q, fast), &q, fast);
        small_store(out + channels, small_output(b, &q, fast), &q, fast);
        out += 2 * channels;
    }
    const int32_t tail = rows - 2 * main_pairs;
    if (tail > 0)
    {
        /* At most 32 bytes of pixels (the bound above); the tile reads 16 more. */
        int8_t buffer[64] __attribute__((aligned(16)));
        memset(buffer, 0, sizeof(buffer));
        memcpy(buffer, x, (size_t)(tail * depth));
        x = buffer;
        for (int32_t t = 0; t < tail; t += 2)
        {
            int32x4_t a;
            int32x4_t b;
            small_tile(&x, w, depth, pair, 0, &a, &b);
            vstrbq_p_s32(out, small_output(a, &q, fast), q.lanes);
            if (t + 1 < tail)
            {
                vstrbq_p_s32(out + channels, small_output(b, &q, fast), q.lanes);
            }
            out += 2 * channels;
        }
    }
}

/* The variants, one function each so each pixel loop gets its own register allocation. */
#define HELIA_SMALL_VARIANT(name, fast, pair, fixed_depth)                                                             \
    static __attribute__((noinline)) void name(const int8_t *input, const int8_t *w, int8_t *out, int32_t rows,      \
                                               int32_t depth, int32_t channels, const small_quant *q)                  \
    {                                                                                                                  \
        small_group(input, w, out, rows, depth, channels, q, fast, pair, fixed_depth);                                 \
    }
HELIA_SMALL_VARIANT(small_fast_8, 1, 1, 8)
HELIA_SMALL_VARIANT(small_fast_16, 1, 0, 16)
HELIA_SMALL_VARIANT(small_fast_pair, 1, 1, 0)
HELIA_SMALL_VARIANT(small_fast_single, 1, 0, 0)
HELIA_SMALL_VARIANT(small_general_pair, 0, 1, 0)
HELIA_SMALL_VARIANT(small_general_single, 0, 0, 0)
#undef HELIA_SMALL_VARIANT

/* Depth 8, a full group whose four channels all shift right (vww's 48x48x8 -> 16): four pixels per
 * step, in one asm loop that holds every vector it needs in q0-q7. A channel's sums over the four
 * pixels (two loads of two pixels) come from one load of its row held twice ([w, w]) and four
 * VMLADAV predicated on lanes 0-7 / 8-15 (VPSTEET: each change between T and E inverts VPR.P0, so
 * an even number of changes leaves P0 as set before the loop; VPSTETE would leave it inverted for the
 * next channel, which the parity firmware caught), so the lanes of one vector are four pixels of one
 * channel and its constants are scalars (one LDM per channel from the group's blocks: 16 weight bytes,
 * then start, multiplier, shift). The sixteen results narrow with saturation to int16 (the offset added
 * there) and to int8, where one clamp and one scatter store cover all sixteen: saturating first cannot
 * change a clamped result, the activation range lying inside int8. The store's byte offsets must fit in
 * eight bits: 3 * channels + 3 <= 255. */
#define SMALL_QUAD_MAX_CHANNELS 84
#define SMALL_QUAD_BLOCK_BYTES 28

/* The loops take r0-r6 and five operands, more than GCC has at -O0 (r7 is then the frame pointer):
 * there, or with HELIA_MVE_1X1_QUADS=0 (the parity test's check of what -O0 runs), depths 8 and 16
 * take the two-pixel tile. */
#if !defined(HELIA_MVE_1X1_QUADS)
#if defined(__OPTIMIZE__)
#define HELIA_MVE_1X1_QUADS 1
#else
#define HELIA_MVE_1X1_QUADS 0
#endif
#endif

#if HELIA_MVE_1X1_QUADS

static __attribute__((noinline)) void small_quads_8(const int8_t *input, const int8_t *blocks, int8_t *out,
                                                    int32_t quads, int32_t channels, const int8_t *vectors,
                                                    int32_t output_offset)
{
    const int8_t *x = input;
    const int8_t *b = blocks;
    const int32_t step = 4 * channels;
    /* Used before the loop only, so they come in two of the loop's scratch registers (GCC has five left
     * for the operands). */
    register const int8_t *v __asm("r1") = vectors;
    register int32_t count __asm("r3") = quads;
    /* One channel: sums of pixels 0-3 into q2 (lanes = pixels), requantized, narrowed into its int16
     * halves (`narrow`); `tmp` is a free vector at that point. */
#define HELIA_QUAD_CHANNEL(tmp, narrow)                                                                                \
    "   vldrb.8         q2, [%[b]], #16          \n"                                                                   \
    "   vpsteet                                  \n"                                                                   \
    "   vmladavt.s8     r0, q2, q0               \n"                                                                   \
    "   vmladave.s8     r2, q2, q0               \n"                                                                   \
    "   vmladave.s8     r6, q2, q1               \n"                                                                   \
    "   vmladavt.s8     r4, q2, q1               \n"                                                                   \
    "   vmov            q2[2], q2[0], r0, r4     \n"                                                                   \
    "   vmov            q2[3], q2[1], r2, r6     \n"                                                                   \
    "   ldmia           %[b]!, {r1, r3, r5}      \n"                                                                   \
    "   vadd.i32        q2, q2, r1               \n"                                                                   \
    "   vqrdmulh.s32    q2, q2, r3               \n"                                                                   \
    "   vshr.s32        " tmp ", q2, #31         \n"                                                                   \
    "   vqadd.s32       q2, q2, " tmp "          \n"                                                                   \
    "   vrshl.s32       q2, r5                   \n"                                                                   \
    "   " narrow "                               \n"
    __asm volatile("   vldrb.8         q7, [%[v]]               \n"
                   "   vldrb.8         q5, [%[v], #16]          \n"
                   "   vldrb.8         q6, [%[v], #32]          \n"
                   "   movs            r1, #255                 \n"
                   "   vmsr            p0, r1                   \n"
                   "   wls             lr, %[count], 2f         \n"
                   "1:                                          \n"
                   "   vldrb.8         q0, [%[x]], #16          \n"
                   "   vldrb.8         q1, [%[x]], #16          \n"
                   /* q3: channels 0 / 1 as int16 halves, q4: channels 2 / 3; channel 3's temporary is q0
                    * (the pixels are no longer needed) */
                   HELIA_QUAD_CHANNEL("q4", "vqmovnb.s32 q3, q2") HELIA_QUAD_CHANNEL("q4", "vqmovnt.s32 q3, q2")
                   HELIA_QUAD_CHANNEL("q4", "vqmovnb.s32 q4, q2") HELIA_QUAD_CHANNEL("q0", "vqmovnt.s32 q4, q2")
                   "   sub             %[b], %[b], #112         \n"
                   "   vqadd.s16       q3, q3, %[off]           \n"
                   "   vqadd.s16       q4, q4, %[off]           \n"
                   "   vqmovnb.s16     q0, q3                   \n"
                   "   vqmovnt.s16     q0, q4                   \n"
                   "   vmax.s8         q0, q0, q5               \n"
                   "   vmin.s8         q0, q0, q6               \n"
                   "   vstrb.8         q0, [%[out], q7]         \n"
                   "   add             %[out], %[out], %[step]  \n"
                   "   le              lr, 1b                   \n"
                   "2:                                          \n"
                   : [x] "+r"(x), [out] "+r"(out), [b] "+r"(b), [v] "+r"(v), [count] "+r"(count)
                   : [off] "r"(output_offset), [step] "r"(step)
                   /* "p0" is GCC's name for VPR, which the loop sets: without it a caller could keep a
                    * predicate there across the call (interprocedural register allocation). */
                   : "r0", "r2", "r4", "r5", "r6", "r14", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "p0",
                     "memory");
#undef HELIA_QUAD_CHANNEL
}

/* Depth 16 (vww's 24x24x16 -> 32), the same step: the four pixels are four loads (q0-q3), each
 * channel's row one load, no predication; the int16 halves build in q5 / q6 with q7 the temporary, and
 * the store's offsets and clamp, for which no vector is left, are loaded once per step into q0-q2 after
 * the pixels' last use, from behind the four blocks (no register is left for another pointer). */
static __attribute__((noinline)) void small_quads_16(const int8_t *input, const int8_t *blocks, int8_t *out,
                                                     int32_t quads, int32_t channels, int32_t output_offset)
{
    const int8_t *x = input;
    const int8_t *b = blocks;
    const int32_t step = 4 * channels;
    register int32_t count __asm("r1") = quads;
#define HELIA_QUAD16_CHANNEL(narrow)                                                                                   \
    "   vldrb.8         q4, [%[b]], #16          \n"                                                                   \
    "   vmladav.s8      r0, q4, q0               \n"                                                                   \
    "   vmladav.s8      r2, q4, q1               \n"                                                                   \
    "   vmladav.s8      r4, q4, q2               \n"                                                                   \
    "   vmladav.s8      r6, q4, q3               \n"                                                                   \
    "   vmov            q4[2], q4[0], r0, r4     \n"                                                                   \
    "   vmov            q4[3], q4[1], r2, r6     \n"                                                                   \
    "   ldmia           %[b]!, {r1, r3, r5}      \n"                                                                   \
    "   vadd.i32        q4, q4, r1               \n"                                                                   \
    "   vqrdmulh.s32    q4, q4, r3               \n"                                                                   \
    "   vshr.s32        q7, q4, #31              \n"                                                                   \
    "   vqadd.s32       q4, q4, q7               \n"                                                                   \
    "   vrshl.s32       q4, r5                   \n"                                                                   \
    "   " narrow "                               \n"
    __asm volatile("   wls             lr, %[count], 2f         \n"
                   "1:                                          \n"
                   "   vldrb.8         q0, [%[x]], #16          \n"
                   "   vldrb.8         q1, [%[x]], #16          \n"
                   "   vldrb.8         q2, [%[x]], #16          \n"
                   "   vldrb.8         q3, [%[x]], #16          \n"
                   HELIA_QUAD16_CHANNEL("vqmovnb.s32 q5, q4") HELIA_QUAD16_CHANNEL("vqmovnt.s32 q5, q4")
                   HELIA_QUAD16_CHANNEL("vqmovnb.s32 q6, q4") HELIA_QUAD16_CHANNEL("vqmovnt.s32 q6, q4")
                   "   vldrb.8         q0, [%[b]]               \n"
                   "   vldrb.8         q1, [%[b], #16]          \n"
                   "   vldrb.8         q2, [%[b], #32]          \n"
                   "   sub             %[b], %[b], #112         \n"
                   "   vqadd.s16       q5, q5, %[off]           \n"
                   "   vqadd.s16       q6, q6, %[off]           \n"
                   "   vqmovnb.s16     q3, q5                   \n"
                   "   vqmovnt.s16     q3, q6                   \n"
                   "   vmax.s8         q3, q3, q1               \n"
                   "   vmin.s8         q3, q3, q2               \n"
                   "   vstrb.8         q3, [%[out], q0]         \n"
                   "   add             %[out], %[out], %[step]  \n"
                   "   le              lr, 1b                   \n"
                   "2:                                          \n"
                   : [x] "+r"(x), [out] "+r"(out), [b] "+r"(b), [count] "+r"(count)
                   : [off] "r"(output_offset), [step] "r"(step)
                   : "r0", "r2", "r3", "r4", "r5", "r6", "r14", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7",
                     "memory");
#undef HELIA_QUAD16_CHANNEL
}
#endif /* HELIA_MVE_1X1_QUADS */

/* Every group of four output channels (depth <= SMALL_MAX_DEPTH). */
static void small_depth(const cmsis_nn_conv_params *conv_params, const cmsis_nn_per_channel_quant_params *quant_params,
                        const int32_t *weight_sums, const int8_t *input_data, const int8_t *filter_data,
                        const int32_t *bias_data, int8_t *output_data, int32_t rows, int32_t depth, int32_t channels)
{
    const int32_t pair = depth <= 8;
    /* The set-up is vector loads and stores, no memset / memcpy calls: a band of a patch-run layer
     * (vww's 7 x 48 pixels) is a call of its own, and library calls cost ~1,500 instructions per call. */
    const mve_pred16_t row_lanes = vctp8q((uint32_t)depth);
    const int8x16_t zeros = vdupq_n_s8(0);
    int8_t w[8 * 16] __attribute__((aligned(16)));
    small_quant q;
    q.act_min = vdupq_n_s32(conv_params->activation.min);
    q.act_max = vdupq_n_s32(conv_params->activation.max);
    q.output_offset = conv_params->output_offset;
#if HELIA_MVE_1X1_QUADS
    const int32_t quads = (depth == 8 || depth == 16) && channels <= SMALL_QUAD_MAX_CHANNELS && rows >= 4;
    /* Per channel: its row (twice at depth 8), then start, multiplier, shift; behind the four, the store's
     * offsets (byte k: pixel k / 4, channel 0, 2, 1, 3 as the loop's narrowing interleaves them) and the
     * clamp as int8 lanes. */
    int8_t blocks[4 * SMALL_QUAD_BLOCK_BYTES + 48] __attribute__((aligned(4)));
    int8_t *const vectors = blocks + 4 * SMALL_QUAD_BLOCK_BYTES;
    if (quads)
    {
        static const uint8_t lane_channel[16] = {0, 2, 1, 3, 0, 2, 1, 3, 0, 2, 1, 3, 0, 2, 1, 3};
        static const uint8_t lane_pixel[16] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};
        vstrbq_u8((uint8_t *)vectors,
                  vmlaq_n_u8(vldrbq_u8(lane_channel), vldrbq_u8(lane_pixel), (uint8_t)channels));
        vstrbq_s8(vectors + 16, vdupq_n_s8((int8_t)conv_params->activation.min));
        vstrbq_s8(vectors + 32, vdupq_n_s8((int8_t)conv_params->activation.max));
    }
#endif
    for (int32_t c = 0; c < channels; c += 4)
    {
        const int32_t n = channels - c < 4 ? channels - c : 4;
        int32_t start[4] = {0, 0, 0, 0};
        int32_t multiplier[4] = {0, 0, 0, 0};
        int32_t left[4] = {0, 0, 0, 0};
        int32_t neg_right[4] = {-1, -1, -1, -1};
        int32_t fast = n == 4;
        for (int32_t i = 0; i < n; ++i)
        {
            const int32_t shift = quant_params->shift[c + i];
            start[i] = helia_mve_row_start(weight_sums, filter_data + (c + i) * depth, depth, bias_data, c + i,
                                           conv_params->input_offset);
            multiplier[i] = quant_params->multiplier[c + i];
            left[i] = shift > 0 ? shift : 0;
            neg_right[i] = shift > 0 ? 0 : shift;
            fast = fast && shift < 0;
        }
        q.start = vldrwq_s32(start);
        q.multiplier = vldrwq_s32(multiplier);
        q.left = vldrwq_s32(left);
        q.neg_right = vldrwq_s32(neg_right);
        q.lanes = vctp32q((uint32_t)n);
        int8_t *const out = output_data + c;
        int32_t done = 0;
#if HELIA_MVE_1X1_QUADS
        if (quads && fast)
        {
            for (int32_t i = 0; i < 4; ++i)
            {
                int8_t *const block = blocks + i * SMALL_QUAD_BLOCK_BYTES;
                const int8x16_t row = vldrbq_z_s8(filter_data + (c + i) * depth, row_lanes);
                if (depth == 8)
                {
                    /* [w, w]: the row's eight bytes twice. */
                    vstrbq_p_s8(block, row, row_lanes);
                    vstrbq_p_s8(block + 8, row, row_lanes);
                }
                else
                {
                    vstrbq_s8(block, row);
                }
                const int32_t constants[3] = {start[i], multiplier[i], neg_right[i]};
                memcpy(block + 16, constants, sizeof(constants));
            }
            if (depth == 8)
            {
                small_quads_8(input_data, blocks, out, rows >> 2, channels, vectors, q.output_offset);
            }
            else
            {
                small_quads_16(input_data, blocks, out, rows >> 2, channels, q.output_offset);
            }
            done = rows & ~3;
            if (done == rows)
            {
                continue;
            }
        }
#endif
        /* The two-pixel tile's rows, zero-padded: (channel, half) at (2 * channel + half) * 16 with the row
         * at lane 0 / lane depth (depth <= 8), else channel * 16. */
        for (int32_t i = 0; i < 4; ++i)
        {
            const int8x16_t row = i < n ? vldrbq_z_s8(filter_data + (c + i) * depth, row_lanes) : zeros;
            if (pair)
            {
                vstrbq_s8(w + (2 * i) * 16, row);
                vstrbq_s8(w + (2 * i + 1) * 16, zeros);
                vstrbq_p_s8(w + (2 * i + 1) * 16 + depth, row, row_lanes);
            }
            else
            {
                vstrbq_s8(w + i * 16, row);
            }
        }
        const int8_t *const x = input_data + done * depth;
        int8_t *const y = out + done * channels;
        const int32_t left_rows = rows - done;
        if (fast && pair && depth == 8)
        {
            small_fast_8(x, w, y, left_rows, depth, channels, &q);
        }
        else if (fast && depth == 16)
        {
            small_fast_16(x, w, y, left_rows, depth, channels, &q);
        }
        else if (fast)
        {
            (pair ? small_fast_pair : small_fast_single)(x, w, y, left_rows, depth, channels, &q);
        }
        else
        {
            (pair ? small_general_pair : small_general_single)(x, w, y, left_rows, depth, channels, &q);
        }
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
    if (depth <= SMALL_MAX_DEPTH)
    {
        small_depth(conv_params, quant_params, weight_sums, input_data, filter_data, bias_data, output_data, rows,
                    depth, channels);
    }
    else if ((depth & 31) == 0)
    {
        channel_pairs_wide(conv_params, quant_params, weight_sums, input_data, filter_data, bias_data, output_data,
                           rows, depth, channels);
    }
    else
    {
        channel_pairs_general(conv_params, quant_params, weight_sums, input_data, filter_data, bias_data,
                              output_data, rows, depth, channels);
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
