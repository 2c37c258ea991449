/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot DSP kernels: helia_dsp_depthwise_conv_3x3_s8, int8 3x3 depthwise convolution with the
 * Armv7E-M DSP extension, without scratch memory. */

#include "helia_dsp.h"

#if HELIA_DSP_AVAILABLE

#include <arm_acle.h>
#include <stddef.h>
#include <string.h>

/*
 * Channels go four at a time in one 32-bit word. Per tap, one word load of the four input bytes and
 * two SXTAB16 give the input plus the offset as int16 pairs: channels 0 and 2, and (the word rotated
 * by 8) channels 1 and 3. The group's weights are extended once into the same pairs, so each MAC is
 * one SMLABB or SMLATT into its channel's int32 sum. A tap in the padding is skipped, as the reference
 * skips it: interior pixels run all nine taps at fixed offsets without a branch, edge pixels loop over
 * the taps inside only (on small planes most pixels are edge pixels, and four or six taps cost less
 * than nine; folding the offset into the start values instead would make every skipped tap need a
 * correction).
 *
 * Requantization: the common group (every shift a right shift of 1 to 20, bias within 2^28) keeps its
 * sums doubled (weights and bias doubled, which costs nothing), so TFLite's rounding doubling high
 * multiply round(acc * m / 2^31) is one SMMULR (round(2 acc * m / 2^32)); the rounding shift, with the
 * output offset folded into its rounding constant, is an add, an add of the sign and an arithmetic
 * shift; SSAT narrows to int8, and SSUB8 / SEL clamp four channels at once. Other groups (left shifts,
 * shift 0 or beyond 20, large biases) take the scalar requantization, written as the reference.
 *
 * Loop order: channel group outermost (its weights and constants prepared once), then every output
 * pixel; interior pixels at strides 1 and 2 in pairs sharing their overlapping input words, weights
 * and constants (half_pair). Outputs of a few pixels go pixel-major instead (run_pixels). A last group
 * of one to three channels runs a scalar loop.
 */

#define GROUP 4
#define TAPS 9
#define MAX_FAST_RIGHT 20
#define MAX_FAST_BIAS (1 << 28)

/* Interior pixels in pairs at strides 1 and 2 (half_pair's asm), only when optimizing: the asm takes
 * 13 registers, and without optimization r7 is the frame pointer. Tests may set it to 0. */
#ifndef HELIA_DSP_DW3X3_PAIRS
#if defined(__OPTIMIZE__)
#define HELIA_DSP_DW3X3_PAIRS 1
#else
#define HELIA_DSP_DW3X3_PAIRS 0
#endif
#endif

/* One channel group's constants. */
typedef struct
{
    int32_t weight[TAPS][2]; /* per tap: int16 pairs (channels 0, 2) and (1, 3); doubled in fast groups */
    int32_t init[GROUP];     /* bias (doubled in fast groups) */
    int32_t multiplier[GROUP];
    int32_t shift[GROUP];    /* the per-channel shift as given (general groups) */
    int32_t right[GROUP];    /* fast groups: the right shift */
    int32_t rounding[GROUP]; /* fast groups: 2^(right - 1) + output_offset * 2^right */
    int32_t offset2;         /* input_offset in both int16 halves */
    uint32_t act_min4;       /* activation bounds in all four bytes */
    uint32_t act_max4;
    int32_t out_offset;
    int32_t act_min, act_max;
    int32_t fast;
} group_state;

typedef struct
{
    int32_t in_h, in_w, channels, out_h, out_w;
    int32_t stride_h, stride_w, pad_h, pad_w;
    /* Output columns [x0, x1) have all three taps inside the input along x, rows [y0, y1) along y. */
    int32_t x0, x1, y0, y1;
} geometry;

#define HELIA_DSP_INLINE static inline __attribute__((always_inline))

/* Hides where a pointer points, so the compiler forms each tap row's address from the pixel's pointer
 * (one ADD) instead of keeping a pointer per row across the pixel loop, which it then spills. */
#if defined(__GNUC__)
#define HELIA_OPAQUE(p) __asm__("" : "+r"(p))
#else
#define HELIA_OPAQUE(p) (void)(p)
#endif

/* Four input bytes; memcpy so that an unaligned address is fine (Armv7-M LDR allows it). */
HELIA_DSP_INLINE uint32_t load4(const int8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

/* a + the sign-extended bytes 1 and 3 of x, as two int16 lanes (SXTAB16 with its rotation, which GCC
 * does not fold from __sxtab16(a, __ror(x, 8))). */
HELIA_DSP_INLINE int32_t sxtab16_ror8(int32_t a, uint32_t x)
{
    int32_t r;
    __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(x));
    return r;
}

