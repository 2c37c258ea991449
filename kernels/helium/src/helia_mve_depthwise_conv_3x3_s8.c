/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot Helium kernels: helia_mve_depthwise_conv_3x3_s8, int8 3x3 depthwise convolution on MVE
 * without scratch memory. */

#include "helia_helium.h"

#if HELIA_HELIUM_AVAILABLE

#include <arm_mve.h>
#include <stddef.h>

#include "mve_requantize.h"

/* GCC's first scheduling pass hoists all nine taps' loads ahead of the multiplies and then spills
 * them: MVE has only eight Q registers. Without it the taps stay in source order. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-schedule-insns")
#endif

/* Hides where a pointer points, so the compiler addresses a stack block through it with small
 * immediate offsets instead of rebuilding each stack address (MVE loads reach only +-127 elements). */
#if defined(__GNUC__)
#define HELIA_OPAQUE(p) __asm__ volatile("" : "+r"(p))
#else
#define HELIA_OPAQUE(p) (void)(p)
#endif

/*
 * Channels are processed eight at a time, in int16 lanes. Each tap loads eight input bytes widened
 * to int16. The block's weights are kept negated: taps go in pairs, their products x * -w summed in
 * int16 lanes (exact, see HELIA_DW_MAC2) and widened into int32 sums, VMOVLB giving the even channels
 * of the block, VMOVLT the odd ones (the ninth tap: VMULLB / VMULLT), so one sum holds channels 0, 2,
 * 4, 6 and the other 1, 3, 5, 7. Narrowing them back with VQMOVNB / VQMOVNT restores the channel order.
 *
 * The input offset is not added per tap: sum((x + offset) * w) = sum(x * w) + offset * sum(w); the
 * second term plus the bias is "init", from which the sums of x * -w are subtracted.
 *
 * Padding: per channel block, the input rows the output reads are copied into a window on the stack
 * (eight bytes per pixel), the padding around them filled with -offset: (-offset + offset) * w = 0,
 * exactly as the reference skips a tap outside the input, and -offset is an int8 for offsets in
 * [-127, 128]. So every output pixel runs the same branch-free loop, edges included, with the
 * window's pixel step (eight bytes) known to the compiler: each tap is one load at an immediate
 * offset. The window holds a band of whole rows (kws's 25x5 plane whole); wider planes go in column
 * chunks, taller ones in several bands. Its rows run along the output's longer axis (along y, the
 * weights transposed), so narrow planes make few long rows: little per-row work, few unpaired pixels.
 *
 * Loop order: channel block outermost; within a window row, output pixels go two at a time, sharing
 * each weight load and the requantization's loads.
 */

#define BLOCK 8
#define TAPS 9
/* The window: bands of whole window rows, at least MIN_BAND_ROWS of them (so a band's re-read rows
 * stay few), so chunks of at most MAX_COLUMNS columns. kws 25x5 fits whole (27 rows of 7 columns). */
#ifdef HELIA_MVE_DW3X3_WINDOW_BYTES /* tests shrink it to reach many chunks and bands */
#define WINDOW_BYTES HELIA_MVE_DW3X3_WINDOW_BYTES
#else
#define WINDOW_BYTES 1600
#endif
#define MIN_BAND_ROWS 6
#define MAX_COLUMNS (WINDOW_BYTES / (BLOCK * MIN_BAND_ROWS))

/* One channel block: weights, start values, requantization and clamp, 312 bytes. Everything the
 * pixel loops read sits within immediate reach (VLDRH: 254 bytes, VLDRW: 508) of one pointer. */
typedef struct
{
    int16_t weight[TAPS][BLOCK]; /* -weight, by window position; lanes past the last channel are 0 */
    int16_t act_min[BLOCK];      /* splatted: one load instead of a load and a VDUP per pixel */
    int16_t act_max[BLOCK];
    int32_t init[2][4]; /* bias + offset * sum(weights): [even, odd channels] */
    int32_t mult[2][4];
    int32_t left[2][4];      /* max(shift, 0) */
    int32_t neg_right[2][4]; /* min(shift, 0) */
    int32_t out_offset;
    int32_t with_left; /* some channel of the block has a positive shift */
    int32_t all_right; /* every channel of the block has a negative shift (the common case) */
} block_state;

typedef struct
{
    int32_t in_h, in_w, channels, out_h, out_w;
    int32_t stride_h, stride_w, pad_h, pad_w;
} geometry;

