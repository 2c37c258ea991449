/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot DSP kernels: helia_dsp_convolve_s8, int8 CONV_2D (any filter, stride, dilation, padding)
 * with the Armv7E-M DSP extension, without scratch memory. */

#include "helia_dsp.h"

#if HELIA_DSP_AVAILABLE

#include <arm_acle.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * No im2col: a filter row inside the image is kw * cin contiguous input bytes (dilation 1; with
 * dilation each tap's cin bytes are), read in place with unaligned word loads (LDR allows them on
 * Armv7-M; the compiler is never asked for LDRD / LDM on these addresses). Input and weight words go
 * through SXTB16 twice (bytes 0, 2 and, rotated, bytes 1, 3: the same lane order on both sides), and
 * SMLAD adds two products at a time. The tile is two output pixels by two output channels: each input
 * word extended serves two channels, each weight word two pixels.
 *
 * The input offset is not added per tap: inputs are multiplied raw and every sum starts at
 * bias + input_offset * (the sum of the weights the window covers inside the image). For a pixel whose
 * window lies inside, that is the weight sum of the whole filter (the caller's precomputed weight sums,
 * if given); for an edge pixel, whose taps in the padding are skipped as the reference skips them, it
 * is the sum over the taps inside, from per-tap weight sums computed once per channel pair.
 *
 * Requantization: where every channel's sum provably stays within 2^30 (bias and depth bounded) and
 * its shift is a right shift of 1 to 20, TFLite's rounding doubling high multiply is one SMMULR on the
 * doubled sum, and the rounding right shift, with the output offset folded into its rounding constant,
 * is two adds and a shift. Other channels take the reference's arithmetic as written.
 */

#define HELIA_DSP_CONV_INLINE static inline __attribute__((always_inline))

/* Per-tap weight sums of a channel pair are kept on the stack for filters of up to this many taps
 * (10 x 4 is kws's; 8 x 8 = 512 bytes); larger filters sum an edge window's weights from the filter. */
#define MAX_TAP_SUMS 64
#define MAX_FAST_RIGHT 20
/* |bias| and depth * 255 * 128 each below 2^29: sums stay within 2^30, so doubling them cannot wrap. */
#define MAX_FAST_BIAS (1 << 29)
#define MAX_FAST_DEPTH 16000

typedef struct
{
    int32_t in_h, in_w, in_c;
    int32_t k_h, k_w, depth;
    int32_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
    int32_t out_h, out_w, out_c;
    int32_t input_offset, output_offset, act_min, act_max;
    int32_t inside_x0, inside_x1; /* output columns [inside_x0, inside_x1) have every tap inside along x */
    int32_t inside_y0, inside_y1; /* output rows likewise along y */
} geometry;

/* One output channel's constants. */
typedef struct
{
    uint32_t base;  /* bias (from the bias or the weight sums), wrapping as the reference's int32 sum */
    uint32_t whole; /* base + input_offset * the sum of all weights: the start of an inside pixel */
    int32_t multiplier, shift;
    int32_t right, rounding; /* fast: the right shift; 2^(right - 1) + output_offset * 2^right */
} channel_state;