/* round(a * b / 2^32), ties up. */
HELIA_DSP_INLINE int32_t smmulr(int32_t a, int32_t b)
{
    int32_t r;
    __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

/* One tap for four channels: the input word's bytes plus the offset, times the tap's weight pairs. */
#define HELIA_DSP_TAP(x, w, offset2)                       \
    do                                                     \
    {                                                      \
        const uint32_t raw_ = (x);                         \
        const int32_t *w_ = (w);                           \
        const int32_t even_ = __sxtab16((offset2), raw_);  \
        const int32_t odd_ = sxtab16_ror8((offset2), raw_); \
        acc0 = __smlabb(even_, w_[0], acc0);               \
        acc2 = __smlatt(even_, w_[0], acc2);               \
        acc1 = __smlabb(odd_, w_[1], acc1);                \
        acc3 = __smlatt(odd_, w_[1], acc3);                \
    } while (0)

/* Inserts the low byte of b into a at bit `lsb`. */
#define HELIA_DSP_BFI8(a, b, lsb) __asm__("bfi %0, %1, #" #lsb ", #8" : "+r"(a) : "r"(b))

/* The reference's requantization (helia_requantize in the portable kernels), for any shift in
 * [-31, 30]: wrapping left shift, rounding doubling high multiply, rounding right shift (ties away
 * from zero). */
static int32_t requantize_exact(int32_t acc, int32_t multiplier, int32_t shift)
{
    const int32_t left = shift > 0 ? shift : 0;
    const int32_t right = shift > 0 ? 0 : -shift;
    const int32_t v = (int32_t)((uint32_t)acc << left);
    const int64_t product = (int64_t)v * multiplier + ((int64_t)1 << 30);
    const int32_t x = (int32_t)(product >> 31);
    const int32_t mask = (int32_t)(((uint32_t)1 << right) - 1u);
    const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> right) + ((x & mask) > threshold ? 1 : 0);
}

/* The reference's output step: offset added (wrapping, as the reference's int32 add does on these
 * cores), then clamped. */
static int8_t finish_exact(int32_t scaled, int32_t out_offset, int32_t act_min, int32_t act_max)
{
    int32_t v = (int32_t)((uint32_t)scaled + (uint32_t)out_offset);
    v = v < act_min ? act_min : v;
    return (int8_t)(v > act_max ? act_max : v);
}

/* Fast groups: one channel's doubled sum to an int8 (before the clamp). Bounds: |acc| < 2^30 (doubled
 * bias within 2^29 plus 18 * 255 * 128), so |x| <= 2^29 + 1 and x + rounding + sign stays in int32
 * (rounding < 2^19 + 2^27). */
HELIA_DSP_INLINE int32_t requantize_fast(int32_t acc, const group_state *s, int32_t c)
{
    const int32_t x = smmulr(acc, s->multiplier[c]);
    return __ssat((x + s->rounding[c] + (x >> 31)) >> s->right[c], 8);
}

/* Requantizes a group's four sums and stores the four output bytes (fast: a compile-time constant). */
HELIA_DSP_INLINE void store_group(const group_state *s, int32_t fast, int32_t acc0, int32_t acc1, int32_t acc2,
                                  int32_t acc3, int8_t *out)
{
    uint32_t word;
    if (fast)
    {
        word = (uint32_t)requantize_fast(acc0, s, 0) & 0xFFu;
        HELIA_DSP_BFI8(word, requantize_fast(acc1, s, 1), 8);
        HELIA_DSP_BFI8(word, requantize_fast(acc2, s, 2), 16);
        HELIA_DSP_BFI8(word, requantize_fast(acc3, s, 3), 24);
        /* Clamp all four bytes: SSUB8 sets GE per byte where the first operand is not below the second,
         * SEL takes those bytes from its first operand. */
        const uint32_t lo = s->act_min4;
        const uint32_t hi = s->act_max4;
        (void)__ssub8((int8x4_t)word, (int8x4_t)lo);
        word = __sel(word, lo);
        (void)__ssub8((int8x4_t)hi, (int8x4_t)word);
        word = __sel(word, hi);
    }
    else
    {
        const int32_t acc[GROUP] = {acc0, acc1, acc2, acc3};
        int8_t b[GROUP];
        for (int32_t c = 0; c < GROUP; ++c)
        {
            b[c] = finish_exact(requantize_exact(acc[c], s->multiplier[c], s->shift[c]), s->out_offset, s->act_min,
                                s->act_max);
        }
        memcpy(&word, b, sizeof(word));
    }
    memcpy(out, &word, sizeof(word));
}

/* An output pixel whose nine taps are all inside the input; in points at its top-left tap. */
HELIA_DSP_INLINE void interior_pixel(const group_state *s, int32_t fast, const int8_t *in, int32_t ch, int32_t row,
                                     int8_t *out)
{
    const int32_t offset2 = s->offset2;
    int32_t acc0 = s->init[0], acc1 = s->init[1], acc2 = s->init[2], acc3 = s->init[3];
    const int8_t *r = in;
    HELIA_OPAQUE(r);
    HELIA_DSP_TAP(load4(r), s->weight[0], offset2);
    HELIA_DSP_TAP(load4(r + ch), s->weight[1], offset2);
    HELIA_DSP_TAP(load4(r + 2 * ch), s->weight[2], offset2);
    r += row;
    HELIA_OPAQUE(r);
    HELIA_DSP_TAP(load4(r), s->weight[3], offset2);
    HELIA_DSP_TAP(load4(r + ch), s->weight[4], offset2);
    HELIA_DSP_TAP(load4(r + 2 * ch), s->weight[5], offset2);
    r += row;
    HELIA_OPAQUE(r);
    HELIA_DSP_TAP(load4(r), s->weight[6], offset2);
    HELIA_DSP_TAP(load4(r + ch), s->weight[7], offset2);
    HELIA_DSP_TAP(load4(r + 2 * ch), s->weight[8], offset2);
    store_group(s, fast, acc0, acc1, acc2, acc3, out);
}