/* The block's weights, init and per-channel requantization (gathered into even / odd channel order). */
static __attribute__((noinline)) void prepare_block(block_state *s,
                                                    const geometry *g,
                                                    const cmsis_nn_dw_conv_params *p,
                                                    const cmsis_nn_per_channel_quant_params *quant,
                                                    const int8_t *filter,
                                                    const int32_t *bias,
                                                    int32_t c0,
                                                    int32_t n,
                                                    int32_t transposed)
{
    const mve_pred16_t lanes = vctp16q((uint32_t)n);
    int16x8_t sum = vdupq_n_s16(0); /* at most 9 * 128 in magnitude */
    for (int32_t k = 0; k < TAPS; ++k)
    {
        /* Window rows along y: window position (row, column) is tap (column, row). */
        const int32_t tap = transposed ? (k % 3) * 3 + k / 3 : k;
        const int16x8_t w = vldrbq_z_s16(filter + tap * g->channels + c0, lanes);
        vst1q_s16(s->weight[k], vnegq_s16(w));
        sum = vaddq_s16(sum, w);
    }
    const int32x4_t sums[2] = {vmovlbq_s16(sum), vmovltq_s16(sum)};
    int32_t any_left = 0;
    int32_t max_shift = INT32_MIN;
    for (int32_t half = 0; half < 2; ++half)
    {
        /* Channel indices half, half + 2, half + 4, half + 6 of the block; lanes past the end read 0. */
        const uint32x4_t index = vidupq_n_u32((uint32_t)half, 2);
        const mve_pred16_t valid = vctp32q((uint32_t)((n + 1 - half) / 2));
        const int32x4_t b =
            bias != NULL ? vldrwq_gather_shifted_offset_z_s32(bias + c0, index, valid) : vdupq_n_s32(0);
        vst1q_s32(s->init[half], vmlaq_n_s32(b, sums[half], p->input_offset));
        vst1q_s32(s->mult[half], vldrwq_gather_shifted_offset_z_s32(quant->multiplier + c0, index, valid));
        const int32x4_t shift = vldrwq_gather_shifted_offset_z_s32(quant->shift + c0, index, valid);
        const int32x4_t left = vmaxq_s32(shift, vdupq_n_s32(0));
        vst1q_s32(s->left[half], left);
        vst1q_s32(s->neg_right[half], vminq_s32(shift, vdupq_n_s32(0)));
        any_left = vmaxvq_s32(any_left, left);
        max_shift = vmaxvq_s32(max_shift, shift); /* lanes past the last channel read 0 */
    }
    vst1q_s16(s->act_min, vdupq_n_s16((int16_t)p->activation.min));
    vst1q_s16(s->act_max, vdupq_n_s16((int16_t)p->activation.max));
    s->out_offset = p->output_offset;
    s->with_left = any_left;
    s->all_right = max_shift < 0;
}

/* acc += x * w for one tap, even and odd channels (int32 products; w is a negated weight). */
#define HELIA_DW_MAC(even, odd, x, w)                          \
    do                                                         \
    {                                                          \
        (even) = vaddq_s32((even), vmullbq_int_s16((x), (w))); \
        (odd) = vaddq_s32((odd), vmulltq_int_s16((x), (w)));   \
    } while (0)

/* Narrow a pixel's requantized even / odd lanes back to channel order, offset, clamp and store. */
HELIA_MVE_INLINE void store_pixel(int32x4_t even,
                                  int32x4_t odd,
                                  int32_t out_offset,
                                  int16x8_t act_min,
                                  int16x8_t act_max,
                                  int8_t *out,
                                  int32_t tail,
                                  mve_pred16_t lanes)
{
    /* Saturating to int16 first keeps the result: the offset is within +-128 and the clamp within int8. */
    int16x8_t v = vqmovntq_s32(vqmovnbq_s32(vreinterpretq_s16_s32(even), even), odd);
    v = vqaddq_n_s16(v, (int16_t)out_offset);
    v = vminq_s16(vmaxq_s16(v, act_min), act_max);
    if (tail)
    {
        vstrbq_p_s16(out, v, lanes);
    }
    else
    {
        vstrbq_s16(out, v);
    }
}

/* Requantize one half (even or odd channels) of two pixels with one load of the half's values.
 * all_right: every lane shifts right, so helia_mve_requantize_q's "scaled < 0 and the lane shifts"
 * is just the sign of scaled. */