/* Four bytes from any address (an unaligned LDR). */
HELIA_DSP_CONV_INLINE uint32_t load4(const int8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

/* Bytes 1 and 3 of x sign-extended into two int16 lanes (GCC does not fold __ror into SXTB16). */
HELIA_DSP_CONV_INLINE int32_t sxtb16_ror8(uint32_t x)
{
    int32_t r;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
    return r;
}

/* round(a * b / 2^32), ties up. */
HELIA_DSP_CONV_INLINE int32_t smmulr(int32_t a, int32_t b)
{
    int32_t r;
    __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

/* Sum of the four signed bytes of a word, added to acc. */
HELIA_DSP_CONV_INLINE int32_t add_byte_sum(int32_t acc, uint32_t word)
{
    const int32_t pairs = __sxtab16(__sxtb16((int32_t)word), (int32_t)((word >> 8) | (word << 24)));
    return __smlad(pairs, 0x00010001, acc);
}

static int32_t byte_sum(const int8_t *p, int32_t n)
{
    int32_t acc = 0;
    int32_t i = 0;
    for (; i + 4 <= n; i += 4)
    {
        acc = add_byte_sum(acc, load4(p + i));
    }
    for (; i < n; ++i)
    {
        acc += p[i];
    }
    return acc;
}

/* The hot loop in assembly only when optimizing: it takes 14 registers (r0 - r12 and lr), and without
 * optimization r7 is the frame pointer. Tests may set it to 0 (then the C loop below runs). */
#ifndef HELIA_DSP_CONV_ASM
#if defined(__OPTIMIZE__)
#define HELIA_DSP_CONV_ASM 1
#else
#define HELIA_DSP_CONV_ASM 0
#endif
#endif

/* One word of the 2 x 2 tile: x at [x] (pixel 0) and [x, s] (pixel 1), weights at [w] (channel 0) and
 * [w, d] (channel 1); x and w step 4. Channel 1 first, so that each weight word is extended into the
 * two temporaries its four SMLADs need while both pixels' extended words stay live. */
#define HELIA_DSP_CONV_WORD                           \
    "ldr %[t0], [%[x], %[s]]\n\t"                     \
    "ldr %[t1], [%[x]], #4\n\t"                       \
    "sxtb16 %[t2], %[t0]\n\t"                         \
    "sxtb16 %[t0], %[t0], ror #8\n\t"                 \
    "sxtb16 %[t3], %[t1]\n\t"                         \
    "sxtb16 %[t1], %[t1], ror #8\n\t"                 \
    "ldr %[t4], [%[w], %[d]]\n\t"                     \
    "sxtb16 %[t5], %[t4]\n\t"                         \
    "sxtb16 %[t4], %[t4], ror #8\n\t"                 \
    "smlad %[a01], %[t3], %[t5], %[a01]\n\t"          \
    "smlad %[a11], %[t2], %[t5], %[a11]\n\t"          \
    "smlad %[a01], %[t1], %[t4], %[a01]\n\t"          \
    "smlad %[a11], %[t0], %[t4], %[a11]\n\t"          \
    "ldr %[t4], [%[w]], #4\n\t"                       \
    "sxtb16 %[t5], %[t4]\n\t"                         \
    "sxtb16 %[t4], %[t4], ror #8\n\t"                 \
    "smlad %[a00], %[t3], %[t5], %[a00]\n\t"          \
    "smlad %[a10], %[t2], %[t5], %[a10]\n\t"          \
    "smlad %[a00], %[t1], %[t4], %[a00]\n\t"          \
    "smlad %[a10], %[t0], %[t4], %[a10]\n\t"

/* acc[pixel * 2 + channel] += the dot products of `len` bytes at x0, x1 (pixels) with w0, w1
 * (channels). The hot loop of the kernel. */
HELIA_DSP_CONV_INLINE void dot_2x2(const int8_t *x0, const int8_t *x1, const int8_t *w0, const int8_t *w1,
                                   int32_t len, int32_t *acc)
{
    int32_t a00 = acc[0], a01 = acc[1], a10 = acc[2], a11 = acc[3];
    int32_t words = len >> 2;
#if HELIA_DSP_CONV_ASM
    if (words >= 2)
    {
        /* Two words per pass; the end pointer is read from memory at the bottom (no register is left). */
        const int8_t *const end = x0 + 8 * (words >> 1);
        const int32_t s = (int32_t)(x1 - x0);
        const int32_t d = (int32_t)(w1 - w0);
        uint32_t t0, t1, t2, t3, t4, t5;
        __asm__ volatile("1:\n\t" HELIA_DSP_CONV_WORD HELIA_DSP_CONV_WORD
                         "ldr %[t0], %[end]\n\t"
                         "cmp %[x], %[t0]\n\t"
                         "bne 1b\n\t"
                         : [a00] "+r"(a00), [a01] "+r"(a01), [a10] "+r"(a10), [a11] "+r"(a11), [x] "+&r"(x0),
                           [w] "+&r"(w0), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
                           [t4] "=&r"(t4), [t5] "=&r"(t5)
                         : [s] "r"(s), [d] "r"(d), [end] "m"(end)
                         : "cc", "memory");
        x1 = x0 + s;
        w1 = w0 + d;
        words &= 1;
    }
#endif
    while (words-- > 0)
    {
        const uint32_t xa = load4(x0);
        const uint32_t xb = load4(x1);
        const uint32_t wa = load4(w0);
        const uint32_t wb = load4(w1);
        x0 += 4;
        x1 += 4;
        w0 += 4;
        w1 += 4;
        const int32_t xa_even = __sxtb16((int32_t)xa), xa_odd = sxtb16_ror8(xa);
        const int32_t xb_even = __sxtb16((int32_t)xb), xb_odd = sxtb16_ror8(xb);
        const int32_t wa_even = __sxtb16((int32_t)wa), wa_odd = sxtb16_ror8(wa);
        const int32_t wb_even = __sxtb16((int32_t)wb), wb_odd = sxtb16_ror8(wb);
        a00 = __smlad(xa_even, wa_even, a00);
        a01 = __smlad(xa_even, wb_even, a01);
        a10 = __smlad(xb_even, wa_even, a10);
        a11 = __smlad(xb_even, wb_even, a11);
        a00 = __smlad(xa_odd, wa_odd, a00);
        a01 = __smlad(xa_odd, wb_odd, a01);
        a10 = __smlad(xb_odd, wa_odd, a10);
        a11 = __smlad(xb_odd, wb_odd, a11);
    }
    for (int32_t i = 0; i < (len & 3); ++i)
    {
        /* Wrapping, as SMLAD does (only sums beyond the fast requantization's bounds can wrap). */
        a00 = (int32_t)((uint32_t)a00 + (uint32_t)(x0[i] * w0[i]));
        a01 = (int32_t)((uint32_t)a01 + (uint32_t)(x0[i] * w1[i]));
        a10 = (int32_t)((uint32_t)a10 + (uint32_t)(x1[i] * w0[i]));
        a11 = (int32_t)((uint32_t)a11 + (uint32_t)(x1[i] * w1[i]));
    }
    acc[0] = a00;
    acc[1] = a01;
    acc[2] = a10;
    acc[3] = a11;
}

/* One word of the gathered 2 x 2 tile: the two pixels' extended input words (bytes 0, 2 and 1, 3 of
 * each, interleaved pixel by pixel) at [x], x steps 16; weights at [w] (channel 0) and [w, d]
 * (channel 1), w steps 4. */
#define HELIA_DSP_CONV_WORD16                      \
    "ldrd %[e1], %[o1], [%[x], #8]\n\t"             \
    "ldrd %[e0], %[o0], [%[x]], #16\n\t"            \
    "ldr %[t0], [%[w], %[d]]\n\t"                   \
    "sxtb16 %[t1], %[t0]\n\t"                       \
    "sxtb16 %[t0], %[t0], ror #8\n\t"               \
    "smlad %[a01], %[e0], %[t1], %[a01]\n\t"        \
    "smlad %[a11], %[e1], %[t1], %[a11]\n\t"        \
    "smlad %[a01], %[o0], %[t0], %[a01]\n\t"        \
    "smlad %[a11], %[o1], %[t0], %[a11]\n\t"        \
    "ldr %[t0], [%[w]], #4\n\t"                     \
    "sxtb16 %[t1], %[t0]\n\t"                       \
    "sxtb16 %[t0], %[t0], ror #8\n\t"               \
    "smlad %[a00], %[e0], %[t1], %[a00]\n\t"        \
    "smlad %[a10], %[e1], %[t1], %[a10]\n\t"        \
    "smlad %[a00], %[o0], %[t0], %[a00]\n\t"        \
    "smlad %[a10], %[o1], %[t0], %[a10]\n\t"

/* acc[pixel * 2 + channel] += the dot products of a gathered, extended pair of windows (x: four int32
 * per input word, see HELIA_DSP_CONV_WORD16) with `words` weight words and then `tail` (0 to 3) bytes
 * at w0 (channel 0) and w1 (channel 1). Weight bytes past words * 4 + tail are never read. */
HELIA_DSP_CONV_INLINE void dot_tile(const int32_t *x, const int8_t *w0, const int8_t *w1, int32_t words,
                                    int32_t tail, int32_t *acc)
{
    int32_t a00 = acc[0], a01 = acc[1], a10 = acc[2], a11 = acc[3];
#if HELIA_DSP_CONV_ASM
    if (words >= 2)
    {
        const int32_t *const end = x + 8 * (words >> 1);
        const int32_t d = (int32_t)(w1 - w0);
        uint32_t e0, o0, e1, o1, t0, t1;
        __asm__ volatile("1:\n\t" HELIA_DSP_CONV_WORD16 HELIA_DSP_CONV_WORD16
                         "cmp %[x], %[end]\n\t"
                         "bne 1b\n\t"
                         : [a00] "+r"(a00), [a01] "+r"(a01), [a10] "+r"(a10), [a11] "+r"(a11), [x] "+&r"(x),
                           [w] "+&r"(w0), [e0] "=&r"(e0), [o0] "=&r"(o0), [e1] "=&r"(e1), [o1] "=&r"(o1),
                           [t0] "=&r"(t0), [t1] "=&r"(t1)
                         : [d] "r"(d), [end] "r"(end)
                         : "cc", "memory");
        w1 += 8 * (words >> 1);
        words &= 1;
    }
#endif
    for (int32_t k = 0; k <= words; ++k)
    {
        uint32_t wa, wb;
        if (k < words)
        {
            wa = load4(w0);
            wb = load4(w1);
        }
        else if (tail > 0)
        {
            /* The last bytes, the rest of the word zero: never a read past the filter. */
            wa = 0u;
            wb = 0u;
            for (int32_t i = tail - 1; i >= 0; --i)
            {
                wa = (wa << 8) | (uint8_t)w0[i];
                wb = (wb << 8) | (uint8_t)w1[i];
            }
        }
        else
        {
            break;
        }
        w0 += 4;
        w1 += 4;
        const int32_t wa_even = __sxtb16((int32_t)wa), wa_odd = sxtb16_ror8(wa);
        const int32_t wb_even = __sxtb16((int32_t)wb), wb_odd = sxtb16_ror8(wb);
        a00 = __smlad(x[0], wa_even, a00);
        a00 = __smlad(x[1], wa_odd, a00);
        a01 = __smlad(x[0], wb_even, a01);
        a01 = __smlad(x[1], wb_odd, a01);
        a10 = __smlad(x[2], wa_even, a10);
        a10 = __smlad(x[3], wa_odd, a10);
        a11 = __smlad(x[2], wb_even, a11);
        a11 = __smlad(x[3], wb_odd, a11);
        x += 4;
    }
    acc[0] = a00;
    acc[1] = a01;
    acc[2] = a10;
    acc[3] = a11;
}

/* The sums of channel pairs [0, pairs) (both channels present, whole passes) of the gathered tile:
 * sums[4 p ..] = pixel 0 channel 2p, pixel 0 channel 2p + 1, pixel 1 channel 2p, pixel 1 channel 2p + 1,
 * starting from whole[2p], whole[2p + 1]; filters from w on, `depth` bytes apart, `words` (even) words
 * each. In asm the loop over the pairs is inside too, its few pointers and its count in memory (the
 * inner loop takes every register), so a pair costs about 20 instructions besides its passes. */
static void tile_pairs(const int32_t *tile, const int8_t *w, int32_t depth, int32_t words, const uint32_t *whole,
                       int32_t pairs, int32_t *sums)
{
    if (pairs <= 0)
    {
        return;
    }
#if HELIA_DSP_CONV_ASM
    struct
    {
        const int32_t *x_start;
        const uint32_t *whole;
        int32_t *sums;
        int32_t skip;
        int32_t left;
    } st = {tile, whole, sums, 2 * depth - 4 * words, pairs};
    const int32_t *const end = tile + 4 * words;
    const int32_t *x;
    int32_t a00, a01, a10, a11;
    uint32_t e0, o0, e1, o1, t0, t1;
    __asm__ volatile("2:\n\t"
                     "ldr %[t0], %[wh]\n\t"
                     "ldrd %[a00], %[a01], [%[t0]], #8\n\t"
                     "str %[t0], %[wh]\n\t"
                     "mov %[a10], %[a00]\n\t"
                     "mov %[a11], %[a01]\n\t"
                     "ldr %[x], %[xs]\n\t"
                     "1:\n\t" HELIA_DSP_CONV_WORD16 HELIA_DSP_CONV_WORD16
                     "cmp %[x], %[end]\n\t"
                     "bne 1b\n\t"
                     "ldr %[t0], %[out]\n\t"
                     "strd %[a00], %[a01], [%[t0]]\n\t"
                     "strd %[a10], %[a11], [%[t0], #8]\n\t"
                     "adds %[t0], %[t0], #16\n\t"
                     "str %[t0], %[out]\n\t"
                     "ldr %[t0], %[skip]\n\t"
                     "add %[w], %[w], %[t0]\n\t"
                     "ldr %[t0], %[left]\n\t"
                     "subs %[t0], %[t0], #1\n\t"
                     "str %[t0], %[left]\n\t"
                     "bne 2b\n\t"
                     : [a00] "=&r"(a00), [a01] "=&r"(a01), [a10] "=&r"(a10), [a11] "=&r"(a11), [x] "=&r"(x),
                       [w] "+&r"(w), [e0] "=&r"(e0), [o0] "=&r"(o0), [e1] "=&r"(e1), [o1] "=&r"(o1), [t0] "=&r"(t0),
                       [t1] "=&r"(t1), [wh] "+m"(st.whole), [out] "+m"(st.sums), [left] "+m"(st.left)
                     : [xs] "m"(st.x_start), [skip] "m"(st.skip), [d] "r"(depth), [end] "r"(end)
                     : "cc", "memory");
#else
    for (int32_t p = 0; p < pairs; ++p, sums += 4, w += 2 * depth)
    {
        int32_t acc[4] = {(int32_t)whole[2 * p], (int32_t)whole[2 * p + 1], (int32_t)whole[2 * p],
                          (int32_t)whole[2 * p + 1]};
        dot_tile(tile, w, w + depth, words, 0, acc);
        memcpy(sums, acc, sizeof(acc));
    }
#endif
}

/* One word of the gathered 2 x 2 tile against weights extended beforehand (small filter sets): per
 * word, channel 0's two int16 pairs then channel 1's at [w], w steps 16. */
#define HELIA_DSP_CONV_WORD16X                     \
    "ldrd %[e1], %[o1], [%[x], #8]\n\t"             \
    "ldrd %[e0], %[o0], [%[x]], #16\n\t"            \
    "ldrd %[t0], %[t1], [%[w]], #16\n\t"            \
    "smlad %[a00], %[e0], %[t0], %[a00]\n\t"        \
    "smlad %[a10], %[e1], %[t0], %[a10]\n\t"        \
    "smlad %[a00], %[o0], %[t1], %[a00]\n\t"        \
    "smlad %[a10], %[o1], %[t1], %[a10]\n\t"        \
    "ldrd %[t0], %[t1], [%[w], #-8]\n\t"            \
    "smlad %[a01], %[e0], %[t0], %[a01]\n\t"        \
    "smlad %[a11], %[e1], %[t0], %[a11]\n\t"        \
    "smlad %[a01], %[o0], %[t1], %[a01]\n\t"        \
    "smlad %[a11], %[o1], %[t1], %[a11]\n\t"

/* tile_pairs with the weights extended beforehand (extend_weights' layout): every pair of the set,
 * a last single channel paired with zero weights. */
static void tile_pairs_extended(const int32_t *tile, const int32_t *w, int32_t words, const uint32_t *whole,
                                int32_t pairs, int32_t *sums)
{
#if HELIA_DSP_CONV_ASM
    struct
    {
        const int32_t *x_start;
        const uint32_t *whole;
        int32_t *sums;
        int32_t left;
    } st = {tile, whole, sums, pairs};
    const int32_t *const end = tile + 4 * words;
    const int32_t *x;
    int32_t a00, a01, a10, a11;
    uint32_t e0, o0, e1, o1, t0, t1;
    __asm__ volatile("2:\n\t"
                     "ldr %[t0], %[wh]\n\t"
                     "ldrd %[a00], %[a01], [%[t0]], #8\n\t"
                     "str %[t0], %[wh]\n\t"
                     "mov %[a10], %[a00]\n\t"
                     "mov %[a11], %[a01]\n\t"
                     "ldr %[x], %[xs]\n\t"
                     "1:\n\t" HELIA_DSP_CONV_WORD16X HELIA_DSP_CONV_WORD16X
                     "cmp %[x], %[end]\n\t"
                     "bne 1b\n\t"
                     "ldr %[t0], %[out]\n\t"
                     "strd %[a00], %[a01], [%[t0]]\n\t"
                     "strd %[a10], %[a11], [%[t0], #8]\n\t"
                     "adds %[t0], %[t0], #16\n\t"
                     "str %[t0], %[out]\n\t"
                     "ldr %[t0], %[left]\n\t"
                     "subs %[t0], %[t0], #1\n\t"
                     "str %[t0], %[left]\n\t"
                     "bne 2b\n\t"
                     : [a00] "=&r"(a00), [a01] "=&r"(a01), [a10] "=&r"(a10), [a11] "=&r"(a11), [x] "=&r"(x),
                       [w] "+&r"(w), [e0] "=&r"(e0), [o0] "=&r"(o0), [e1] "=&r"(e1), [o1] "=&r"(o1), [t0] "=&r"(t0),
                       [t1] "=&r"(t1), [wh] "+m"(st.whole), [out] "+m"(st.sums), [left] "+m"(st.left)
                     : [xs] "m"(st.x_start), [end] "r"(end)
                     : "cc", "memory");
#else
    for (int32_t p = 0; p < pairs; ++p, sums += 4)
    {
        uint32_t acc[4] = {whole[2 * p], whole[2 * p + 1], whole[2 * p], whole[2 * p + 1]};
        const int32_t *x = tile;
        for (int32_t k = 0; k < words; ++k, x += 4, w += 4)
        {
            acc[0] = (uint32_t)__smlad(x[1], w[1], __smlad(x[0], w[0], (int32_t)acc[0]));
            acc[2] = (uint32_t)__smlad(x[3], w[1], __smlad(x[2], w[0], (int32_t)acc[2]));
            acc[1] = (uint32_t)__smlad(x[1], w[3], __smlad(x[0], w[2], (int32_t)acc[1]));
            acc[3] = (uint32_t)__smlad(x[3], w[3], __smlad(x[2], w[2], (int32_t)acc[3]));
        }
        memcpy(sums, acc, sizeof(acc));
    }
#endif
}

/* The filters [first, first + count) extended for tile_pairs_extended: per channel pair, per word
 * (`words` of them, zero past the filter, which is never read past), channel 0's two int16 pairs then
 * channel 1's (zero for a last single channel). */
static void extend_weights(const int8_t *filter, int32_t depth, int32_t words, int32_t first, int32_t count,
                           int32_t *dst)
{
    for (int32_t i = 0; i < count; i += 2)
    {
        for (int32_t slot = 0; slot < 2; ++slot)
        {
            const int8_t *row = filter + (size_t)(first + (i + slot < count ? i + slot : i)) * depth;
            int32_t *out = dst + 2 * slot;
            for (int32_t k = 0; k < words; ++k, out += 4)
            {
                uint32_t v = 0u;
                if (i + slot < count)
                {
                    const int32_t left = depth - 4 * k;
                    if (left >= 4)
                    {
                        v = load4(row + 4 * k);
                    }
                    for (int32_t j = (left < 4 ? left : 0) - 1; j >= 0; --j)
                    {
                        v = (v << 8) | (uint8_t)row[4 * k + j];
                    }
                }
                out[0] = __sxtb16((int32_t)v);
                out[1] = sxtb16_ror8(v);
            }
        }
        dst += 4 * words;
    }
}

/* ceil(n / d) for d >= 1, in 32 bits where n allows (no library call). */
static uint32_t ceil_div(uint64_t n, int32_t d)
{
    if (n <= (uint64_t)(INT32_MAX - d))
    {
        return ((uint32_t)n + (uint32_t)d - 1u) / (uint32_t)d;
    }
    return (uint32_t)((n + (uint64_t)d - 1u) / (uint64_t)d);
}

/* Taps [*first, *end) of a window of k taps `dilation` apart whose tap 0 is at `start` that fall in
 * [0, size). 64-bit, so that no stride, padding or dilation in range can overflow. */
static void inside_taps(int64_t start, int32_t dilation, int32_t size, int32_t k, int32_t *first, int32_t *end)
{
    const int64_t last = start + (int64_t)(k - 1) * dilation;
    if (start >= 0 && last < size)
    {
        *first = 0;
        *end = k;
        return;
    }
    if (start >= size || last < 0)
    {
        *first = 0;
        *end = 0;
        return;
    }
    /* Here start < size and last >= 0: the first tap inside is below k, the count below is positive. */
    const uint32_t f = start >= 0 ? 0u : ceil_div((uint64_t)-start, dilation);
    const uint32_t e = ceil_div((uint64_t)(size - start), dilation);
    *first = (int32_t)f;
    *end = e < (uint32_t)k ? (int32_t)e : k;
}

/* The reference's requantization for any shift in [-31, 30] (wrapping left shift, rounding doubling high
 * multiply, rounding right shift with ties away from zero), then the output offset and the clamp. */
static int8_t requantize_exact(uint32_t acc, int32_t multiplier, int32_t shift, const geometry *g)
{
    const int32_t left = shift > 0 ? shift : 0;
    const int32_t right = shift > 0 ? 0 : -shift;
    const int32_t v = (int32_t)(acc << left);
    const int64_t product = (int64_t)v * multiplier + ((int64_t)1 << 30);
    const int32_t x = (int32_t)(uint32_t)(uint64_t)(product >> 31);
    const int32_t mask = (int32_t)(((uint32_t)1 << right) - 1u);
    const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    int32_t y = (x >> right) + ((x & mask) > threshold ? 1 : 0);
    /* Bounded first, so adding the offset cannot overflow; beyond +-256 the clamp decides alike. */
    y = y < -256 ? -256 : (y > 256 ? 256 : y);
    y += g->output_offset;
    y = y < g->act_min ? g->act_min : y;
    return (int8_t)(y > g->act_max ? g->act_max : y);
}

/* The fast requantization (channel_state.right > 0, |acc| < 2^30). */
HELIA_DSP_CONV_INLINE int8_t requantize_fast(int32_t acc, const channel_state *s, int32_t act_min, int32_t act_max)
{
    const int32_t x = smmulr(acc * 2, s->multiplier);
    int32_t y = (x + s->rounding + (x >> 31)) >> s->right;
    y = y < act_min ? act_min : y;
    return (int8_t)(y > act_max ? act_max : y);
}

/* Sum of the weights of taps [ky0, ky1) x [kx0, kx1) of one filter: from its per-tap sums if given. */
static int32_t window_weight_sum(const int32_t *tap_sums, const int8_t *filter, const geometry *g, int32_t ky0,
                                 int32_t ky1, int32_t kx0, int32_t kx1)
{
    int32_t sum = 0;
    for (int32_t ky = ky0; ky < ky1; ++ky)
    {
        if (tap_sums != NULL)
        {
            for (int32_t kx = kx0; kx < kx1; ++kx)
            {
                sum += tap_sums[ky * g->k_w + kx];
            }
        }
        else
        {
            sum += byte_sum(filter + ((size_t)ky * g->k_w + kx0) * g->in_c, (kx1 - kx0) * g->in_c);
        }
    }
    return sum;
}

/* One channel pair's state: constants, its two filters and (small filters) their per-tap sums. */
typedef struct
{
    channel_state ch[2];
    const int8_t *filter[2];
    int32_t tap_sums[2][MAX_TAP_SUMS];
    int32_t has_tap_sums;
    int32_t fast;
} pair_state;

static void prepare_channel(pair_state *p, int32_t slot, int32_t c, const geometry *g,
                            const cmsis_nn_per_channel_quant_params *quant, const int32_t *weight_sums,
                            const int32_t *bias, const int8_t *filter)
{
    channel_state *s = &p->ch[slot];
    const int8_t *f = filter + (size_t)c * g->depth;
    p->filter[slot] = f;
    int32_t total = 0;
    if (p->has_tap_sums)
    {
        const int32_t taps = g->k_h * g->k_w;
        for (int32_t t = 0; t < taps; ++t)
        {
            p->tap_sums[slot][t] = byte_sum(f + (size_t)t * g->in_c, g->in_c);
            total += p->tap_sums[slot][t];
        }
    }
    else
    {
        total = byte_sum(f, g->depth);
    }
    const uint32_t offset_sum = (uint32_t)g->input_offset * (uint32_t)total;
    if (weight_sums != NULL)
    {
        s->whole = (uint32_t)weight_sums[c];
        s->base = s->whole - offset_sum;
    }
    else
    {
        s->base = bias != NULL ? (uint32_t)bias[c] : 0u;
        s->whole = s->base + offset_sum;
    }
    s->multiplier = quant->multiplier[c];
    s->shift = quant->shift[c];
    const int32_t base = (int32_t)s->base;
    const int32_t fast = s->shift <= -1 && s->shift >= -MAX_FAST_RIGHT && base < MAX_FAST_BIAS &&
                         base > -MAX_FAST_BIAS && g->depth <= MAX_FAST_DEPTH;
    s->right = fast ? -s->shift : 0;
    s->rounding = fast ? (1 << (s->right - 1)) + g->output_offset * (1 << s->right) : 0;
    p->fast &= fast;
}

/* Adds the products of one window (taps [ky0, ky1) x [kx0, kx1), all inside) for two pixels whose tap
 * (0, 0) is at row iy, columns ix0 and ix1 (in the padding, maybe: only offsets of taps inside are
 * formed), and the pair's two filters. */
HELIA_DSP_CONV_INLINE void window_products(const geometry *g, const pair_state *p, const int8_t *image, int64_t iy,
                                           int64_t ix0, int64_t ix1, int32_t ky0, int32_t ky1, int32_t kx0,
                                           int32_t kx1, int32_t *acc)
{
    const size_t in_c = (size_t)g->in_c;
    /* The first tap inside: its coordinates are in the image, so they fit 32 bits. */
    const size_t y = (size_t)(int32_t)(iy + (int64_t)ky0 * g->dil_h);
    const size_t row = y * (size_t)g->in_w;
    size_t in0 = (row + (size_t)(int32_t)(ix0 + (int64_t)kx0 * g->dil_w)) * in_c;
    size_t in1 = (row + (size_t)(int32_t)(ix1 + (int64_t)kx0 * g->dil_w)) * in_c;
    size_t wt = ((size_t)ky0 * (size_t)g->k_w + (size_t)kx0) * in_c;
    const size_t in_step = (size_t)g->dil_h * (size_t)g->in_w * in_c; /* unsigned: wraps unused past the last */
    const size_t w_step = (size_t)g->k_w * in_c;
    const int32_t run = (kx1 - kx0) * g->in_c;
    for (int32_t ky = ky0; ky < ky1; ++ky)
    {
        if (g->dil_w == 1)
        {
            dot_2x2(image + in0, image + in1, p->filter[0] + wt, p->filter[1] + wt, run, acc);
        }
        else
        {
            const size_t step = (size_t)g->dil_w * in_c;
            for (int32_t kx = 0; kx < kx1 - kx0; ++kx)
            {
                dot_2x2(image + in0 + kx * step, image + in1 + kx * step, p->filter[0] + wt + kx * in_c,
                        p->filter[1] + wt + kx * in_c, g->in_c, acc);
            }
        }
        in0 += in_step;
        in1 += in_step;
        wt += w_step;
    }
}

/* Writes two channels (or one, `channels`) of `pixels` (1 or 2) output pixels from their sums. */
HELIA_DSP_CONV_INLINE void store_tile(const geometry *g, const pair_state *p, const int32_t *acc, int8_t *out,
                                      int32_t pixels, int32_t channels)
{
    for (int32_t px = 0; px < pixels; ++px)
    {
        for (int32_t c = 0; c < channels; ++c)
        {
            const int32_t a = acc[px * 2 + c];
            out[(size_t)px * g->out_c + c] = p->fast ? requantize_fast(a, &p->ch[c], g->act_min, g->act_max)
                                                     : requantize_exact((uint32_t)a, p->ch[c].multiplier,
                                                                        p->ch[c].shift, g);
        }
    }
}

/* The sums' start for a window of taps [ky0, ky1) x [kx0, kx1) (whole filter: the precomputed one). */
HELIA_DSP_CONV_INLINE void window_start(const geometry *g, const pair_state *p, int32_t ky0, int32_t ky1,
                                        int32_t kx0, int32_t kx1, uint32_t *start)
{
    for (int32_t c = 0; c < 2; ++c)
    {
        if (ky0 == 0 && kx0 == 0 && ky1 == g->k_h && kx1 == g->k_w)
        {
            start[c] = p->ch[c].whole;
        }
        else
        {
            const int32_t sum = window_weight_sum(p->has_tap_sums ? p->tap_sums[c] : NULL, p->filter[c], g, ky0,
                                                  ky1, kx0, kx1);
            start[c] = p->ch[c].base + (uint32_t)g->input_offset * (uint32_t)sum;
        }
    }
}

/* One output row of one image for a channel pair (`channels` 1: the second slot repeats the first). */
static void run_row(const geometry *g, const pair_state *p, const int8_t *image, int32_t oy, int8_t *out,
                    int32_t channels)
{
    const int64_t iy = (int64_t)oy * g->stride_h - g->pad_h;
    int32_t ky0, ky1;
    inside_taps(iy, g->dil_h, g->in_h, g->k_h, &ky0, &ky1);
    int32_t ox = 0;
    while (ox < g->out_w)
    {
        const int64_t ix0 = (int64_t)ox * g->stride_w - g->pad_w;
        int32_t kx0 = 0, kx1 = g->k_w;
        int32_t pixels = 1;
        int64_t ix1 = ix0;
        if (ox >= g->inside_x0 && ox + 1 < g->inside_x1)
        {
            pixels = 2; /* both windows inside along x */
            ix1 = ix0 + g->stride_w;
        }
        else
        {
            inside_taps(ix0, g->dil_w, g->in_w, g->k_w, &kx0, &kx1);
            int32_t nx0 = 0, nx1 = 0;
            const int64_t next = ix0 + g->stride_w;
            if (ox + 1 < g->out_w)
            {
                inside_taps(next, g->dil_w, g->in_w, g->k_w, &nx0, &nx1);
            }
            if (ox + 1 < g->out_w && nx0 == kx0 && nx1 == kx1)
            {
                pixels = 2; /* an edge pair with the same taps inside */
                ix1 = next;
            }
        }
        uint32_t start[2];
        window_start(g, p, ky0, ky1, kx0, kx1, start);
        int32_t acc[4] = {(int32_t)start[0], (int32_t)start[1], (int32_t)start[0], (int32_t)start[1]};
        if (ky0 < ky1 && kx0 < kx1)
        {
            window_products(g, p, image, iy, ix0, ix1, ky0, ky1, kx0, kx1, acc);
        }
        store_tile(g, p, acc, out + (size_t)ox * g->out_c, pixels, channels);
        ox += pixels;
    }
}

/*
 * The gathered path (filters of up to HELIA_DSP_CONV_GATHER_MAX bytes): output pixels two at a time,
 * each one's window copied into a stack buffer in filter order, the taps in the padding written as
 * -input_offset, so that their products cancel the offset's share of the start value exactly as the
 * reference's skipped taps do: every pixel, edge or not, is then one contiguous dot product per channel
 * starting at bias + input_offset * (sum of the filter), with no per-row or per-edge work, and any two
 * pixels (across rows) pair up. The two windows serve every output channel, two at a time; the buffers'
 * zero padding to a multiple of 8 bytes lets the assembly loop run whole passes, reading up to 7
 * bytes of the next filter (times zero) wherever a next filter exists.
 */
#ifndef HELIA_DSP_CONV_GATHER_MAX
#define HELIA_DSP_CONV_GATHER_MAX 576 /* 3 x 3 x 64 (resnet) fits: 2,920 stack bytes of windows */
#endif
#define BLOCK 32 /* output channels whose start values and rounding constants are on the stack */

HELIA_DSP_CONV_INLINE void store4(int8_t *p, uint32_t v)
{
    memcpy(p, &v, sizeof(v));
}

static void copy_bytes(int8_t *dst, const int8_t *src, int32_t n)
{
    for (; n >= 4; n -= 4, dst += 4, src += 4)
    {
        store4(dst, load4(src));
    }
    for (; n > 0; --n)
    {
        *dst++ = *src++;
    }
}

/* Output pixel (oy, ox)'s window: kh * kw * cin bytes in filter order, taps in the padding -input_offset. */
static void gather(const geometry *g, const int8_t *image, int32_t oy, int32_t ox, int8_t *dst)
{
    const int8_t fill = (int8_t)-g->input_offset;
    const int32_t in_c = g->in_c;
    const int32_t run = g->k_w * in_c;
    const int64_t iy = (int64_t)oy * g->stride_h - g->pad_h;
    const int64_t ix = (int64_t)ox * g->stride_w - g->pad_w;
    int32_t ky0 = 0, ky1 = g->k_h, kx0 = 0, kx1 = g->k_w;
    if (oy < g->inside_y0 || oy >= g->inside_y1)
    {
        inside_taps(iy, g->dil_h, g->in_h, g->k_h, &ky0, &ky1);
    }
    if (ox < g->inside_x0 || ox >= g->inside_x1)
    {
        inside_taps(ix, g->dil_w, g->in_w, g->k_w, &kx0, &kx1);
    }
    for (int32_t ky = 0; ky < g->k_h; ++ky, dst += run)
    {
        if (ky < ky0 || ky >= ky1 || kx0 >= kx1)
        {
            memset(dst, fill, (size_t)run);
            continue;
        }
        const size_t y = (size_t)(int32_t)(iy + (int64_t)ky * g->dil_h);
        const int8_t *row = image + y * (size_t)g->in_w * (size_t)in_c;
        if (kx0 > 0)
        {
            memset(dst, fill, (size_t)kx0 * in_c);
        }
        if (g->dil_w == 1)
        {
            copy_bytes(dst + kx0 * in_c, row + (size_t)(int32_t)(ix + kx0) * in_c, (kx1 - kx0) * in_c);
        }
        else
        {
            for (int32_t kx = kx0; kx < kx1; ++kx)
            {
                copy_bytes(dst + kx * in_c, row + (size_t)(int32_t)(ix + (int64_t)kx * g->dil_w) * in_c, in_c);
            }
        }
        if (kx1 < g->k_w)
        {
            memset(dst + kx1 * in_c, fill, (size_t)(g->k_w - kx1) * in_c);
        }
    }
}

/* An inside pixel's window extended straight from the input (dilation 1 along x, kw * cin a multiple of
 * 4 bytes): into dst[0], dst[1], then dst[4], dst[5], ... (the tile's layout for one pixel). */
static void extend_inside(const geometry *g, const int8_t *image, int32_t oy, int32_t ox, int32_t *dst)
{
    const int32_t run_words = (g->k_w * g->in_c) >> 2;
    const size_t row_step = (size_t)g->dil_h * (size_t)g->in_w * (size_t)g->in_c;
    const int8_t *src = image + ((size_t)((int64_t)oy * g->stride_h - g->pad_h) * (size_t)g->in_w +
                                 (size_t)((int64_t)ox * g->stride_w - g->pad_w)) * (size_t)g->in_c;
    for (int32_t ky = 0; ky < g->k_h; ++ky, src += ky < g->k_h ? row_step : 0)
    {
        for (int32_t k = 0; k < run_words; ++k, dst += 4)
        {
            const uint32_t v = load4(src + 4 * k);
            dst[0] = __sxtb16((int32_t)v);
            dst[1] = sxtb16_ror8(v);
        }
    }
}

/* An inside pixel's window (dilation 1 along x) copied row by row, without gather's edge bookkeeping.
 * Rows of 4 bytes or more but the last go in whole words, the last word running up to 3 bytes past the
 * row: in the window into the next row's place, written next; in the input into the bytes before the
 * next filter row, which is inside the image. The last row goes exactly. */
static void copy_inside(const geometry *g, const int8_t *image, int32_t oy, int32_t ox, int8_t *dst)
{
    const int32_t run = g->k_w * g->in_c;
    const int32_t words = (run + 3) >> 2;
    const size_t row_step = (size_t)g->dil_h * (size_t)g->in_w * (size_t)g->in_c;
    const int8_t *src = image + ((size_t)((int64_t)oy * g->stride_h - g->pad_h) * (size_t)g->in_w +
                                 (size_t)((int64_t)ox * g->stride_w - g->pad_w)) * (size_t)g->in_c;
    for (int32_t ky = 0; ky + 1 < g->k_h; ++ky, dst += run, src += row_step)
    {
        if (run >= 4)
        {
            for (int32_t k = 0; k < words; ++k)
            {
                store4(dst + 4 * k, load4(src + 4 * k));
            }
        }
        else
        {
            copy_bytes(dst, src, run);
        }
    }
    copy_bytes(dst, src, run);
}

/* The fast requantization of a pixel pair's sums (tile_pairs' layout) for `count` channels; the
 * activation's full range is one SSAT. */
static void requantize_fast_block(const int32_t *sums, const int32_t *multiplier, const int32_t *right,
                                  const int32_t *rounding, int32_t count, int32_t act_min, int32_t act_max,
                                  int8_t *out0, int8_t *out1)
{
    if (act_min == -128 && act_max == 127)
    {
        for (int32_t i = 0; i < count; ++i)
        {
            const int32_t *a = sums + 2 * i - (i & 1);
            const int32_t m = multiplier[i], r = right[i], k = rounding[i];
            const int32_t x0 = smmulr(a[0] * 2, m);
            const int32_t x1 = smmulr(a[2] * 2, m);
            out0[i] = (int8_t)__ssat((x0 + k + (x0 >> 31)) >> r, 8);
            out1[i] = (int8_t)__ssat((x1 + k + (x1 >> 31)) >> r, 8);
        }
        return;
    }
    for (int32_t i = 0; i < count; ++i)
    {
        const int32_t *a = sums + 2 * i - (i & 1);
        const int32_t m = multiplier[i], r = right[i], k = rounding[i];
        const int32_t x0 = smmulr(a[0] * 2, m);
        const int32_t x1 = smmulr(a[2] * 2, m);
        int32_t y0 = (x0 + k + (x0 >> 31)) >> r;
        int32_t y1 = (x1 + k + (x1 >> 31)) >> r;
        y0 = y0 < act_min ? act_min : y0;
        y1 = y1 < act_min ? act_min : y1;
        out0[i] = (int8_t)(y0 > act_max ? act_max : y0);
        out1[i] = (int8_t)(y1 > act_max ? act_max : y1);
    }
}

static __attribute__((noinline)) void run_gathered(const geometry *g, const cmsis_nn_per_channel_quant_params *quant,
                         const int32_t *weight_sums, const int32_t *bias, const int8_t *filter, const int8_t *input,
                         int32_t batches, int8_t *output)
{
    int8_t window[HELIA_DSP_CONV_GATHER_MAX + 8] __attribute__((aligned(4)));
    /* Both pixels' windows extended: per input word, pixel 0's bytes 0, 2 and 1, 3, then pixel 1's. */
    int32_t tile[HELIA_DSP_CONV_GATHER_MAX + 8];
    uint32_t whole[BLOCK + 1];
    int32_t rounding[BLOCK];
    int32_t right[BLOCK];
    int32_t sums[2 * BLOCK]; /* a pixel pair's sums, four per channel pair */
    const int32_t depth = g->depth;
    const int32_t padded = (depth + 7) & ~7;
    const int32_t padded_words = padded >> 2;
    memset(window + depth, 0, (size_t)(padded - depth));
    memset(tile, 0, sizeof(tile[0]) * (size_t)padded); /* the windows' pad words stay zero */
    const int32_t direct = g->dil_w == 1 && ((g->k_w * g->in_c) & 3) == 0;
    const int32_t pixels = g->out_h * g->out_w;
    const size_t in_image = (size_t)g->in_h * g->in_w * g->in_c;
    const int32_t act_min = g->act_min, act_max = g->act_max;
    for (int32_t c0 = 0; c0 < g->out_c; c0 += BLOCK)
    {
        const int32_t count = g->out_c - c0 < BLOCK ? g->out_c - c0 : BLOCK;
        int32_t fast = 1;
        for (int32_t i = 0; i < count; ++i)
        {
            const int32_t c = c0 + i;
            if (weight_sums != NULL)
            {
                whole[i] = (uint32_t)weight_sums[c];
            }
            else
            {
                const uint32_t b = bias != NULL ? (uint32_t)bias[c] : 0u;
                whole[i] = b + (uint32_t)g->input_offset * (uint32_t)byte_sum(filter + (size_t)c * depth, depth);
            }
            const int32_t shift = quant->shift[c];
            const int32_t start = (int32_t)whole[i];
            /* |start| < 2^29 and |sum of products| <= depth * 2^14 < 2^24: the doubled sum cannot wrap. */
            fast &= shift <= -1 && shift >= -MAX_FAST_RIGHT && start < MAX_FAST_BIAS && start > -MAX_FAST_BIAS;
            rounding[i] = shift <= -1 && shift >= -MAX_FAST_RIGHT ? (1 << (-shift - 1)) + g->output_offset * (1 << -shift) : 0;
            right[i] = -shift;
        }
        /* A small filter set (vww's first layer: 8 x 27 bytes) is extended once, into the tile buffer's
         * unused part behind the windows, so the loop loads weight pairs instead of extending them. */
        const int32_t extended_weights = count == g->out_c && (int64_t)padded * (1 + ((count + 1) >> 1)) <=
                                                                   HELIA_DSP_CONV_GATHER_MAX + 8;
        if (extended_weights)
        {
            whole[count] = 0u; /* a last single channel's partner */
            extend_weights(filter, depth, padded_words, c0, count, tile + padded);
        }
        /* Leading pairs of both channels whose whole passes read within the filter array. */
        int32_t asm_pairs = 0;
        while (2 * asm_pairs + 1 < count &&
               (int64_t)(c0 + 2 * asm_pairs + 1) * depth + padded <= (int64_t)g->out_c * depth)
        {
            ++asm_pairs;
        }
        for (int32_t b = 0; b < batches; ++b)
        {
            const int8_t *image = input + (size_t)b * in_image;
            int8_t *out_image = output + (size_t)b * pixels * g->out_c;
            for (int32_t q = 0; q < pixels; q += 2)
            {
                const int32_t two = q + 1 < pixels;
                for (int32_t px = 0; px < 2; ++px)
                {
                    const int32_t pixel = two ? q + px : q;
                    const int32_t oy = pixel / g->out_w, ox = pixel % g->out_w;
                    int32_t *dst = tile + 2 * px;
                    const int32_t inside = g->dil_w == 1 && oy >= g->inside_y0 && oy < g->inside_y1 &&
                                           ox >= g->inside_x0 && ox < g->inside_x1;
                    if (inside && direct)
                    {
                        extend_inside(g, image, oy, ox, dst);
                        continue;
                    }
                    if (inside)
                    {
                        copy_inside(g, image, oy, ox, window);
                    }
                    else
                    {
                        gather(g, image, oy, ox, window);
                    }
                    for (int32_t k = 0; k < padded_words; ++k, dst += 4)
                    {
                        const uint32_t v = load4(window + 4 * k);
                        dst[0] = __sxtb16((int32_t)v);
                        dst[1] = sxtb16_ror8(v);
                    }
                }
                int8_t *out0 = out_image + (size_t)q * g->out_c + c0;
                int8_t *out1 = two ? out0 + g->out_c : out0;
                if (extended_weights)
                {
                    tile_pairs_extended(tile, tile + padded, padded_words, whole, (count + 1) >> 1, sums);
                }
                else
                {
                    tile_pairs(tile, filter + (size_t)c0 * depth, depth, padded_words, whole, asm_pairs, sums);
                }
                for (int32_t i = extended_weights ? count + (count & 1) : 2 * asm_pairs; i < count; i += 2)
                {
                    /* The block's last pairs: a single channel, or passes that would read past the filters. */
                    const int32_t second = i + 1 < count ? i + 1 : i;
                    const int32_t c = c0 + second;
                    const int32_t whole_passes = (int64_t)c * depth + padded <= (int64_t)g->out_c * depth;
                    int32_t acc[4] = {(int32_t)whole[i], (int32_t)whole[second], (int32_t)whole[i],
                                      (int32_t)whole[second]};
                    dot_tile(tile, filter + (size_t)(c0 + i) * depth, filter + (size_t)c * depth,
                             whole_passes ? padded_words : depth >> 2, whole_passes ? 0 : depth & 3, acc);
                    memcpy(sums + 2 * i, acc, sizeof(acc));
                }
                if (fast)
                {
                    requantize_fast_block(sums, quant->multiplier + c0, right, rounding, count, act_min, act_max, out0,
                                          out1);
                    continue;
                }
                for (int32_t i = 0; i < count; i += 2)
                {
                    const int32_t second = i + 1 < count ? i + 1 : i;
                    const int32_t c = c0 + second;
                    const int32_t *acc = sums + 2 * i;
                    out1[i] = requantize_exact((uint32_t)acc[2], quant->multiplier[c0 + i], quant->shift[c0 + i], g);
                    out0[i] = requantize_exact((uint32_t)acc[0], quant->multiplier[c0 + i], quant->shift[c0 + i], g);
                    if (second != i)
                    {
                        out0[second] = requantize_exact((uint32_t)acc[1], quant->multiplier[c], quant->shift[c], g);
                        out1[second] = requantize_exact((uint32_t)acc[3], quant->multiplier[c], quant->shift[c], g);
                    }
                }
            }
        }
    }
}

/* Filters deeper than the gathered path's windows: read in place, channel pair by channel pair (its own
 * frame, so that the stack holds either path's buffers, not both). */
static __attribute__((noinline)) void run_in_place(const geometry *g, const cmsis_nn_per_channel_quant_params *quant_params,
                                                   const int32_t *weight_sums, const int32_t *bias_data,
                                                   const int8_t *filter_data, const int8_t *input_data,
                                                   int32_t batches, int8_t *output_data)
{
    const size_t in_image = (size_t)g->in_h * g->in_w * g->in_c;
    const size_t out_row = (size_t)g->out_w * g->out_c;
    pair_state p;
    p.has_tap_sums = g->k_h * g->k_w <= MAX_TAP_SUMS;
    for (int32_t c = 0; c < g->out_c; c += 2)
    {
        const int32_t channels = c + 1 < g->out_c ? 2 : 1;
        p.fast = 1;
        prepare_channel(&p, 0, c, g, quant_params, weight_sums, bias_data, filter_data);
        prepare_channel(&p, 1, c + channels - 1, g, quant_params, weight_sums, bias_data, filter_data);
        for (int32_t b = 0; b < batches; ++b)
        {
            const int8_t *image = input_data + (size_t)b * in_image;
            int8_t *out = output_data + (size_t)b * g->out_h * out_row + c;
            for (int32_t oy = 0; oy < g->out_h; ++oy)
            {
                run_row(g, &p, image, oy, out + (size_t)oy * out_row, channels);
            }
        }
    }
}

static int32_t arguments_ok(const cmsis_nn_conv_params *conv_params, const cmsis_nn_dims *input_dims,
                            const cmsis_nn_dims *filter_dims, const cmsis_nn_dims *output_dims,
                            const cmsis_nn_per_channel_quant_params *quant_params)
{
    const cmsis_nn_conv_params *p = conv_params;
    if (filter_dims->c != input_dims->c || filter_dims->n != output_dims->c || output_dims->n != input_dims->n ||
        input_dims->n < 0 || input_dims->h < 1 || input_dims->w < 1 || input_dims->c < 1 || filter_dims->h < 1 ||
        filter_dims->w < 1 || output_dims->h < 1 || output_dims->w < 1 || output_dims->c < 1 || p->stride.h < 1 ||
        p->stride.w < 1 || p->dilation.h < 1 || p->dilation.w < 1 || p->padding.h < 0 || p->padding.w < 0 ||
        p->input_offset < -127 || p->input_offset > 128 || p->output_offset < -128 || p->output_offset > 127 ||
        p->activation.min < -128 || p->activation.max > 127 || p->activation.min > p->activation.max)
    {
        return 0;
    }
    /* Filter depths whose byte count overflows int32 cannot be in memory anyway. */
    if ((int64_t)filter_dims->h * filter_dims->w * input_dims->c > INT32_MAX)
    {
        return 0;
    }
    for (int32_t c = 0; c < output_dims->c; ++c)
    {
        if (quant_params->shift[c] < -31 || quant_params->shift[c] > 30)
        {
            return 0;
        }
    }
    return 1;
}

arm_cmsis_nn_status helia_dsp_convolve_s8(const cmsis_nn_context *ctx,
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
    (void)ctx; /* no scratch */
    (void)bias_dims;
    if (!arguments_ok(conv_params, input_dims, filter_dims, output_dims, quant_params))
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    geometry g = {input_dims->h,
                        input_dims->w,
                        input_dims->c,
                        filter_dims->h,
                        filter_dims->w,
                        filter_dims->h * filter_dims->w * input_dims->c,
                        conv_params->stride.h,
                        conv_params->stride.w,
                        conv_params->padding.h,
                        conv_params->padding.w,
                        conv_params->dilation.h,
                        conv_params->dilation.w,
                        output_dims->h,
                        output_dims->w,
                        output_dims->c,
                        conv_params->input_offset,
                        conv_params->output_offset,
                        conv_params->activation.min,
                        conv_params->activation.max,
                        0,
                        0,
                        0,
                        0};
    /* Columns whose window lies inside: ox * stride - pad >= 0 and its last tap below the width. */
    const int64_t span = (int64_t)(g.k_w - 1) * g.dil_w;
    const int64_t first = ((int64_t)g.pad_w + g.stride_w - 1) / g.stride_w;
    const int64_t room = (int64_t)g.in_w - 1 - span + g.pad_w;
    const int64_t end = room >= 0 ? room / g.stride_w + 1 : 0;
    g.inside_x0 = (int32_t)(first < g.out_w ? first : g.out_w);
    g.inside_x1 = (int32_t)(end < g.inside_x0 ? g.inside_x0 : (end < g.out_w ? end : g.out_w));
    const int64_t span_y = (int64_t)(g.k_h - 1) * g.dil_h;
    const int64_t first_y = ((int64_t)g.pad_h + g.stride_h - 1) / g.stride_h;
    const int64_t room_y = (int64_t)g.in_h - 1 - span_y + g.pad_h;
    const int64_t end_y = room_y >= 0 ? room_y / g.stride_h + 1 : 0;
    g.inside_y0 = (int32_t)(first_y < g.out_h ? first_y : g.out_h);
    g.inside_y1 = (int32_t)(end_y < g.inside_y0 ? g.inside_y0 : (end_y < g.out_h ? end_y : g.out_h));
    const int32_t *weight_sums =
        weight_sum_ctx != NULL && weight_sum_ctx->buf != NULL &&
                weight_sum_ctx->size >= (int32_t)((uint32_t)g.out_c * sizeof(int32_t)) && g.out_c < (1 << 28)
            ? (const int32_t *)weight_sum_ctx->buf
            : NULL;
    if (g.depth <= HELIA_DSP_CONV_GATHER_MAX)
    {
        run_gathered(&g, quant_params, weight_sums, bias_data, filter_data, input_data, input_dims->n, output_data);
        return ARM_CMSIS_NN_SUCCESS;
    }
    run_in_place(&g, quant_params, weight_sums, bias_data, filter_data, input_data, input_dims->n, output_data);
    return ARM_CMSIS_NN_SUCCESS;
}

#else /* !HELIA_DSP_AVAILABLE: no DSP extension (e.g. a host build of a module converted for a DSP core) */

#include "arm_nnfunctions.h"

/* The kernel library's general entry with the same arguments: for every call this kernel accepts it
 * computes the same bytes (tests/kernels/test_dsp_parity.py); ctx must then hold the scratch
 * arm_convolve_s8_get_buffer_size asks for. */
arm_cmsis_nn_status helia_dsp_convolve_s8(const cmsis_nn_context *ctx,
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

#endif /* HELIA_DSP_AVAILABLE */