/* An output pixel with taps in the padding, its top-left tap at input row iy, column ix (either may be
 * negative): only the taps [ky0, ky1) x [kx0, kx1) inside the input are addressed and read. */
HELIA_DSP_INLINE void edge_pixel(const group_state *s, int32_t fast, const int8_t *image, int32_t iy, int32_t ix,
                                 const geometry *g, int8_t *out)
{
    const int32_t ky0 = iy < 0 ? -iy : 0;
    const int32_t ky1 = g->in_h - iy < 3 ? g->in_h - iy : 3;
    const int32_t kx0 = ix < 0 ? -ix : 0;
    const int32_t kx1 = g->in_w - ix < 3 ? g->in_w - ix : 3;
    const int32_t ch = g->channels;
    const int32_t offset2 = s->offset2;
    const int32_t columns = kx1 - kx0;
    int32_t acc0 = s->init[0], acc1 = s->init[1], acc2 = s->init[2], acc3 = s->init[3];
    if (columns > 0 && ky1 > ky0)
    {
        const int32_t row = g->in_w * ch;
        const int8_t *first = image + ((iy + ky0) * g->in_w + ix + kx0) * ch;
        /* Rows of one to three taps, unrolled (a loop per tap cost more than the taps). Each row's
         * address from its index, so no pointer passes the input's last row. */
        for (int32_t k = 0; k < ky1 - ky0; ++k)
        {
            const int8_t *r = first + k * row;
            const int32_t *w = s->weight[(ky0 + k) * 3 + kx0];
            HELIA_DSP_TAP(load4(r), w, offset2);
            if (columns > 1)
            {
                HELIA_DSP_TAP(load4(r + ch), w + 2, offset2);
            }
            if (columns > 2)
            {
                HELIA_DSP_TAP(load4(r + 2 * ch), w + 4, offset2);
            }
        }
    }
    store_group(s, fast, acc0, acc1, acc2, acc3, out);
}

/* The edge pixels [ox0, ox1) of output row oy, per requantization variant (fast: a constant). */
HELIA_DSP_INLINE void edge_run(const group_state *s, int32_t fast, const int8_t *image, const geometry *g, int32_t oy,
                               int32_t ox0, int32_t ox1, int8_t *out_row)
{
    const int32_t iy = oy * g->stride_h - g->pad_h;
    for (int32_t ox = ox0; ox < ox1; ++ox)
    {
        edge_pixel(s, fast, image, iy, ox * g->stride_w - g->pad_w, g, out_row + ox * g->channels);
    }
}

static __attribute__((noinline)) void edge_run_fast(const group_state *s, const int8_t *image, const geometry *g,
                                                    int32_t oy, int32_t ox0, int32_t ox1, int8_t *out_row)
{
    edge_run(s, 1, image, g, oy, ox0, ox1, out_row);
}

static __attribute__((noinline)) void edge_run_general(const group_state *s, const int8_t *image,
                                                       const geometry *g, int32_t oy, int32_t ox0, int32_t ox1,
                                                       int8_t *out_row)
{
    edge_run(s, 0, image, g, oy, ox0, ox1, out_row);
}

/* The interior pixels of one output row: count pixels from in (top-left tap) on. A constant `fast`
 * selects the requantization; each variant gets its own loop. */
HELIA_DSP_INLINE void interior_row(const group_state *s, int32_t fast, const int8_t *in, int32_t ch, int32_t row,
                                   int32_t in_step, int8_t *out, int32_t count)
{
    for (; count > 0; --count)
    {
        interior_pixel(s, fast, in, ch, row, out);
        in += in_step;
        out += ch;
    }
}

#if HELIA_DSP_DW3X3_PAIRS

/* SXTAB16 of x (channels 0, 2) or of x rotated by 8 (channels 1, 3); odd is a constant. */
HELIA_DSP_INLINE int32_t extend_half(int32_t offset2, uint32_t x, int32_t odd)
{
    return odd ? sxtab16_ror8(offset2, x) : __sxtab16(offset2, x);
}

/* One tap row of a half pass at stride 1: four input words x0..x3 (x3 at r + 3 ch, reached by moving r
 * on by ch, and then to the next row by row - ch), each extended once; pixel a takes x0..x2 with the
 * row's weights w0..w2, pixel b x1..x3. EXT is the extension: "" (channels 0, 2) or ", ror #8" (1, 3);
 * W the byte offset of the row's first weight pair. */
