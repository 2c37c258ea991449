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
 * to int16 and multiplies them by the tap's eight weights into int32 products: VMULLB gives the even
 * channels of the block, VMULLT the odd ones, so one accumulator holds channels 0, 2, 4, 6 and the
 * other 1, 3, 5, 7. Narrowing them back with VQMOVNB / VQMOVNT restores the channel order.
 *
 * The input offset is not added per tap: sum((x + offset) * w) = sum(x * w) + offset * sum(w), and
 * the second term plus the bias is where the accumulators start ("init").
 *
 * Padding: every output pixel reads a 3x3 window that lies inside the input, starting at row
 * clamp(iy0, 0, H - 3) and column clamp(ix0, 0, W - 3) (iy0, ix0: the window's first tap). When the
 * true window hangs over an edge by d rows or columns, the window read is d away from it, so the
 * weights are shifted by d and the taps that fall outside get weight 0; init sums only the weights
 * kept. A tap outside the input thus adds nothing, exactly as the reference skips it. Each shift
 * pair (dy, dx) has its own weights and init ("tap_state"), made once per channel block when first
 * needed. Inputs narrower or lower than 3 take a slower path that reads a pad vector of -offset
 * for outside taps instead (its product cancels that tap's share of init), so -offset must be an int8.
 *
 * Loop order: channel block outermost; within a row, pixels whose window is not shifted go two at a
 * time, sharing each weight load.
 */

#define BLOCK 8
#define TAPS 9
#define MAX_SHIFT 2  /* |dy|, |dx| <= 2 with padding <= 2; larger padding takes the pad-vector path */
#define SHIFTS (2 * MAX_SHIFT + 1)

/* Weights and start value for one channel block and one window shift: 104 bytes. */
typedef struct
{
    int8_t weight[TAPS][BLOCK]; /* by window position; lanes past the last channel are 0 */
    int32_t init[2][4];         /* [even, odd channels] */
} tap_state;

/* Requantization of one channel block, split into even and odd channels. */
typedef struct
{
    int32_t mult[2][4];
    int32_t left[2][4];      /* max(shift, 0) */
    int32_t neg_right[2][4]; /* min(shift, 0) */
} quant_state;

typedef struct
{
    int32_t in_h, in_w, channels, out_h, out_w;
    int32_t stride_h, stride_w, pad_h, pad_w;
    int32_t x_first, x_end; /* output columns [x_first, x_end) have an unshifted window */
    int32_t with_left;      /* some channel of the block has a positive shift */
    int32_t c0, n;          /* the block: channels [c0, c0 + n) */
    int16_t out_offset, act_min, act_max;
} geometry;

/* Per-channel requantization of the block, gathered into even / odd channel order. */
static int32_t prepare_quant(quant_state *q, const cmsis_nn_per_channel_quant_params *quant, int32_t c0, int32_t n)
{
    int32_t any_left = 0;
    for (int32_t half = 0; half < 2; ++half)
    {
        /* Channel indices half, half + 2, half + 4, half + 6 of the block; lanes past the end read 0. */
        const uint32x4_t index = vidupq_n_u32((uint32_t)half, 2);
        const mve_pred16_t valid = vctp32q((uint32_t)((n + 1 - half) / 2));
        vst1q_s32(q->mult[half], vldrwq_gather_shifted_offset_z_s32(quant->multiplier + c0, index, valid));
        const int32x4_t shift = vldrwq_gather_shifted_offset_z_s32(quant->shift + c0, index, valid);
        const int32x4_t left = vmaxq_s32(shift, vdupq_n_s32(0));
        vst1q_s32(q->left[half], left);
        vst1q_s32(q->neg_right[half], vminq_s32(shift, vdupq_n_s32(0)));
        any_left = vmaxvq_s32(any_left, left);
    }
    return any_left;
}

/* Weights and init of the block for a window shifted by (dy, dx): position (jy, jx) holds tap
 * (jy - dy, jx - dx), or 0 where that is no tap. */
static void prepare_taps(tap_state *t,
                         const geometry *g,
                         const int8_t *filter,
                         const int32_t *bias,
                         int32_t input_offset,
                         int32_t dy,
                         int32_t dx)
{
    const mve_pred16_t lanes = vctp16q((uint32_t)g->n);
    int16x8_t sum = vdupq_n_s16(0); /* at most 9 * 128 in magnitude */
    for (int32_t jy = 0; jy < 3; ++jy)
    {
        for (int32_t jx = 0; jx < 3; ++jx)
        {
            const int32_t ky = jy - dy;
            const int32_t kx = jx - dx;
            int16x8_t w = vdupq_n_s16(0);
            if (ky >= 0 && ky < 3 && kx >= 0 && kx < 3)
            {
                w = vldrbq_z_s16(filter + (ky * 3 + kx) * g->channels + g->c0, lanes);
            }
            vstrbq_s16(t->weight[jy * 3 + jx], w);
            sum = vaddq_s16(sum, w);
        }
    }
    const int32x4_t sums[2] = {vmovlbq_s16(sum), vmovltq_s16(sum)};
    for (int32_t half = 0; half < 2; ++half)
    {
        const uint32x4_t index = vidupq_n_u32((uint32_t)half, 2);
        const mve_pred16_t valid = vctp32q((uint32_t)((g->n + 1 - half) / 2));
        const int32x4_t b =
            bias != NULL ? vldrwq_gather_shifted_offset_z_s32(bias + g->c0, index, valid) : vdupq_n_s32(0);
        vst1q_s32(t->init[half], vmlaq_n_s32(b, sums[half], input_offset));
    }
}

/* Eight input channels at p, widened; the last, partial block reads only its own channels. */
HELIA_MVE_INLINE int16x8_t load_input(const int8_t *p, int32_t tail, mve_pred16_t lanes)
{
    return tail ? vldrbq_z_s16(p, lanes) : vldrbq_s16(p);
}

/* Requantize, offset, clamp and store one pixel's even / odd accumulators. */
HELIA_MVE_INLINE void store_pixel(const quant_state *q,
                                  const geometry *g,
                                  int32x4_t even,
                                  int32x4_t odd,
                                  int8_t *out,
                                  int32_t tail,
                                  mve_pred16_t lanes)
{
    even = helia_mve_requantize(even, q->mult[0], q->left[0], q->neg_right[0], g->with_left);
    odd = helia_mve_requantize(odd, q->mult[1], q->left[1], q->neg_right[1], g->with_left);
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

/* acc += x * w for one tap, even and odd channels. */
#define HELIA_DW_MAC(even, odd, x, w)                  \
    do                                                 \
    {                                                  \
        (even) = vaddq_s32((even), vmullbq_int_s16((x), (w))); \
        (odd) = vaddq_s32((odd), vmulltq_int_s16((x), (w)));   \
    } while (0)

/* One output pixel from nine tap addresses (window order). */
HELIA_MVE_INLINE void pixel(const tap_state *t,
                            const quant_state *q,
                            const geometry *g,
                            const int8_t *const tap[TAPS],
                            int8_t *out,
                            int32_t tail,
                            mve_pred16_t lanes)
{
    int32x4_t even = vldrwq_s32(t->init[0]);
    int32x4_t odd = vldrwq_s32(t->init[1]);
    /* Written out, not looped, so the nine addresses stay in registers. */
#define HELIA_DW_TAP(k) HELIA_DW_MAC(even, odd, load_input(tap[k], tail, lanes), vldrbq_s16(t->weight[k]))
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
    store_pixel(q, g, even, odd, out, tail, lanes);
}

/* `count` pairs of output pixels with the same weights; pair i's first window starts at
 * w0 + i * next_in (rows row_bytes apart) and writes out + i * next_out, its second is in_step /
 * out_step further. Each weight vector is loaded once per pair. Four accumulators, x, w and a
 * product: seven of the eight Q registers. Not inlined: one copy serves rows and columns. */
static __attribute__((noinline)) void pixel_pairs(const tap_state *t,
                                                  const quant_state *q,
                                                  const geometry *g,
                                                  const int8_t *w0,
                                                  int8_t *out,
                                                  int32_t count,
                                                  int32_t in_step,
                                                  int32_t out_step,
                                                  int32_t next_in,
                                                  int32_t next_out)
{
    const int32_t ch = g->channels;
    const int32_t row_bytes = g->in_w * ch;
    for (int32_t i = 0; i < count; ++i)
    {
        /* Re-hidden every pass: the compiler would otherwise hoist all the stack addresses out of the
         * loop and spill them, loading each from the stack before use. */
        const tap_state *tt = t;
        const quant_state *qq = q;
        HELIA_OPAQUE(tt);
        HELIA_OPAQUE(qq);
        const int8_t *r0 = w0;
        const int8_t *r1 = r0 + row_bytes;
        const int8_t *r2 = r1 + row_bytes;
        int32x4_t even_a = vldrwq_s32(tt->init[0]);
        int32x4_t odd_a = vldrwq_s32(tt->init[1]);
        int32x4_t even_b = even_a;
        int32x4_t odd_b = odd_a;
#define HELIA_DW_TAP2(k, p)                                             \
    do                                                                  \
    {                                                                   \
        const int16x8_t w = vldrbq_s16(tt->weight[k]);                  \
        HELIA_DW_MAC(even_a, odd_a, vldrbq_s16(p), w);                  \
        HELIA_DW_MAC(even_b, odd_b, vldrbq_s16((p) + in_step), w);      \
    } while (0)
        HELIA_DW_TAP2(0, r0);
        HELIA_DW_TAP2(1, r0 + ch);
        HELIA_DW_TAP2(2, r0 + 2 * ch);
        HELIA_DW_TAP2(3, r1);
        HELIA_DW_TAP2(4, r1 + ch);
        HELIA_DW_TAP2(5, r1 + 2 * ch);
        HELIA_DW_TAP2(6, r2);
        HELIA_DW_TAP2(7, r2 + ch);
        HELIA_DW_TAP2(8, r2 + 2 * ch);
#undef HELIA_DW_TAP2
        store_pixel(qq, g, even_a, odd_a, out, 0, 0);
        store_pixel(qq, g, even_b, odd_b, out + out_step, 0, 0);
        w0 += next_in;
        out += next_out;
    }
}

/* One output pixel whose window starts at w0 (a full block). */
static __attribute__((noinline)) void single_pixel(const tap_state *t,
                                                   const quant_state *q,
                                                   const geometry *g,
                                                   const int8_t *w0,
                                                   int8_t *out)
{
    const int32_t ch = g->channels;
    const int32_t row_bytes = g->in_w * ch;
    const int8_t *const tap[TAPS] = {w0, w0 + ch, w0 + 2 * ch,
                                     w0 + row_bytes, w0 + row_bytes + ch, w0 + row_bytes + 2 * ch,
                                     w0 + 2 * row_bytes, w0 + 2 * row_bytes + ch, w0 + 2 * row_bytes + 2 * ch};
    pixel(t, q, g, tap, out, 0, 0);
}

/* Output pixels [oy0, oy1) x [ox0, ox1) read tap by tap: the pad vector (-input_offset) for taps
 * outside the input, with the unshifted weights t. Predicated, so it also serves the last,
 * partial channel block. image and out_image point at the block's first channel. */
static __attribute__((noinline)) void padded_pixels(const tap_state *t,
                                                    const quant_state *q,
                                                    const geometry *g,
                                                    const int8_t *image,
                                                    int8_t *out_image,
                                                    const int8_t *pad,
                                                    int32_t oy0,
                                                    int32_t oy1,
                                                    int32_t ox0,
                                                    int32_t ox1,
                                                    mve_pred16_t lanes)
{
    const int32_t ch = g->channels;
    for (int32_t oy = oy0; oy < oy1; ++oy)
    {
        const int8_t *row[3]; /* NULL: the row is outside */
        for (int32_t ky = 0; ky < 3; ++ky)
        {
            const int32_t iy = oy * g->stride_h - g->pad_h + ky;
            row[ky] = iy >= 0 && iy < g->in_h ? image + iy * g->in_w * ch : NULL;
        }
        for (int32_t ox = ox0; ox < ox1; ++ox)
        {
            const int8_t *tap[TAPS];
            for (int32_t kx = 0; kx < 3; ++kx)
            {
                const int32_t ix = ox * g->stride_w - g->pad_w + kx;
                const int32_t inside = ix >= 0 && ix < g->in_w;
                for (int32_t ky = 0; ky < 3; ++ky)
                {
                    tap[ky * 3 + kx] = inside && row[ky] != NULL ? row[ky] + ix * ch : pad;
                }
            }
            pixel(t, q, g, tap, out_image + (oy * g->out_w + ox) * ch, 1, lanes);
        }
    }
}

/* helia_mve_requantize for the channels of `index` (from c0), multiplier and shift gathered directly. */
HELIA_MVE_INLINE int32x4_t requantize_gathered(int32x4_t acc,
                                               const cmsis_nn_per_channel_quant_params *quant,
                                               int32_t c0,
                                               uint32x4_t index,
                                               mve_pred16_t valid,
                                               int32_t with_left)
{
    const int32x4_t shift = vldrwq_gather_shifted_offset_z_s32(quant->shift + c0, index, valid);
    if (with_left)
    {
        acc = vshlq_s32(acc, vmaxq_s32(shift, vdupq_n_s32(0)));
    }
    const int32x4_t scaled =
        vqrdmulhq_s32(acc, vldrwq_gather_shifted_offset_z_s32(quant->multiplier + c0, index, valid));
    const int32x4_t neg_right = vminq_s32(shift, vdupq_n_s32(0));
    const int32x4_t lower = vshrq_n_s32(vandq_s32(scaled, neg_right), 31);
    return vrshlq_s32(vqaddq_s32(scaled, lower), neg_right);
}

/* Small outputs, many channels: pixel by pixel, each pixel's inside taps found once and then every
 * channel block run over them, with the filter read directly and the input offset added to each input
 * (x + offset fits int16), so no tap states are made and outside taps are simply not read.
 * image / out_image: the batch's input / output. */
static void pixel_major(const cmsis_nn_per_channel_quant_params *quant,
                        const geometry *g,
                        const int8_t *image,
                        int8_t *out_image,
                        const int8_t *filter,
                        const int32_t *bias,
                        int32_t input_offset,
                        int32_t with_left)
{
    const int32_t ch = g->channels;
    const uint32x4_t index_even = vidupq_n_u32(0, 2);
    const uint32x4_t index_odd = vidupq_n_u32(1, 2);
    for (int32_t oy = 0; oy < g->out_h; ++oy)
    {
        for (int32_t ox = 0; ox < g->out_w; ++ox)
        {
            const int8_t *x_at[TAPS];
            const int8_t *w_at[TAPS];
            int32_t taps = 0;
            for (int32_t ky = 0; ky < 3; ++ky)
            {
                const int32_t iy = oy * g->stride_h - g->pad_h + ky;
                for (int32_t kx = 0; kx < 3; ++kx)
                {
                    const int32_t ix = ox * g->stride_w - g->pad_w + kx;
                    if (iy >= 0 && iy < g->in_h && ix >= 0 && ix < g->in_w)
                    {
                        x_at[taps] = image + (iy * g->in_w + ix) * ch;
                        w_at[taps] = filter + (ky * 3 + kx) * ch;
                        ++taps;
                    }
                }
            }
            int8_t *out = out_image + (oy * g->out_w + ox) * ch;
            for (int32_t c0 = 0; c0 < ch; c0 += BLOCK)
            {
                const int32_t n = ch - c0 < BLOCK ? ch - c0 : BLOCK;
                const mve_pred16_t lanes = vctp16q((uint32_t)n);
                const mve_pred16_t even_lanes = vctp32q((uint32_t)((n + 1) / 2));
                const mve_pred16_t odd_lanes = vctp32q((uint32_t)(n / 2));
                int32x4_t even = vdupq_n_s32(0);
                int32x4_t odd = vdupq_n_s32(0);
                if (bias != NULL)
                {
                    even = vldrwq_gather_shifted_offset_z_s32(bias + c0, index_even, even_lanes);
                    odd = vldrwq_gather_shifted_offset_z_s32(bias + c0, index_odd, odd_lanes);
                }
                for (int32_t t = 0; t < taps; ++t)
                {
                    /* Lanes past the last channel read 0 weights, so their products are 0. */
                    const int16x8_t x = vaddq_n_s16(vldrbq_z_s16(x_at[t] + c0, lanes), (int16_t)input_offset);
                    HELIA_DW_MAC(even, odd, x, vldrbq_z_s16(w_at[t] + c0, lanes));
                }
                even = requantize_gathered(even, quant, c0, index_even, even_lanes, with_left);
                odd = requantize_gathered(odd, quant, c0, index_odd, odd_lanes, with_left);
                int16x8_t v = vqmovntq_s32(vqmovnbq_s32(vuninitializedq_s16(), even), odd);
                v = vqaddq_n_s16(v, g->out_offset);
                v = vmaxq_s16(v, vdupq_n_s16(g->act_min));
                v = vminq_s16(v, vdupq_n_s16(g->act_max));
                vstrbq_p_s16(out + c0, v, lanes);
            }
        }
    }
}

/* Window placement along one axis: the first row / column read, and the shift d (see the top). */
static int32_t window_start(int32_t first_tap, int32_t length, int32_t *shift)
{
    const int32_t start = first_tap < 0 ? 0 : (first_tap > length - 3 ? length - 3 : first_tap);
    *shift = first_tap - start;
    return start;
}

/* Tap states of one channel block, made on first use; state[dx] holds shift (current_dy, dx). */
typedef struct
{
    tap_state plain; /* shift (0, 0): made first for every block */
    tap_state state[SHIFTS];
    int32_t ready[SHIFTS];
    int32_t current_dy;
    const int8_t *filter;
    const int32_t *bias;
    int32_t input_offset;
} tap_cache;

static const tap_state *tap_state_for(tap_cache *cache, const geometry *g, int32_t dy, int32_t dx)
{
    if (dy != cache->current_dy)
    {
        for (int32_t i = 0; i < SHIFTS; ++i)
        {
            cache->ready[i] = 0;
        }
        cache->current_dy = dy;
    }
    tap_state *t = &cache->state[dx + MAX_SHIFT];
    if (!cache->ready[dx + MAX_SHIFT])
    {
        prepare_taps(t, g, cache->filter, cache->bias, cache->input_offset, dy, dx);
        cache->ready[dx + MAX_SHIFT] = 1;
    }
    return t;
}

/* Every output pixel of one image for one full channel block. shifted: edge pixels use shifted
 * windows (tap states); otherwise they are read tap by tap through the pad vector. */
static void run_block(tap_cache *cache,
                      const quant_state *q,
                      const geometry *g,
                      const int8_t *image,
                      int8_t *out_image,
                      const int8_t *pad,
                      int32_t shifted)
{
    const int32_t ch = g->channels;
    const int32_t row_bytes = g->in_w * ch;
    const int32_t step = g->stride_w * ch;
    const int32_t out_row = g->out_w * ch;
    const tap_state *plain = &cache->plain;
    for (int32_t oy = 0; oy < g->out_h;)
    {
        int32_t dy;
        int32_t dy_next = MAX_SHIFT + 1;
        const int32_t sy = window_start(oy * g->stride_h - g->pad_h, g->in_h, &dy);
        if (oy + 1 < g->out_h)
        {
            (void)window_start((oy + 1) * g->stride_h - g->pad_h, g->in_h, &dy_next);
        }
        if (!shifted && dy != 0)
        {
            padded_pixels(plain, q, g, image, out_image, pad, oy, oy + 1, 0, g->out_w, vctp16q(BLOCK));
            ++oy;
            continue;
        }
        const int32_t rows = dy_next == dy ? 2 : 1;
        const int8_t *r0 = image + sy * row_bytes;
        int8_t *out = out_image + oy * out_row;
        for (int32_t ox = 0; ox < g->out_w;)
        {
            int32_t dx;
            const int32_t sx = window_start(ox * g->stride_w - g->pad_w, g->in_w, &dx);
            /* Columns with this shift: the unshifted run, or one edge column. */
            const int32_t run = dx == 0 ? g->x_end - ox : 1;
            if (!shifted && dx != 0)
            {
                padded_pixels(plain, q, g, image, out_image, pad, oy, oy + rows, ox, ox + 1, vctp16q(BLOCK));
                ++ox;
                continue;
            }
            const tap_state *t = dy == 0 && dx == 0 ? plain : tap_state_for(cache, g, dy, dx);
            const int8_t *w0 = r0 + sx * ch;
            if (rows == 2)
            {
                /* Two output rows at once: pairs one stride of rows apart, along the run. */
                pixel_pairs(t, q, g, w0, out + ox * ch, run, g->stride_h * row_bytes, out_row, step, ch);
            }
            else
            {
                pixel_pairs(t, q, g, w0, out + ox * ch, run / 2, step, ch, 2 * step, 2 * ch);
                if (run % 2 != 0)
                {
                    single_pixel(t, q, g, w0 + (run - 1) * step, out + (ox + run - 1) * ch);
                }
            }
            ox += run;
        }
        oy += rows;
    }
}

/* Output columns whose window needs no shift: ix0 = ox * stride - pad in [0, in_w - 3]. */
static void unshifted_columns(geometry *g)
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
                  p->stride.h, p->stride.w, p->padding.h, p->padding.w, 0, 0, 0, 0, 0,
                  (int16_t)p->output_offset, (int16_t)p->activation.min, (int16_t)p->activation.max};
    unshifted_columns(&g);
    const int32_t small = g.in_h < 3 || g.in_w < 3 || g.pad_h > MAX_SHIFT || g.pad_w > MAX_SHIFT ||
        (g.out_h - 1) * g.stride_h - g.pad_h > g.in_h - 3 + MAX_SHIFT ||
        (g.out_w - 1) * g.stride_w - g.pad_w > g.in_w - 3 + MAX_SHIFT;

    /* The small path's outside taps read this: -input_offset cancels their share of init. */
    int8_t pad[BLOCK];
    for (int32_t i = 0; i < BLOCK; ++i)
    {
        pad[i] = (int8_t)-p->input_offset;
    }
    const int32_t in_image = g.in_h * g.in_w * channels;
    const int32_t out_image = g.out_h * g.out_w * channels;
    /* Edge pixels through shifted windows cost one tap state per shift pair (about 90 instructions
     * each, per block); through the pad vector about 50 more per pixel than an unshifted one. */
    int32_t y_first, y_end;
    {
        int32_t d;
        y_first = 0;
        while (y_first < g.out_h && (window_start(y_first * g.stride_h - g.pad_h, g.in_h, &d), d != 0))
        {
            ++y_first;
        }
        y_end = y_first;
        while (y_end < g.out_h && (window_start(y_end * g.stride_h - g.pad_h, g.in_h, &d), d == 0))
        {
            ++y_end;
        }
    }
    const int32_t edge_pixels = g.out_h * g.out_w - (y_end - y_first) * (g.x_end - g.x_first);
    const int32_t shift_pairs = (g.out_h - (y_end - y_first) + 1) * (g.out_w - (g.x_end - g.x_first) + 1);
#ifdef HELIA_MVE_DW3X3_SHIFTED /* tests force either edge method */
    const int32_t shifted = HELIA_MVE_DW3X3_SHIFTED;
    (void)edge_pixels;
    (void)shift_pairs;
#else
    const int32_t shifted = 90 * shift_pairs < 50 * edge_pixels;
#endif

#ifdef HELIA_MVE_DW3X3_PIXEL_MAJOR /* tests force either loop order */
    const int32_t pixel_first = HELIA_MVE_DW3X3_PIXEL_MAJOR;
#else
    /* Measured: pixel-major wins only where the output has at most nine pixels (vww 3x3x256 s1: 51k
     * instructions against 100k; 6x6x128 s2: 31k against 40k); from 36 pixels on the blocks win. */
    const int32_t pixel_first = g.out_h * g.out_w <= 9;
#endif
    if (pixel_first)
    {
        int32_t any_left = 0;
        for (int32_t c = 0; c < channels; ++c)
        {
            any_left |= quant_params->shift[c] > 0;
        }
        for (int32_t b = 0; b < input_dims->n; ++b)
        {
            pixel_major(quant_params, &g, input_data + b * in_image, output_data + b * out_image, filter_data,
                        bias_data, p->input_offset, any_left);
        }
        return ARM_CMSIS_NN_SUCCESS;
    }
    tap_cache cache;
    cache.filter = filter_data;
    cache.bias = bias_data;
    cache.input_offset = p->input_offset;
    quant_state q;
    quant_state *qp = &q;
    HELIA_OPAQUE(qp);
    for (int32_t c0 = 0; c0 < channels; c0 += BLOCK)
    {
        g.c0 = c0;
        g.n = channels - c0 < BLOCK ? channels - c0 : BLOCK;
        g.with_left = prepare_quant(qp, quant_params, c0, g.n);
        cache.current_dy = MAX_SHIFT + 1;
        prepare_taps(&cache.plain, &g, filter_data, bias_data, p->input_offset, 0, 0);
        for (int32_t b = 0; b < input_dims->n; ++b)
        {
            const int8_t *image = input_data + b * in_image + c0;
            int8_t *out = output_data + b * out_image + c0;
            if (small || g.n < BLOCK)
            {
                padded_pixels(&cache.plain, qp, &g, image, out, pad, 0, g.out_h, 0, g.out_w, vctp16q((uint32_t)g.n));
            }
            else
            {
                run_block(&cache, qp, &g, image, out, pad, shifted);
            }
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