HELIA_MVE_INLINE void requantize_two(const block_state *s,
                                     int32_t half,
                                     int32x4_t *a,
                                     int32x4_t *b,
                                     int32_t with_left,
                                     int32_t all_right)
{
    const int32x4_t init = vldrwq_s32(s->init[half]);
    int32x4_t va = vsubq_s32(init, *a);
    int32x4_t vb = vsubq_s32(init, *b);
    const int32x4_t mult = vldrwq_s32(s->mult[half]);
    const int32x4_t neg_right = vldrwq_s32(s->neg_right[half]);
    if (all_right)
    {
        va = vqrdmulhq_s32(va, mult);
        vb = vqrdmulhq_s32(vb, mult);
        *a = vrshlq_s32(vqaddq_s32(va, vshrq_n_s32(va, 31)), neg_right);
        *b = vrshlq_s32(vqaddq_s32(vb, vshrq_n_s32(vb, 31)), neg_right);
        return;
    }
    if (with_left)
    {
        const int32x4_t left = vldrwq_s32(s->left[half]);
        va = vshlq_s32(va, left);
        vb = vshlq_s32(vb, left);
    }
    *a = helia_mve_requantize_q(va, mult, vdupq_n_s32(0), neg_right, 0);
    *b = helia_mve_requantize_q(vb, mult, vdupq_n_s32(0), neg_right, 0);
}

/* A band: output rows whose input rows are all in the window. */
typedef struct
{
    const int8_t *window; /* the first output pixel's window: its top-left tap */
    int32_t row_bytes;    /* window bytes per row */
    int32_t next_row;     /* window bytes from one output row to the next (stride_h rows) */
    int32_t rows, columns;
    int8_t *out;          /* the first output pixel, the block's first channel */
    int32_t out_row;      /* output bytes from one output row to the next */
    int32_t out_step;     /* output bytes from one output pixel of a row to the next */
} band;

/* acc += x * (-w) for a pair of taps: their products summed in int16 lanes, widened once. Exact: x and
 * the pad are int8 and -w is in [-127, 128], so each product is in [-16384, 16256] and a sum of two in
 * [-32768, 32512] (with w itself a sum could reach 32768). Seven instructions per pair of taps and
 * eight channels (two VMUL, VADD, VMOVLB, VMOVLT, two VADD), against eight one tap at a time. */
#define HELIA_DW_MAC2(even, odd, x0, w0, x1, w1)                                         \
    do                                                                                  \
    {                                                                                   \
        const int16x8_t sum2 = vaddq_s16(vmulq_s16((x0), (w0)), vmulq_s16((x1), (w1))); \
        (even) = vaddq_s32((even), vmovlbq_s16(sum2));                                  \
        (odd) = vaddq_s32((odd), vmovltq_s16(sum2));                                    \
    } while (0)

/* Every output pixel of a band, row by row: pairs of neighbouring pixels share each weight load and
 * the requantization's loads; an odd last pixel of a row runs alone. The sums are of x * (-w) (see
 * HELIA_DW_MAC2), subtracted from init. step (window bytes between neighbouring output pixels) is a
 * constant in the fast variants, so every tap is one load at an immediate offset. */