#define HELIA_DSP_HALF_ROW(EXT, W)                    \
    "ldr %[w0], [%[w], #" #W "]\n\t"                   \
    "ldr %[w1], [%[w], #" #W " + 8]\n\t"               \
    "ldr %[w2], [%[w], #" #W " + 16]\n\t"              \
    "ldr %[e], [%[r]]\n\t"                             \
    "sxtab16 %[e], %[off], %[e]" EXT "\n\t"            \
    "smlabb %[la], %[e], %[w0], %[la]\n\t"             \
    "smlatt %[ha], %[e], %[w0], %[ha]\n\t"             \
    "ldr %[e], [%[r], %[ch]]\n\t"                      \
    "sxtab16 %[e], %[off], %[e]" EXT "\n\t"            \
    "smlabb %[la], %[e], %[w1], %[la]\n\t"             \
    "smlatt %[ha], %[e], %[w1], %[ha]\n\t"             \
    "smlabb %[lb], %[e], %[w0], %[lb]\n\t"             \
    "smlatt %[hb], %[e], %[w0], %[hb]\n\t"             \
    "ldr %[e], [%[r], %[ch], lsl #1]\n\t"              \
    "sxtab16 %[e], %[off], %[e]" EXT "\n\t"            \
    "smlabb %[la], %[e], %[w2], %[la]\n\t"             \
    "smlatt %[ha], %[e], %[w2], %[ha]\n\t"             \
    "smlabb %[lb], %[e], %[w1], %[lb]\n\t"             \
    "smlatt %[hb], %[e], %[w1], %[hb]\n\t"             \
    "add %[r], %[r], %[ch]\n\t"                        \
    "ldr %[e], [%[r], %[ch], lsl #1]\n\t"              \
    "sxtab16 %[e], %[off], %[e]" EXT "\n\t"            \
    "smlabb %[lb], %[e], %[w2], %[lb]\n\t"             \
    "smlatt %[hb], %[e], %[w2], %[hb]\n\t"             \
    "add %[r], %[r], %[next]\n\t"

/* The same at stride 2: five input words x0..x4, pixel a taking x0..x2, pixel b x2..x4 (r moves on by
 * 2 ch to reach x3 and x4, then by row - 2 ch). */
#define HELIA_DSP_HALF_ROW2(EXT, W)                   \
    "ldr %[w0], [%[w], #" #W "]\n\t"                   \
    "ldr %[w1], [%[w], #" #W " + 8]\n\t"               \
    "ldr %[w2], [%[w], #" #W " + 16]\n\t"              \
    "ldr %[e], [%[r]]\n\t"                             \
    "sxtab16 %[e], %[off], %[e]" EXT "\n\t"            \
    "smlabb %[la], %[e], %[w0], %[la]\n\t"             \
    "smlatt %[ha], %[e], %[w0], %[ha]\n\t"             \
    "ldr %[e], [%[r], %[ch]]\n\t"                      \
    "sxtab16 %[e], %[off], %[e]" EXT "\n\t"            \
    "smlabb %[la], %[e], %[w1], %[la]\n\t"             \
    "smlatt %[ha], %[e], %[w1], %[ha]\n\t"             \
    "ldr %[e], [%[r], %[ch], lsl #1]\n\t"              \
    "sxtab16 %[e], %[off], %[e]" EXT "\n\t"            \
    "smlabb %[la], %[e], %[w2], %[la]\n\t"             \
    "smlatt %[ha], %[e], %[w2], %[ha]\n\t"             \
    "smlabb %[lb], %[e], %[w0], %[lb]\n\t"             \
    "smlatt %[hb], %[e], %[w0], %[hb]\n\t"             \
    "add %[r], %[r], %[ch], lsl #1\n\t"                \
    "ldr %[e], [%[r], %[ch]]\n\t"                      \
    "sxtab16 %[e], %[off], %[e]" EXT "\n\t"            \
    "smlabb %[lb], %[e], %[w1], %[lb]\n\t"             \
    "smlatt %[hb], %[e], %[w1], %[hb]\n\t"             \
    "ldr %[e], [%[r], %[ch], lsl #1]\n\t"              \
    "sxtab16 %[e], %[off], %[e]" EXT "\n\t"            \
    "smlabb %[lb], %[e], %[w2], %[lb]\n\t"             \
    "smlatt %[hb], %[e], %[w2], %[hb]\n\t"             \
    "add %[r], %[r], %[next]\n\t"

/* One half of a group (channels 0, 2 or, odd, 1, 3; a constant) for two neighbouring interior pixels
 * a and b at stride 1 or 2 (a constant). Their windows overlap: each input word is loaded and extended once for both
 * (four words per tap row against six at stride 1, five at stride 2), each weight pair loaded once for
 * both; a half at a time, so
 * the four sums, the row's three weights and the pointers fit in registers. In asm: GCC spilled the
 * same C (it needs 13 registers at once), which cost more than the sharing saved. */
HELIA_DSP_INLINE void half_pair(const group_state *s, int32_t odd, int32_t stride, const int8_t *in, int32_t ch,
                                int32_t row, int32_t *lo_a, int32_t *hi_a, int32_t *lo_b, int32_t *hi_b)
{
    int32_t la = s->init[odd], ha = s->init[odd + 2];
    int32_t lb = la, hb = ha;
    const int8_t *r = in;
    const int32_t *w = &s->weight[0][odd];
    int32_t w0, w1, w2, e;
    if (stride == 1 && odd)
    {
        __asm__ volatile(HELIA_DSP_HALF_ROW(", ror #8", 0) HELIA_DSP_HALF_ROW(", ror #8", 24) HELIA_DSP_HALF_ROW(", ror #8", 48)
                : [la] "+r"(la), [ha] "+r"(ha), [lb] "+r"(lb), [hb] "+r"(hb), [r] "+r"(r), [w0] "=&r"(w0),
                  [w1] "=&r"(w1), [w2] "=&r"(w2), [e] "=&r"(e)
                : [w] "r"(w), [ch] "r"(ch), [off] "r"(s->offset2), [next] "r"(row - stride * ch)
                : "memory");
    }
    else if (stride == 1)
    {
        __asm__ volatile(HELIA_DSP_HALF_ROW("", 0) HELIA_DSP_HALF_ROW("", 24) HELIA_DSP_HALF_ROW("", 48)
                : [la] "+r"(la), [ha] "+r"(ha), [lb] "+r"(lb), [hb] "+r"(hb), [r] "+r"(r), [w0] "=&r"(w0),
                  [w1] "=&r"(w1), [w2] "=&r"(w2), [e] "=&r"(e)
                : [w] "r"(w), [ch] "r"(ch), [off] "r"(s->offset2), [next] "r"(row - stride * ch)
                : "memory");
    }
    else if (odd)
    {
        __asm__ volatile(HELIA_DSP_HALF_ROW2(", ror #8", 0) HELIA_DSP_HALF_ROW2(", ror #8", 24) HELIA_DSP_HALF_ROW2(", ror #8", 48)
                : [la] "+r"(la), [ha] "+r"(ha), [lb] "+r"(lb), [hb] "+r"(hb), [r] "+r"(r), [w0] "=&r"(w0),
                  [w1] "=&r"(w1), [w2] "=&r"(w2), [e] "=&r"(e)
                : [w] "r"(w), [ch] "r"(ch), [off] "r"(s->offset2), [next] "r"(row - stride * ch)
                : "memory");
    }
    else
    {
        __asm__ volatile(HELIA_DSP_HALF_ROW2("", 0) HELIA_DSP_HALF_ROW2("", 24) HELIA_DSP_HALF_ROW2("", 48)
                : [la] "+r"(la), [ha] "+r"(ha), [lb] "+r"(lb), [hb] "+r"(hb), [r] "+r"(r), [w0] "=&r"(w0),
                  [w1] "=&r"(w1), [w2] "=&r"(w2), [e] "=&r"(e)
                : [w] "r"(w), [ch] "r"(ch), [off] "r"(s->offset2), [next] "r"(row - stride * ch)
                : "memory");
    }
    *lo_a = la;
    *hi_a = ha;
    *lo_b = lb;
    *hi_b = hb;
}

/* Two neighbouring interior pixels of a fast group at stride 1 or 2 (a constant): even channels, then
 * odd ones, each half requantized as it is done, both pixels sharing each channel's constants. */
HELIA_DSP_INLINE void interior_pair(const group_state *s, int32_t stride, const int8_t *in, int32_t ch, int32_t row,
                                    int8_t *out)
{
    int32_t la, ha, lb, hb;
    half_pair(s, 0, stride, in, ch, row, &la, &ha, &lb, &hb);
    uint32_t word_a = (uint32_t)requantize_fast(la, s, 0) & 0xFFu;
    uint32_t word_b = (uint32_t)requantize_fast(lb, s, 0) & 0xFFu;
    HELIA_DSP_BFI8(word_a, requantize_fast(ha, s, 2), 16);
    HELIA_DSP_BFI8(word_b, requantize_fast(hb, s, 2), 16);
    /* The even half's requantization done here, before the odd half's asm (the asm blocks are volatile,
     * so they stay in order around this): interleaved, its values spilled around the asm. */
    __asm__ volatile("" : "+r"(word_a), "+r"(word_b));
    half_pair(s, 1, stride, in, ch, row, &la, &ha, &lb, &hb);
    HELIA_DSP_BFI8(word_a, requantize_fast(la, s, 1), 8);
    HELIA_DSP_BFI8(word_b, requantize_fast(lb, s, 1), 8);
    HELIA_DSP_BFI8(word_a, requantize_fast(ha, s, 3), 24);
    HELIA_DSP_BFI8(word_b, requantize_fast(hb, s, 3), 24);
    const uint32_t lo = s->act_min4;
    const uint32_t hi = s->act_max4;
    (void)__ssub8((int8x4_t)word_a, (int8x4_t)lo);
    word_a = __sel(word_a, lo);
    (void)__ssub8((int8x4_t)hi, (int8x4_t)word_a);
    word_a = __sel(word_a, hi);
    (void)__ssub8((int8x4_t)word_b, (int8x4_t)lo);
    word_b = __sel(word_b, lo);
    (void)__ssub8((int8x4_t)hi, (int8x4_t)word_b);
    word_b = __sel(word_b, hi);
    memcpy(out, &word_a, sizeof(word_a));
    memcpy(out + ch, &word_b, sizeof(word_b));
}

/* The interior pixels of one output row of a fast group at stride 1 or 2 (a constant): in pairs, an
 * odd last pixel alone. */
HELIA_DSP_INLINE void interior_row_pairs(const group_state *s, int32_t stride, const int8_t *in, int32_t ch,
                                         int32_t row, int8_t *out, int32_t count)
{
    for (int32_t pairs = count / 2; pairs > 0; --pairs)
    {
        interior_pair(s, stride, in, ch, row, out);
        in += 2 * stride * ch;
        out += 2 * ch;
    }
    if (count % 2 != 0)
    {
        interior_pixel(s, 1, in, ch, row, out);
    }
}

#endif /* HELIA_DSP_DW3X3_PAIRS */

/* One output row whose three tap rows are all inside the input: its edge pixels (left and right of
 * x0 .. x1) and its interior ones, in one function per variant (pairs: 0, or the stride 1 or 2 of the
 * asm pair loop; fast: the requantization; both constants), so a narrow plane's row (kws: one edge
 * pixel each side) costs one call, not three. */