HELIA_MVE_INLINE void window_band(const block_state *state,
                                  const band *b,
                                  int32_t step,
                                  int32_t with_left,
                                  int32_t all_right,
                                  int32_t tail,
                                  mve_pred16_t lanes)
{
    const int32_t row_bytes = b->row_bytes;
    const int32_t next_row = b->next_row;
    const int32_t columns = b->columns;
    const int32_t out_step = b->out_step;
    const int32_t out_row = b->out_row;
    const int32_t out_offset = state->out_offset;
    const int8_t *first = b->window;
    int8_t *out_first = b->out;
    for (int32_t y = b->rows; y > 0; --y)
    {
        const int8_t *r0 = first;
        const int8_t *r1 = first + row_bytes;
        const int8_t *r2 = first + 2 * row_bytes;
        int8_t *out = out_first;
        for (int32_t pairs = columns / 2; pairs > 0; --pairs)
        {
            /* Re-hidden every pass: the compiler would otherwise hoist all the block's addresses out
             * of the loop and spill them, loading each from the stack before use. */
            const block_state *s = state;
            HELIA_OPAQUE(s);
            int32x4_t even_a, odd_a, even_b, odd_b;
            {
                const int16x8_t w0 = vld1q_s16(s->weight[0]);
                const int16x8_t w1 = vld1q_s16(s->weight[1]);
                const int16x8_t sum_a =
                    vaddq_s16(vmulq_s16(vldrbq_s16(r0), w0), vmulq_s16(vldrbq_s16(r0 + BLOCK), w1));
                even_a = vmovlbq_s16(sum_a);
                odd_a = vmovltq_s16(sum_a);
                const int16x8_t sum_b =
                    vaddq_s16(vmulq_s16(vldrbq_s16(r0 + step), w0), vmulq_s16(vldrbq_s16(r0 + BLOCK + step), w1));
                even_b = vmovlbq_s16(sum_b);
                odd_b = vmovltq_s16(sum_b);
            }
#define HELIA_DW_TAPS2(k, p, q)                                                               \
    do                                                                                        \
    {                                                                                         \
        const int16x8_t w0 = vld1q_s16(s->weight[k]);                                         \
        const int16x8_t w1 = vld1q_s16(s->weight[(k) + 1]);                                   \
        HELIA_DW_MAC2(even_a, odd_a, vldrbq_s16(p), w0, vldrbq_s16(q), w1);                   \
        HELIA_DW_MAC2(even_b, odd_b, vldrbq_s16((p) + step), w0, vldrbq_s16((q) + step), w1); \
    } while (0)
            HELIA_DW_TAPS2(2, r0 + 2 * BLOCK, r1);
            HELIA_DW_TAPS2(4, r1 + BLOCK, r1 + 2 * BLOCK);
            HELIA_DW_TAPS2(6, r2, r2 + BLOCK);
#undef HELIA_DW_TAPS2
            {
                const int16x8_t w = vld1q_s16(s->weight[8]);
                HELIA_DW_MAC(even_a, odd_a, vldrbq_s16(r2 + 2 * BLOCK), w);
                HELIA_DW_MAC(even_b, odd_b, vldrbq_s16(r2 + 2 * BLOCK + step), w);
            }
            requantize_two(s, 0, &even_a, &even_b, with_left, all_right);
            requantize_two(s, 1, &odd_a, &odd_b, with_left, all_right);
            const int16x8_t act_min = vld1q_s16(s->act_min);
            const int16x8_t act_max = vld1q_s16(s->act_max);
            store_pixel(even_a, odd_a, out_offset, act_min, act_max, out, tail, lanes);
            store_pixel(even_b, odd_b, out_offset, act_min, act_max, out + out_step, tail, lanes);
            r0 += 2 * step;
            r1 += 2 * step;
            r2 += 2 * step;
            out += 2 * out_step;
        }
        if (columns % 2 != 0)
        {
            const block_state *s = state;
            HELIA_OPAQUE(s);
            int32x4_t even, odd;
            {
                const int16x8_t sum2 = vaddq_s16(vmulq_s16(vldrbq_s16(r0), vld1q_s16(s->weight[0])),
                                                 vmulq_s16(vldrbq_s16(r0 + BLOCK), vld1q_s16(s->weight[1])));
                even = vmovlbq_s16(sum2);
                odd = vmovltq_s16(sum2);
            }
            HELIA_DW_MAC2(even, odd, vldrbq_s16(r0 + 2 * BLOCK), vld1q_s16(s->weight[2]), vldrbq_s16(r1),
                          vld1q_s16(s->weight[3]));
            HELIA_DW_MAC2(even, odd, vldrbq_s16(r1 + BLOCK), vld1q_s16(s->weight[4]), vldrbq_s16(r1 + 2 * BLOCK),
                          vld1q_s16(s->weight[5]));
            HELIA_DW_MAC2(even, odd, vldrbq_s16(r2), vld1q_s16(s->weight[6]), vldrbq_s16(r2 + BLOCK),
                          vld1q_s16(s->weight[7]));
            HELIA_DW_MAC(even, odd, vldrbq_s16(r2 + 2 * BLOCK), vld1q_s16(s->weight[8]));
            even = vsubq_s32(vldrwq_s32(s->init[0]), even);
            odd = vsubq_s32(vldrwq_s32(s->init[1]), odd);
            even = helia_mve_requantize(even, s->mult[0], s->left[0], s->neg_right[0], with_left);
            odd = helia_mve_requantize(odd, s->mult[1], s->left[1], s->neg_right[1], with_left);
            store_pixel(even, odd, out_offset, vld1q_s16(s->act_min), vld1q_s16(s->act_max), out, tail, lanes);
        }
        first += next_row;
        out_first += out_row;
    }
}