HELIA_DSP_INLINE void inside_row(const group_state *s, int32_t pairs, int32_t fast, const geometry *g,
                                 const int8_t *image, int32_t oy, int8_t *o)
{
    const int32_t ch = g->channels;
    const int32_t iy = oy * g->stride_h - g->pad_h;
    for (int32_t ox = 0; ox < g->x0; ++ox)
    {
        edge_pixel(s, fast, image, iy, ox * g->stride_w - g->pad_w, g, o + ox * ch);
    }
    if (g->x1 > g->x0)
    {
        const int32_t row = g->in_w * ch;
        const int8_t *in = image + (iy * g->in_w + g->x0 * g->stride_w - g->pad_w) * ch;
#if HELIA_DSP_DW3X3_PAIRS
        if (pairs != 0)
        {
            interior_row_pairs(s, pairs, in, ch, row, o + g->x0 * ch, g->x1 - g->x0);
        }
        else
#endif
        {
            interior_row(s, fast, in, ch, row, g->stride_w * ch, o + g->x0 * ch, g->x1 - g->x0);
        }
#if !HELIA_DSP_DW3X3_PAIRS
        (void)pairs;
#endif
    }
    for (int32_t ox = g->x1; ox < g->out_w; ++ox)
    {
        edge_pixel(s, fast, image, iy, ox * g->stride_w - g->pad_w, g, o + ox * ch);
    }
}

#if HELIA_DSP_DW3X3_PAIRS
static __attribute__((noinline)) void inside_row_pairs1(const group_state *s, const geometry *g, const int8_t *image,
                                                        int32_t oy, int8_t *o)
{
    inside_row(s, 1, 1, g, image, oy, o);
}

static __attribute__((noinline)) void inside_row_pairs2(const group_state *s, const geometry *g, const int8_t *image,
                                                        int32_t oy, int8_t *o)
{
    inside_row(s, 2, 1, g, image, oy, o);
}
#endif

static __attribute__((noinline)) void inside_row_fast(const group_state *s, const geometry *g, const int8_t *image,
                                                      int32_t oy, int8_t *o)
{
    inside_row(s, 0, 1, g, image, oy, o);
}

static __attribute__((noinline)) void inside_row_general(const group_state *s, const geometry *g,
                                                         const int8_t *image, int32_t oy, int8_t *o)
{
    inside_row(s, 0, 0, g, image, oy, o);
}

/* The group's weights (extended to int16 pairs), sums' start values and requantization constants. */
static void prepare_group(group_state *s,
                          const cmsis_nn_dw_conv_params *p,
                          const cmsis_nn_per_channel_quant_params *quant,
                          const int8_t *filter,
                          const int32_t *bias,
                          int32_t channels,
                          int32_t c0)
{
    int32_t fast = 1;
    for (int32_t c = 0; c < GROUP; ++c)
    {
        const int32_t b = bias != NULL ? bias[c0 + c] : 0;
        const int32_t shift = quant->shift[c0 + c];
        fast = fast && shift <= -1 && shift >= -MAX_FAST_RIGHT && b <= MAX_FAST_BIAS && b >= -MAX_FAST_BIAS;
        s->init[c] = b;
        s->multiplier[c] = quant->multiplier[c0 + c];
        s->shift[c] = shift;
    }
    for (int32_t k = 0; k < TAPS; ++k)
    {
        /* The tap's four weights as the input is extended: channels 0, 2 and 1, 3 in int16 halves. */
        const uint32_t w = load4(filter + k * channels + c0);
        int32_t even = __sxtab16(0, w);
        int32_t odd = sxtab16_ror8(0, w);
        if (fast)
        {
            even = __sadd16(even, even); /* at most 256 in magnitude */
            odd = __sadd16(odd, odd);
        }
        s->weight[k][0] = even;
        s->weight[k][1] = odd;
    }
    if (fast)
    {
        for (int32_t c = 0; c < GROUP; ++c)
        {
            const int32_t right = -s->shift[c];
            s->init[c] *= 2;
            s->right[c] = right;
            s->rounding[c] = (1 << (right - 1)) + p->output_offset * (1 << right);
        }
    }
    const uint32_t lo = (uint8_t)(int8_t)p->activation.min;
    const uint32_t hi = (uint8_t)(int8_t)p->activation.max;
    s->offset2 = (int32_t)(((uint32_t)p->input_offset & 0xFFFFu) | ((uint32_t)p->input_offset << 16));
    s->act_min4 = lo * 0x01010101u;
    s->act_max4 = hi * 0x01010101u;
    s->out_offset = p->output_offset;
    s->act_min = p->activation.min;
    s->act_max = p->activation.max;
    s->fast = fast;
}

/* Every output pixel of one image for a group of four channels; image and out point at the group's
 * first channel. One call per row, to a function per variant: with every row of the group in one
 * function, the interior loop's registers spilled (vww 48x48x8 705,040 -> 723,000). */
static void run_group(const group_state *s, const geometry *g, const int8_t *image, int8_t *out)
{
    const int32_t ch = g->channels;
    void (*const edges)(const group_state *, const int8_t *, const geometry *, int32_t, int32_t, int32_t, int8_t *) =
        s->fast ? edge_run_fast : edge_run_general;
    void (*inside)(const group_state *, const geometry *, const int8_t *, int32_t, int8_t *) =
        s->fast ? inside_row_fast : inside_row_general;
#if HELIA_DSP_DW3X3_PAIRS
    if (s->fast && g->stride_w == 1)
    {
        inside = inside_row_pairs1;
    }
    else if (s->fast && g->stride_w == 2)
    {
        inside = inside_row_pairs2;
    }
#endif
    for (int32_t oy = 0; oy < g->out_h; ++oy)
    {
        int8_t *o = out + oy * g->out_w * ch;
        if (oy < g->y0 || oy >= g->y1)
        {
            edges(s, image, g, oy, 0, g->out_w, o);
        }
        else
        {
            inside(s, g, image, oy, o);
        }
    }
}

/* Outputs of at most this many pixels (per image) go pixel by pixel (run_pixels). */
#ifndef HELIA_DSP_DW3X3_FEW_PIXELS /* tests raise it to run every shape that way */
#define HELIA_DSP_DW3X3_FEW_PIXELS 16
#endif

/* One channel of run_pixels' fast requantization, its constants computed in place (acc not doubled). */
HELIA_DSP_INLINE int32_t requantize_in_place(int32_t acc, int32_t multiplier, int32_t shift, int32_t out_offset)
{
    const int32_t right = -shift;
    const int32_t rounding = (1 << (right - 1)) + out_offset * (1 << right);
    const int32_t x = smmulr(acc + acc, multiplier);
    return __ssat((x + rounding + (x >> 31)) >> right, 8);
}

/* One image pixel-major, for outputs of few pixels whose every channel takes the fast requantization:
 * there a group's preparation (its weights extended, its constants computed) would be repeated work
 * for a handful of pixels. Per pixel the taps inside the input are listed once; per group of four
 * channels each tap's weights are extended as they are read and the constants computed in place. The
 * sums are not doubled here: acc + acc (|acc| < 2^29) goes into SMMULR instead. */
static __attribute__((noinline)) void run_pixels(const cmsis_nn_dw_conv_params *p,
                                                 const cmsis_nn_per_channel_quant_params *quant,
                                                 const geometry *g,
                                                 const int8_t *image,
                                                 const int8_t *filter,
                                                 const int32_t *bias,
                                                 int32_t full,
                                                 int8_t *out)
{
    const int32_t ch = g->channels;
    const int32_t offset2 = (int32_t)(((uint32_t)p->input_offset & 0xFFFFu) | ((uint32_t)p->input_offset << 16));
    const int32_t out_offset = p->output_offset;
    const uint32_t lo = (uint32_t)(uint8_t)(int8_t)p->activation.min * 0x01010101u;
    const uint32_t hi = (uint32_t)(uint8_t)(int8_t)p->activation.max * 0x01010101u;
    const int32_t *multiplier = quant->multiplier;
    const int32_t *shift = quant->shift;
    for (int32_t oy = 0; oy < g->out_h; ++oy)
    {
        const int32_t iy = oy * g->stride_h - g->pad_h;
        for (int32_t ox = 0; ox < g->out_w; ++ox)
        {
            const int32_t ix = ox * g->stride_w - g->pad_w;
            /* The taps inside the input: byte offsets of each in the image and in the filter. */
            int32_t tap[TAPS][2];
            int32_t taps = 0;
            for (int32_t ky = 0; ky < 3; ++ky)
            {
                for (int32_t kx = 0; kx < 3; ++kx)
                {
                    const int32_t y = iy + ky;
                    const int32_t x = ix + kx;
                    if (y >= 0 && y < g->in_h && x >= 0 && x < g->in_w)
                    {
                        tap[taps][0] = (y * g->in_w + x) * ch;
                        tap[taps][1] = (ky * 3 + kx) * ch;
                        ++taps;
                    }
                }
            }
            int8_t *o = out + (oy * g->out_w + ox) * ch;
            for (int32_t c0 = 0; c0 < full; c0 += GROUP)
            {
                int32_t acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
                if (bias != NULL)
                {
                    acc0 = bias[c0];
                    acc1 = bias[c0 + 1];
                    acc2 = bias[c0 + 2];
                    acc3 = bias[c0 + 3];
                }
                const int8_t *x = image + c0;
                const int8_t *w = filter + c0;
                for (int32_t t = 0; t < taps; ++t)
                {
                    const uint32_t w4 = load4(w + tap[t][1]);
                    const int32_t pair[2] = {__sxtab16(0, w4), sxtab16_ror8(0, w4)};
                    HELIA_DSP_TAP(load4(x + tap[t][0]), pair, offset2);
                }
                uint32_t word = (uint32_t)requantize_in_place(acc0, multiplier[c0], shift[c0], out_offset) & 0xFFu;
                HELIA_DSP_BFI8(word, requantize_in_place(acc1, multiplier[c0 + 1], shift[c0 + 1], out_offset), 8);
                HELIA_DSP_BFI8(word, requantize_in_place(acc2, multiplier[c0 + 2], shift[c0 + 2], out_offset), 16);
                HELIA_DSP_BFI8(word, requantize_in_place(acc3, multiplier[c0 + 3], shift[c0 + 3], out_offset), 24);
                (void)__ssub8((int8x4_t)word, (int8x4_t)lo);
                word = __sel(word, lo);
                (void)__ssub8((int8x4_t)hi, (int8x4_t)word);
                word = __sel(word, hi);
                memcpy(o + c0, &word, sizeof(word));
            }
        }
    }
}