/* The variants: full blocks whose channels all shift right (the common case) with window steps of
 * one and two pixels as constants (strides 1 and 2); and any step, any shifts and the last, partial
 * channel block (predicated stores). */
static __attribute__((noinline)) void band_step1(const block_state *s, const band *b)
{
    window_band(s, b, BLOCK, 0, 1, 0, 0);
}

static __attribute__((noinline)) void band_step2(const block_state *s, const band *b)
{
    window_band(s, b, 2 * BLOCK, 0, 1, 0, 0);
}

static __attribute__((noinline)) void band_any(const block_state *s, const band *b, int32_t step, int32_t n)
{
    window_band(s, b, step, s->with_left, 0, n < BLOCK, vctp16q((uint32_t)n));
}

/* One image axis as the window sees it: sizes, stride, leading padding and the bytes between
 * neighbouring pixels in the input and the output. */
typedef struct
{
    int32_t in, out, stride, pad;
    int32_t in_step, out_step;
} axis;

/* Where a chunk of output columns reads: the window's width and which of its columns lie inside
 * the input. */
typedef struct
{
    int32_t count;   /* output columns */
    int32_t columns; /* window columns */
    int32_t i0;      /* input column of window column 0 (negative in the leading padding) */
    int32_t j0, j1;  /* window columns inside the input */
} chunk;

/* Window rows [0, rows) from padded input rows p0 on: the input pixels where the chunk covers the
 * input, the pad (-offset) elsewhere. Lanes past a partial block's channels read 0 (their weights
 * are 0, so any defined value works). image points at the block's first channel. */
static __attribute__((noinline)) void load_band(int8_t *window,
                                                const axis *row_axis,
                                                const axis *column_axis,
                                                const chunk *k,
                                                const int8_t *image,
                                                int32_t p0,
                                                int32_t rows,
                                                int16x8_t pad,
                                                int32_t n)
{
    /* Copied: every byte stored below could alias the structs, which the compiler would then reload. */
    const int32_t in_rows = row_axis->in;
    const int32_t pad_rows = row_axis->pad;
    const int32_t next_row = row_axis->in_step;
    const int32_t next_pixel = column_axis->in_step;
    const int32_t columns = k->columns;
    const int32_t before = k->j0;
    const int32_t inside = k->j1 - k->j0;
    const int32_t after = columns - k->j1;
    const int8_t *in_first = image + (k->i0 + before) * next_pixel;
    const mve_pred16_t lanes = vctp16q((uint32_t)n);
    int8_t *dst = window;
    for (int32_t r = 0; r < rows; ++r)
    {
        const int32_t i = p0 + r - pad_rows;
        if (i < 0 || i >= in_rows || inside == 0)
        {
            for (int32_t j = 0; j < columns; ++j)
            {
                vstrbq_s16(dst, pad);
                dst += BLOCK;
            }
            continue;
        }
        for (int32_t j = 0; j < before; ++j)
        {
            vstrbq_s16(dst, pad);
            dst += BLOCK;
        }
        const int8_t *src = in_first + i * next_row;
        if (n < BLOCK)
        {
            for (int32_t j = 0; j < inside; ++j)
            {
                vstrbq_s16(dst, vldrbq_z_s16(src, lanes));
                dst += BLOCK;
                src += next_pixel;
            }
        }
        else
        {
            for (int32_t j = 0; j < inside; ++j)
            {
                vstrbq_s16(dst, vldrbq_s16(src));
                dst += BLOCK;
                src += next_pixel;
            }
        }
        for (int32_t j = 0; j < after; ++j)
        {
            vstrbq_s16(dst, pad);
            dst += BLOCK;
        }
    }
}

/* Every output pixel of one image for one channel block, the window's rows along y (along_y, the
 * block's weights then transposed) or along x. Column chunks of at most MAX_COLUMNS window columns,
 * each in bands of as many window rows as fit. image and out_image point at the block's first
 * channel. */