/* The last one to three channels, one channel at a time, as the reference computes them. */
static void run_tail(const cmsis_nn_dw_conv_params *p,
                     const cmsis_nn_per_channel_quant_params *quant,
                     const geometry *g,
                     const int8_t *image,
                     const int8_t *filter,
                     const int32_t *bias,
                     int32_t c0,
                     int8_t *out)
{
    const int32_t ch = g->channels;
    for (int32_t c = c0; c < ch; ++c)
    {
        for (int32_t oy = 0; oy < g->out_h; ++oy)
        {
            for (int32_t ox = 0; ox < g->out_w; ++ox)
            {
                const int32_t iy = oy * g->stride_h - g->pad_h;
                const int32_t ix = ox * g->stride_w - g->pad_w;
                uint32_t acc = bias != NULL ? (uint32_t)bias[c] : 0u; /* wraps as the reference's int32 sum */
                for (int32_t ky = 0; ky < 3; ++ky)
                {
                    for (int32_t kx = 0; kx < 3; ++kx)
                    {
                        if (iy + ky < 0 || iy + ky >= g->in_h || ix + kx < 0 || ix + kx >= g->in_w)
                        {
                            continue;
                        }
                        const int32_t x = image[((iy + ky) * g->in_w + ix + kx) * ch + c] + p->input_offset;
                        acc += (uint32_t)(x * filter[(ky * 3 + kx) * ch + c]);
                    }
                }
                const int32_t scaled = requantize_exact((int32_t)acc, quant->multiplier[c], quant->shift[c]);
                out[(oy * g->out_w + ox) * ch + c] =
                    finish_exact(scaled, p->output_offset, p->activation.min, p->activation.max);
            }
        }
    }
}

arm_cmsis_nn_status helia_dsp_depthwise_conv_3x3_s8(const cmsis_nn_context *ctx,
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
        p->activation.max > 127 || p->activation.min > p->activation.max || input_dims->n < 0 || input_dims->h < 0 ||
        input_dims->w < 0 || channels < 0 || output_dims->h < 0 || output_dims->w < 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    int32_t all_fast = 1; /* every full group's channels take the fast requantization */
    const int32_t full = channels - channels % GROUP;
    for (int32_t c = 0; c < channels; ++c)
    {
        const int32_t shift = quant_params->shift[c];
        if (shift < -31 || shift > 30)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        const int32_t b = bias_data != NULL ? bias_data[c] : 0;
        all_fast &= (c >= full) | (shift <= -1 && shift >= -MAX_FAST_RIGHT && b <= MAX_FAST_BIAS && b >= -MAX_FAST_BIAS);
    }
    geometry g = {input_dims->h, input_dims->w, channels, output_dims->h, output_dims->w,
                  p->stride.h, p->stride.w, p->padding.h, p->padding.w, 0, 0, 0, 0};
    const int32_t x0 = (g.pad_w + g.stride_w - 1) / g.stride_w;
    g.x0 = x0 < g.out_w ? x0 : g.out_w;
    const int32_t x1 = g.in_w - 3 + g.pad_w >= 0 ? (g.in_w - 3 + g.pad_w) / g.stride_w + 1 : 0;
    g.x1 = x1 < g.out_w ? (x1 > g.x0 ? x1 : g.x0) : g.out_w;
    g.y0 = (g.pad_h + g.stride_h - 1) / g.stride_h;
    g.y1 = g.in_h - 3 + g.pad_h >= 0 ? (g.in_h - 3 + g.pad_h) / g.stride_h + 1 : 0;
    const int32_t in_image = g.in_h * g.in_w * channels;
    const int32_t out_image = g.out_h * g.out_w * channels;
    group_state state;
    const int32_t pixel_major = all_fast && g.out_h * g.out_w <= HELIA_DSP_DW3X3_FEW_PIXELS;
    for (int32_t b = 0; pixel_major && b < input_dims->n; ++b)
    {
        run_pixels(p, quant_params, &g, input_data + b * in_image, filter_data, bias_data, full,
                   output_data + b * out_image);
    }
    for (int32_t c0 = 0; !pixel_major && c0 < full; c0 += GROUP)
    {
        prepare_group(&state, p, quant_params, filter_data, bias_data, channels, c0);
        for (int32_t b = 0; b < input_dims->n; ++b)
        {
            run_group(&state, &g, input_data + b * in_image + c0, output_data + b * out_image + c0);
        }
    }
    if (full < channels)
    {
        for (int32_t b = 0; b < input_dims->n; ++b)
        {
            run_tail(p, quant_params, &g, input_data + b * in_image, filter_data, bias_data, full,
                     output_data + b * out_image);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#else /* !HELIA_DSP_AVAILABLE: no DSP extension (e.g. a host build of a module converted for a DSP core) */

#include "arm_nnfunctions.h"

/* The kernel library's general entry with the same arguments: for every call this kernel accepts it
 * computes the same bytes (tests/kernels/test_dsp_parity.py). */
arm_cmsis_nn_status helia_dsp_depthwise_conv_3x3_s8(const cmsis_nn_context *ctx,
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

#endif /* HELIA_DSP_AVAILABLE */