static void run_window(const block_state *s,
                                                 const geometry *g,
                                                 const int8_t *image,
                                                 int8_t *out_image,
                                                 int8_t *window,
                                                 int16x8_t pad,
                                                 int32_t n,
                                                 int32_t along_y)
{
    const int32_t ch = g->channels;
    const axis y = {g->in_h, g->out_h, g->stride_h, g->pad_h, g->in_w * ch, g->out_w * ch};
    const axis x = {g->in_w, g->out_w, g->stride_w, g->pad_w, ch, ch};
    const axis *rows = along_y ? &x : &y;    /* the axis across window rows */
    const axis *columns = along_y ? &y : &x; /* the axis along a window row */
    const int32_t per_chunk = (MAX_COLUMNS - 3) / columns->stride + 1; /* output columns per chunk */
    const int32_t fast = n == BLOCK && s->all_right;
    for (int32_t o0 = 0; o0 < columns->out; o0 += per_chunk)
    {
        chunk k;
        k.count = columns->out - o0 < per_chunk ? columns->out - o0 : per_chunk;
        k.columns = (k.count - 1) * columns->stride + 3;
        k.i0 = o0 * columns->stride - columns->pad;
        const int32_t j0 = -k.i0 > 0 ? -k.i0 : 0;
        const int32_t j1 = columns->in - k.i0 < k.columns ? columns->in - k.i0 : k.columns;
        k.j0 = j0 < k.columns ? j0 : k.columns;
        k.j1 = j1 > k.j0 ? j1 : k.j0;
        const int32_t row_bytes = k.columns * BLOCK;
        const int32_t band_rows = WINDOW_BYTES / row_bytes;            /* at least MIN_BAND_ROWS */
        const int32_t per_band = (band_rows - 3) / rows->stride + 1; /* output rows per band */
        for (int32_t r0 = 0; r0 < rows->out; r0 += per_band)
        {
            band b;
            b.rows = rows->out - r0 < per_band ? rows->out - r0 : per_band;
            const int32_t window_rows = (b.rows - 1) * rows->stride + 3;
            load_band(window, rows, columns, &k, image, r0 * rows->stride, window_rows, pad, n);
            b.window = window;
            b.row_bytes = row_bytes;
            b.next_row = rows->stride * row_bytes;
            b.columns = k.count;
            b.out = out_image + r0 * rows->out_step + o0 * columns->out_step;
            b.out_row = rows->out_step;
            b.out_step = columns->out_step;
            if (fast && columns->stride == 1)
            {
                band_step1(s, &b);
            }
            else if (fast && columns->stride == 2)
            {
                band_step2(s, &b);
            }
            else
            {
                band_any(s, &b, columns->stride * BLOCK, n);
            }
        }
    }
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
    const geometry g = {input_dims->h, input_dims->w, channels, output_dims->h, output_dims->w,
                        p->stride.h, p->stride.w, p->padding.h, p->padding.w};
    const int32_t in_image = g.in_h * g.in_w * channels;
    const int32_t out_image = g.out_h * g.out_w * channels;

    int8_t window[WINDOW_BYTES];
    const int16x8_t pad = vdupq_n_s16((int16_t)-p->input_offset); /* stored as bytes: an int8 */
    /* The window's rows run along the output's longer axis (for kws 25x5: 7 window rows of 27 pixels,
     * not 27 of 7): fewer rows, so less per-row work and fewer unpaired pixels. */
    const int32_t along_y = g.out_h > g.out_w;
    block_state state;
    block_state *s = &state;
    for (int32_t c0 = 0; c0 < channels; c0 += BLOCK)
    {
        const int32_t n = channels - c0 < BLOCK ? channels - c0 : BLOCK;
        prepare_block(s, &g, p, quant_params, filter_data, bias_data, c0, n, along_y);
        for (int32_t b = 0; b < input_dims->n; ++b)
        {
            run_window(s, &g, input_data + b * in_image + c0, output_data + b * out_image + c0, window, pad, n,
                       along_y);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#else /* !HELIA_HELIUM_AVAILABLE: no MVE (e.g. a host build of a module converted for a Helium core) */

#include "arm_nnfunctions.h"

/* The kernel library's general entry with the same arguments: for every call this kernel accepts it
 * computes the same bytes (tests/kernels/test_helium_parity.py). */
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
    return arm_depthwise_conv_s8(ctx, dw_conv_params, quant_params, input_dims, input_data, filter_dims,
                                 filter_data, bias_dims, bias_data, output_dims, output_data);
}

#endif /* HELIA_HELIUM_AVAILABLE */
