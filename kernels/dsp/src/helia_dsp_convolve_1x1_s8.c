/* SPDX-License-Identifier: Apache-2.0 */
/* int8 1x1 convolution (stride 1, no padding) with the Armv7E-M DSP extension: a matrix product of the
 * input pixels (rows x depth) with the filter (output channels x depth), requantized per channel.
 *
 * Tiles of two pixels by two output channels. The two pixels are first widened once into a small stack
 * buffer as int16 pairs holding 2 * (x + input_offset) (SXTAB16 then SADD16, interleaved per four depth
 * values), reused by every output channel; per four depth values a tile then loads the four buffer words
 * (one LDM) and two filter words, widens the filter words with SXTB16 (even and odd bytes, the same lane
 * order as the buffer) and runs eight SMLADs: sixteen multiply-accumulates in fifteen instructions. A
 * last odd pixel runs a 1 x 2 tile. Both loops, with the widening and the requantization, are assembly
 * (helia_dsp_conv_1x1_block / _single below): the tile needs all fourteen allocatable registers.
 *
 * The doubled accumulator makes the requantization short: with |2 * acc| < 2^28, which a per-call check
 * of bias and depth guarantees (true of every real layer), TFLite's rounding doubling high multiply is
 * one SMMULR, and the rounding right shift by e is (2x - (x < 0) + 2^e) >> (e + 1), exact for every e;
 * e is capped where every value the channel reaches rounds to 0, so the output offset folds into the
 * rounding constant. With multipliers >= 0 and e >= 1 (TFLite's layers), x + 2^(e - 1) is one SMMLAR and
 * x's sign the sum's: (SMMLAR - sign) >> e. A tile's four bytes are saturated, packed with BFI and, when
 * the activation range is narrower than int8, clamped with SSUB8 / SEL. Calls outside the bound (huge
 * biases, positive shifts, depths over 4096) take an exact scalar requantization instead.
 *
 * The input offset is folded into the widened input lanes, so no filter row sums are needed; with
 * weight sums (bias + input_offset * row sum) the lanes hold plain 2 * x and the sums start the
 * accumulators. Depths not a multiple of 4 and a last odd channel run the same tile in C; depths over
 * EXPANDED_MAX_DEPTH skip the buffer and widen the input inside the tile. */

#include "helia_dsp.h"

#if HELIA_DSP_AVAILABLE

#include <arm_acle.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HELIA_DSP_INLINE static inline __attribute__((always_inline))

/* Deepest input widened into the stack buffer (two pixels of int16: 4 * depth bytes). */
#define EXPANDED_MAX_DEPTH 256
/* Output channels whose requantization constants are prepared at a time (16 bytes each on the stack). */
#define CHANNEL_BLOCK 64
/* |2 * accumulator| stays below 2^28 for the short requantization (see the file comment). */
#define SHORT_ACC_LIMIT ((int32_t)1 << 27)
/* Largest |(x + input_offset) * w| (255 * 128). */
#define MAX_PRODUCT 32640
/* Deepest input the short requantization can take (MAX_PRODUCT * depth < 2^27). */
#define SHORT_MAX_DEPTH 4096

/* Requantization constants of a pair of output channels (lane 1 repeats lane 0 for a last odd channel),
 * laid out for the assembly loop: the accumulators' four starting values (pixel 0 and 1 of channel 0 and
 * 1) in one LDM, then multipliers, round_adds and shifts in another. */
typedef struct
{
    int32_t bias[4];       /* the accumulators' start (channel 0, 1, 0, 1): 2 * bias (widened path), bias */
    int32_t multiplier[2]; /* Q31 */
    int32_t round_add[2];  /* short path: 2^e (e = -shift clamped to 29); exact path: unused */
    int32_t shift[2];      /* short path: e + 1; exact path: the TFLite shift */
} channel_pair_quant;

typedef struct
{
    const int8_t *input;
    const int8_t *filter;
    int8_t *output;
    const int32_t *bias;        /* NULL: none */
    const int32_t *weight_sums; /* NULL: none; else used instead of bias and input offset */
    const int32_t *multiplier;
    const int32_t *shift;
    int32_t rows, depth, channels;
    int32_t input_offset, output_offset, act_min, act_max;
    int32_t folded; /* short requantization with the output offset inside round_add */
    int32_t mla;    /* short requantization with round_add = 2^(e - 1) (+ offset * 2^e), shift = e: every
                       multiplier >= 0 and every e >= 1 (the assembly then takes x's sign from the sum's) */
} conv_args;

HELIA_DSP_INLINE uint32_t load_word(const int8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof(v)); /* one LDR: the Cortex-M cores with DSP load unaligned words */
    return v;
}

/* The first `count` (1 to 3) bytes at p in a word's low bytes, the rest zero. */
HELIA_DSP_INLINE uint32_t load_tail(const int8_t *p, int32_t count)
{
    uint32_t v = (uint8_t)p[0];
    if (count > 1)
    {
        v |= (uint32_t)(uint8_t)p[1] << 8;
    }
    if (count > 2)
    {
        v |= (uint32_t)(uint8_t)p[2] << 16;
    }
    return v;
}

HELIA_DSP_INLINE void store_half(int8_t *p, uint32_t v)
{
    const uint16_t h = (uint16_t)v;
    memcpy(p, &h, sizeof(h));
}

/* SXTB16 / SXTAB16 of the odd bytes (ROR #8 in the instruction: GCC does not fold __ror into them). */
HELIA_DSP_INLINE int32_t widen_odd(uint32_t v)
{
    int32_t r;
    __asm("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
    return r;
}

HELIA_DSP_INLINE int32_t widen_odd_add(int32_t pair, uint32_t v)
{
    int32_t r;
    __asm("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(pair), "r"(v));
    return r;
}

/* dst's bits lsb .. lsb + 7 replaced by v's low byte (BFI; GCC builds it from masks and shifts). */
#define HELIA_INSERT_BYTE(dst, v, lsb) __asm("bfi %0, %1, #" #lsb ", #8" : "+r"(dst) : "r"(v))

/* (a * b + 2^31) >> 32: ACLE has no intrinsic for SMMULR. */
HELIA_DSP_INLINE int32_t multiply_high_rounded(int32_t a, int32_t b)
{
    int32_t r;
    __asm("smmulr %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

/* TFLite's requantization of acc = acc2 / 2 for |acc2| < 2^28 and shift <= 0 (see the file comment), with
 * the constants of either form (mla: round_add = 2^(e - 1), shift = e; else 2^e and e + 1). */
HELIA_DSP_INLINE int32_t requantize_short(int32_t acc2, int32_t multiplier, int32_t round_add, int32_t shift,
                                          int32_t mla)
{
    const int32_t x = multiply_high_rounded(acc2, multiplier);
    const int32_t negative = (int32_t)((uint32_t)x >> 31);
    return (mla ? x + round_add - negative : round_add + 2 * x - negative) >> shift;
}

/* TFLite's requantization for any accumulator, multiplier and shift in [-31, 30], wrapping where the
 * reference's int32 arithmetic wraps. */
static int32_t requantize_exact(int32_t acc, int32_t multiplier, int32_t shift)
{
    const int32_t left = shift > 0 ? shift : 0;
    const int32_t right = shift > 0 ? 0 : -shift;
    const int32_t shifted = (int32_t)((uint32_t)acc << left);
    const int64_t product = (int64_t)shifted * multiplier + ((int64_t)1 << 30);
    const int32_t x = (int32_t)(product >> 31);
    const int32_t mask = (int32_t)(((uint32_t)1 << right) - 1u);
    const int32_t remainder = x & mask;
    const int32_t quotient = x >> right;
    const int32_t threshold = (mask >> 1) + (quotient < 0 ? 1 : 0);
    return quotient + (remainder > threshold ? 1 : 0);
}

/* Four requantized values (each already in [-128, 127]) as bytes of one word, low byte first, clamped
 * to the activation range (act_min4 / act_max4: the bound in every byte). */
HELIA_DSP_INLINE uint32_t pack_clamped(int32_t b0, int32_t b1, int32_t b2, int32_t b3, uint32_t act_min4,
                                       uint32_t act_max4)
{
    uint32_t v = (uint32_t)b0;
    HELIA_INSERT_BYTE(v, b1, 8);
    HELIA_INSERT_BYTE(v, b2, 16);
    HELIA_INSERT_BYTE(v, b3, 24);
    (void)__ssub8((int32_t)v, (int32_t)act_min4); /* GE set in bytes where v >= act_min */
    v = __sel(v, act_min4);
    (void)__ssub8((int32_t)act_max4, (int32_t)v); /* GE set in bytes where act_max >= v */
    return __sel(v, act_max4);
}

/* Two pixels as 2 * (x + offset) int16 pairs, per four depth values (p0 even, p0 odd, p1 even, p1 odd);
 * a last partial group reads only the pixels' own bytes (its lanes past the depth meet zero weights). */
static void widen_pair(const int8_t *p0, const int8_t *p1, int32_t depth, int32_t offset_pair, int32_t *dst)
{
    for (int32_t g = depth >> 2; g > 0; --g)
    {
        const uint32_t a = load_word(p0);
        const uint32_t b = load_word(p1);
        p0 += 4;
        p1 += 4;
        const int32_t a_even = __sxtab16(offset_pair, (int32_t)a);
        const int32_t a_odd = widen_odd_add(offset_pair, a);
        const int32_t b_even = __sxtab16(offset_pair, (int32_t)b);
        const int32_t b_odd = widen_odd_add(offset_pair, b);
        dst[0] = __sadd16(a_even, a_even);
        dst[1] = __sadd16(a_odd, a_odd);
        dst[2] = __sadd16(b_even, b_even);
        dst[3] = __sadd16(b_odd, b_odd);
        dst += 4;
    }
    const int32_t tail = depth & 3;
    if (tail != 0)
    {
        const uint32_t a = load_tail(p0, tail);
        const uint32_t b = load_tail(p1, tail);
        const int32_t a_even = __sxtab16(offset_pair, (int32_t)a);
        const int32_t a_odd = widen_odd_add(offset_pair, a);
        const int32_t b_even = __sxtab16(offset_pair, (int32_t)b);
        const int32_t b_odd = widen_odd_add(offset_pair, b);
        dst[0] = __sadd16(a_even, a_even);
        dst[1] = __sadd16(a_odd, a_odd);
        dst[2] = __sadd16(b_even, b_even);
        dst[3] = __sadd16(b_odd, b_odd);
    }
}

/* One four-value step of a 2 x 2 tile in C: widened pixels x[0..3], filter words w0, w1. */
HELIA_DSP_INLINE void tile_step(const int32_t *x, uint32_t w0, uint32_t w1, int32_t *acc00, int32_t *acc01,
                                int32_t *acc10, int32_t *acc11)
{
    const int32_t w0_even = __sxtb16((int32_t)w0);
    const int32_t w0_odd = widen_odd(w0);
    const int32_t w1_even = __sxtb16((int32_t)w1);
    const int32_t w1_odd = widen_odd(w1);
    *acc00 = __smlad(x[0], w0_even, *acc00);
    *acc00 = __smlad(x[1], w0_odd, *acc00);
    *acc10 = __smlad(x[2], w0_even, *acc10);
    *acc10 = __smlad(x[3], w0_odd, *acc10);
    *acc01 = __smlad(x[0], w1_even, *acc01);
    *acc01 = __smlad(x[1], w1_odd, *acc01);
    *acc11 = __smlad(x[2], w1_even, *acc11);
    *acc11 = __smlad(x[3], w1_odd, *acc11);
}

/* A run of pixel pairs for the assembly below (it advances input, out and pixel_pairs). */
typedef struct
{
    const int8_t *input;    /* 0: the next pair's pixel 0 */
    int8_t *out;            /* 4: its output at the block's first channel */
    uint32_t act_min4;      /* 8: the activation bounds in every byte */
    uint32_t act_max4;      /* 12 */
    int32_t output_offset;  /* 16 */
    int32_t pixel_pairs;    /* 20: >= 1 */
    int32_t depth;          /* 24: >= 4, a multiple of 4 */
    int32_t groups;         /* 28: depth / 4 */
    const int8_t *filter;   /* 32: the block's first row */
    const void *quant;      /* 36: the block's channel_pair_quant */
    int32_t out_step;       /* 40: 2 * channels */
    int32_t offset_pair;    /* 44: the input offset in both int16 lanes */
    int32_t *widened;       /* 48: 4 * depth bytes */
    const int8_t *filter_end; /* 52: past the block's last channel pair's rows */
    int32_t pixel1_delta;   /* 56: depth (pixel 1 follows pixel 0) */
    int32_t out1_delta;     /* 60: channels */
    int32_t general;        /* 64: 0 when the output offset is folded and the activation range is all of int8 */
    int32_t mla;            /* 68: the constants are for the SMMLAR requantization (conv_args.mla) */
} block_job;

/* The assembly reads these offsets. */
typedef char block_job_layout_check[(offsetof(block_job, act_min4) == 8 && offsetof(block_job, output_offset) == 16 &&
                                     offsetof(block_job, groups) == 28 && offsetof(block_job, offset_pair) == 44 &&
                                     offsetof(block_job, out1_delta) == 60 && offsetof(block_job, general) == 64 && offsetof(block_job, mla) == 68 && offsetof(channel_pair_quant, multiplier) == 16 &&
                                     sizeof(channel_pair_quant) == 40)
                                        ? 1
                                        : -1];

/* Every pixel pair of a job against every channel pair of its block (short requantization), widening each
 * pixel pair into job->widened first. In assembly because the tile needs all fourteen allocatable
 * registers (GCC spills around an inline version): r0 pixel words, r1 filter row 0 (row 1 at [r1, r12 =
 * depth]), r2-r5 four widened pixel words from one LDM, r6-r7 a filter word widened, r8-r11 the
 * accumulators (pixel 0 / 1 by channel 0 / 1), lr the end of the pixel words. Per four depth values: 15
 * instructions for 16 multiply-adds, two steps per loop pass (an odd step count enters at the second). */
void helia_dsp_conv_1x1_block(block_job *job);

#define HELIA_ASM_STEP                                                                                                 \
    "   ldmia   r0!, {r2-r5}\n"                                                                                        \
    "   ldr     r6, [r1, r12]\n"                                                                                       \
    "   sxtb16  r7, r6\n"                                                                                              \
    "   sxtb16  r6, r6, ror #8\n"                                                                                      \
    "   smlad   r9, r2, r7, r9\n"                                                                                      \
    "   smlad   r9, r3, r6, r9\n"                                                                                      \
    "   smlad   r11, r4, r7, r11\n"                                                                                    \
    "   smlad   r11, r5, r6, r11\n"                                                                                    \
    "   ldr     r6, [r1], #4\n"                                                                                        \
    "   sxtb16  r7, r6\n"                                                                                              \
    "   sxtb16  r6, r6, ror #8\n"                                                                                      \
    "   smlad   r8, r2, r7, r8\n"                                                                                      \
    "   smlad   r8, r3, r6, r8\n"                                                                                      \
    "   smlad   r10, r4, r7, r10\n"                                                                                    \
    "   smlad   r10, r5, r6, r10\n"

/* The channel-pair loop, as a GAS macro expanded twice: for an even step count and for an odd one
 * (which enters the two-step loop body at its second step). */
__asm__(
    "   .macro  helia_dsp_1x1_pair_loop odd, mla\n"
    "1:\n"                                /* one channel pair */
    "   ldr     r2, [sp, #4]\n"
    "   ldmia   r2, {r8-r11}\n"          /* starting values */
    "   ldr     r0, [sp]\n"
    "   .if     \\odd\n"
    "   b       3f\n"
    "   .endif\n"
    "2:\n" HELIA_ASM_STEP "3:\n" HELIA_ASM_STEP
    "   cmp     r0, lr\n"
    "   bne     2b\n"
    "   ldr     r0, [sp, #4]\n"
    "   adds    r0, r0, #16\n"
    "   ldmia   r0!, {r2-r7}\n"           /* multipliers r2 r3, round_adds r4 r5, shifts r6 r7 */
    "   str     r0, [sp, #4]\n"
    "   .if     \\mla\n"                  /* multipliers >= 0, e >= 1: x + 2^(e - 1) in one SMMLAR and */
    "   smmlar  r0, r8, r2, r4\n"         /* (x < 0) from the accumulator's sign */
    "   sub     r0, r0, r8, lsr #31\n"
    "   asr     r8, r0, r6\n"
    "   smmlar  r0, r10, r2, r4\n"
    "   sub     r0, r0, r10, lsr #31\n"
    "   asr     r10, r0, r6\n"
    "   smmlar  r0, r9, r3, r5\n"
    "   sub     r0, r0, r9, lsr #31\n"
    "   asr     r9, r0, r7\n"
    "   smmlar  r0, r11, r3, r5\n"
    "   sub     r0, r0, r11, lsr #31\n"
    "   asr     r11, r0, r7\n"
    "   .else\n"
    "   smmulr  r8, r8, r2\n"             /* requantize_short, four times */
    "   smmulr  r10, r10, r2\n"
    "   smmulr  r9, r9, r3\n"
    "   smmulr  r11, r11, r3\n"
    "   add     r2, r4, r8, lsl #1\n"
    "   sub     r2, r2, r8, lsr #31\n"
    "   asr     r8, r2, r6\n"
    "   add     r2, r4, r10, lsl #1\n"
    "   sub     r2, r2, r10, lsr #31\n"
    "   asr     r10, r2, r6\n"
    "   add     r2, r5, r9, lsl #1\n"
    "   sub     r2, r2, r9, lsr #31\n"
    "   asr     r9, r2, r7\n"
    "   add     r2, r5, r11, lsl #1\n"
    "   sub     r2, r2, r11, lsr #31\n"
    "   asr     r11, r2, r7\n"
    "   .endif\n"
    "   ldr     r3, [sp, #24]\n"         /* 0: offset folded, activation the whole int8 range */
    "   cbnz    r3, 5f\n"
    "   ssat    r8, #8, r8\n"
    "   ssat    r9, #8, r9\n"
    "   ssat    r10, #8, r10\n"
    "   ssat    r11, #8, r11\n"
    "   bfi     r8, r9, #8, #8\n"         /* bytes: pixel 0 channel 0, 1; pixel 1 channel 0, 1 */
    "   bfi     r8, r10, #16, #8\n"
    "   bfi     r8, r11, #24, #8\n"
    "6:\n"
    "   ldrd    r4, r5, [sp, #16]\n"      /* output cursors */
    "   strh    r8, [r4], #2\n"
    "   lsrs    r8, r8, #16\n"
    "   strh    r8, [r5], #2\n"
    "   strd    r4, r5, [sp, #16]\n"
    "   add     r1, r1, r12\n"            /* past row 1: the next pair's row 0 */
    "   ldr     r3, [sp, #12]\n"
    "   cmp     r1, r3\n"
    "   bne     1b\n"
    "   b       8f\n"
    "5:\n"                                /* output offset and activation range */
    "   ldr     r0, [sp, #8]\n"
    "   ldr     r3, [r0, #16]\n"
    "   add     r8, r8, r3\n"
    "   add     r9, r9, r3\n"
    "   add     r10, r10, r3\n"
    "   add     r11, r11, r3\n"
    "   ssat    r8, #8, r8\n"
    "   ssat    r9, #8, r9\n"
    "   ssat    r10, #8, r10\n"
    "   ssat    r11, #8, r11\n"
    "   bfi     r8, r9, #8, #8\n"
    "   bfi     r8, r10, #16, #8\n"
    "   bfi     r8, r11, #24, #8\n"
    "   ldrd    r4, r5, [r0, #8]\n"
    "   ssub8   r3, r8, r4\n"             /* GE where >= act_min */
    "   sel     r8, r8, r4\n"
    "   ssub8   r3, r5, r8\n"             /* GE where <= act_max */
    "   sel     r8, r8, r5\n"
    "   b       6b\n"
    "8:\n"
    "   .endm\n");

/* The pixel-pair loop: widen the pair, then every channel pair. */
__asm__(
    "   .macro  helia_dsp_1x1_block_loop odd, mla\n"
    "7:\n"
    "   ldr     r0, [sp, #8]\n"
    "   ldr     r1, [r0]\n"               /* pixel 0 */
    "   ldr     r3, [r0, #56]\n"
    "   add     r3, r1, r3\n"             /* pixel 1 */
    "   ldr     r4, [r0, #44]\n"          /* offset pair */
    "   ldr     r5, [sp]\n"
    "   ldr     r12, [r0, #28]\n"
    "4:\n"
    "   ldr     r6, [r1], #4\n"
    "   ldr     r7, [r3], #4\n"
    "   sxtab16 r8, r4, r6\n"
    "   sxtab16 r9, r4, r6, ror #8\n"
    "   sxtab16 r10, r4, r7\n"
    "   sxtab16 r11, r4, r7, ror #8\n"
    "   sadd16  r8, r8, r8\n"
    "   sadd16  r9, r9, r9\n"
    "   sadd16  r10, r10, r10\n"
    "   sadd16  r11, r11, r11\n"
    "   stmia   r5!, {r8-r11}\n"
    "   subs    r12, r12, #1\n"
    "   bne     4b\n"
    "   ldr     r12, [r0, #24]\n"         /* depth: row 1 is at [r1, r12] */
    "   add     r1, r1, r12\n"            /* r1 was at pixel 1's start */
    "   str     r1, [r0]\n"
    "   ldr     r2, [r0, #36]\n"
    "   str     r2, [sp, #4]\n"
    "   ldr     r4, [r0, #4]\n"
    "   ldr     r5, [r0, #60]\n"
    "   add     r5, r4, r5\n"
    "   strd    r4, r5, [sp, #16]\n"
    "   ldr     r6, [r0, #40]\n"
    "   add     r4, r4, r6\n"
    "   str     r4, [r0, #4]\n"
    "   ldr     r4, [r0, #28]\n"
    "   ldr     lr, [sp]\n"
    "   add     lr, lr, r4, lsl #4\n"
    "   ldr     r1, [r0, #32]\n"
    "   helia_dsp_1x1_pair_loop \\odd, \\mla\n"
    "   ldr     r0, [sp, #8]\n"
    "   ldr     r1, [r0, #20]\n"
    "   subs    r1, r1, #1\n"
    "   str     r1, [r0, #20]\n"
    "   bne     7b\n"
    "   .endm\n");

__asm__(
    "   .pushsection .text.helia_dsp_conv_1x1_block, \"ax\", %progbits\n"
    "   .syntax unified\n"
    "   .thumb\n"
    "   .p2align 2\n"
    "   .global helia_dsp_conv_1x1_block\n"
    "   .type   helia_dsp_conv_1x1_block, %function\n"
    "   .thumb_func\n"
    "helia_dsp_conv_1x1_block:\n"
    "   push    {r4-r11, lr}\n"
    "   sub     sp, sp, #32\n"   /* [sp] widened, [sp, #4] q, [sp, #8] job, [sp, #12] filter end, [sp, #16] */
    "   str     r0, [sp, #8]\n"  /* outputs, [sp, #24] general */
    "   ldr     r1, [r0, #64]\n"
    "   str     r1, [sp, #24]\n"
    "   ldr     r1, [r0, #48]\n"
    "   str     r1, [sp]\n"
    "   ldr     r1, [r0, #52]\n"
    "   str     r1, [sp, #12]\n"
    "   ldr     r4, [r0, #28]\n"
    "   ldr     r5, [r0, #68]\n"
    "   lsls    r4, r4, #31\n"            /* Z: an even step count */
    "   cmp     r5, #0\n"                 /* the SMMLAR requantization */
    "   bne     .Lhelia_dsp_1x1_mla\n"
    "   cmp     r4, #0\n"
    "   bne     .Lhelia_dsp_1x1_odd\n"
    "   helia_dsp_1x1_block_loop 0, 0\n"
    "   b       .Lhelia_dsp_1x1_done\n"
    ".Lhelia_dsp_1x1_odd:\n"
    "   helia_dsp_1x1_block_loop 1, 0\n"
    "   b       .Lhelia_dsp_1x1_done\n"
    ".Lhelia_dsp_1x1_mla:\n"
    "   cmp     r4, #0\n"
    "   bne     .Lhelia_dsp_1x1_mla_odd\n"
    "   helia_dsp_1x1_block_loop 0, 1\n"
    "   b       .Lhelia_dsp_1x1_done\n"
    ".Lhelia_dsp_1x1_mla_odd:\n"
    "   helia_dsp_1x1_block_loop 1, 1\n"
    ".Lhelia_dsp_1x1_done:\n"
    "   add     sp, sp, #32\n"
    "   pop     {r4-r11, pc}\n"
    "   .size   helia_dsp_conv_1x1_block, . - helia_dsp_conv_1x1_block\n"
    "   .popsection\n");

/* A last single pixel (job->input, job->out) against every channel pair of the block: the same loop for
 * one pixel, a 1 x 2 tile (eleven instructions per eight MACs against fifteen for a pixel paired with
 * itself). The odd step count and the requantization form are tested per channel pair. */
void helia_dsp_conv_1x1_single(block_job *job);

#define HELIA_ASM_SINGLE_STEP                                                                                          \
    "   ldmia   r0!, {r2, r3}\n"                                                                                       \
    "   ldr     r6, [r1, r12]\n"                                                                                       \
    "   sxtb16  r7, r6\n"                                                                                              \
    "   sxtb16  r6, r6, ror #8\n"                                                                                      \
    "   smlad   r9, r2, r7, r9\n"                                                                                      \
    "   smlad   r9, r3, r6, r9\n"                                                                                      \
    "   ldr     r6, [r1], #4\n"                                                                                        \
    "   sxtb16  r7, r6\n"                                                                                              \
    "   sxtb16  r6, r6, ror #8\n"                                                                                      \
    "   smlad   r8, r2, r7, r8\n"                                                                                      \
    "   smlad   r8, r3, r6, r8\n"

__asm__(
    "   .pushsection .text.helia_dsp_conv_1x1_single, \"ax\", %progbits\n"
    "   .syntax unified\n"
    "   .thumb\n"
    "   .p2align 2\n"
    "   .global helia_dsp_conv_1x1_single\n"
    "   .type   helia_dsp_conv_1x1_single, %function\n"
    "   .thumb_func\n"
    "helia_dsp_conv_1x1_single:\n"
    "   push    {r4-r11, lr}\n"
    "   sub     sp, sp, #24\n"   /* [sp] widened, [sp, #4] q, [sp, #8] job, [sp, #12] filter end, [sp, #16] */
    "   str     r0, [sp, #8]\n"  /* output, [sp, #20] flags: 1 SMMLAR form, 2 odd step count */
    "   ldr     r4, [r0, #28]\n"
    "   ldr     r5, [r0, #68]\n"
    "   and     r4, r4, #1\n"
    "   orr     r5, r5, r4, lsl #1\n"
    "   str     r5, [sp, #20]\n"
    "   ldr     r1, [r0, #52]\n"
    "   str     r1, [sp, #12]\n"
    "   ldr     r1, [r0, #36]\n"
    "   str     r1, [sp, #4]\n"
    "   ldr     r1, [r0, #4]\n"
    "   str     r1, [sp, #16]\n"
    "   ldr     r1, [r0]\n"               /* the pixel, widened: (even, odd) per four values */
    "   ldr     r4, [r0, #44]\n"
    "   ldr     r5, [r0, #48]\n"
    "   str     r5, [sp]\n"
    "   ldr     r12, [r0, #28]\n"
    "4:\n"
    "   ldr     r6, [r1], #4\n"
    "   sxtab16 r8, r4, r6\n"
    "   sxtab16 r9, r4, r6, ror #8\n"
    "   sadd16  r8, r8, r8\n"
    "   sadd16  r9, r9, r9\n"
    "   stmia   r5!, {r8, r9}\n"
    "   subs    r12, r12, #1\n"
    "   bne     4b\n"
    "   mov     lr, r5\n"                 /* the end of the widened words */
    "   ldr     r12, [r0, #24]\n"
    "   ldr     r1, [r0, #32]\n"
    "1:\n"                                /* one channel pair */
    "   ldr     r2, [sp, #4]\n"
    "   ldmia   r2, {r8, r9}\n"
    "   ldr     r0, [sp]\n"
    "   ldr     r3, [sp, #20]\n"
    "   tst     r3, #2\n"
    "   bne     3f\n"
    "2:\n" HELIA_ASM_SINGLE_STEP "3:\n" HELIA_ASM_SINGLE_STEP
    "   cmp     r0, lr\n"
    "   bne     2b\n"
    "   ldr     r0, [sp, #4]\n"
    "   adds    r0, r0, #16\n"
    "   ldmia   r0!, {r2-r7}\n"
    "   str     r0, [sp, #4]\n"
    "   ldr     r0, [sp, #20]\n"
    "   lsls    r0, r0, #31\n"
    "   beq     4f\n"
    "   smmlar  r0, r8, r2, r4\n"
    "   sub     r0, r0, r8, lsr #31\n"
    "   asr     r8, r0, r6\n"
    "   smmlar  r0, r9, r3, r5\n"
    "   sub     r0, r0, r9, lsr #31\n"
    "   asr     r9, r0, r7\n"
    "   b       5f\n"
    "4:\n"
    "   smmulr  r8, r8, r2\n"
    "   smmulr  r9, r9, r3\n"
    "   add     r2, r4, r8, lsl #1\n"
    "   sub     r2, r2, r8, lsr #31\n"
    "   asr     r8, r2, r6\n"
    "   add     r2, r5, r9, lsl #1\n"
    "   sub     r2, r2, r9, lsr #31\n"
    "   asr     r9, r2, r7\n"
    "5:\n"
    "   ldr     r0, [sp, #8]\n"
    "   ldr     r3, [r0, #16]\n"          /* output offset (0 when folded) */
    "   add     r8, r8, r3\n"
    "   add     r9, r9, r3\n"
    "   ssat    r8, #8, r8\n"
    "   ssat    r9, #8, r9\n"
    "   bfi     r8, r9, #8, #8\n"
    "   ldrd    r6, r7, [r0, #8]\n"
    "   ssub8   r3, r8, r6\n"
    "   sel     r8, r8, r6\n"
    "   ssub8   r3, r7, r8\n"
    "   sel     r8, r8, r7\n"
    "   ldr     r4, [sp, #16]\n"
    "   strh    r8, [r4], #2\n"
    "   str     r4, [sp, #16]\n"
    "   add     r1, r1, r12\n"
    "   ldr     r3, [sp, #12]\n"
    "   cmp     r1, r3\n"
    "   bne     1b\n"
    "   add     sp, sp, #24\n"
    "   pop     {r4-r11, pc}\n"
    "   .size   helia_dsp_conv_1x1_single, . - helia_dsp_conv_1x1_single\n"
    "   .popsection\n");

/* Sums of the widened pixel pair x with filter rows w0, w1 over `groups` whole steps and a partial one of
 * `tail` values, added to the accumulators (the C tile, for a last odd channel and depths not a multiple
 * of 4). */
HELIA_DSP_INLINE void tile_widened(const int32_t *x, const int8_t *w0, const int8_t *w1, int32_t groups,
                                   int32_t tail, int32_t *acc00, int32_t *acc01, int32_t *acc10, int32_t *acc11)
{
    for (int32_t g = groups; g > 0; --g)
    {
        tile_step(x, load_word(w0), load_word(w1), acc00, acc01, acc10, acc11);
        x += 4;
        w0 += 4;
        w1 += 4;
    }
    if (tail != 0)
    {
        tile_step(x, load_tail(w0, tail), load_tail(w1, tail), acc00, acc01, acc10, acc11);
    }
}

/* The output offset the short requantization adds after its shift: none when round_add holds it. */
HELIA_DSP_INLINE int32_t short_offset(const conv_args *a)
{
    return a->folded ? 0 : a->output_offset;
}

/* Requantizes a tile (short path: accumulators doubled), adds the output offset and stores its bytes:
 * pixel 0's channels at out0, pixel 1's at out1; `pixels` and `pair` (two channels) say which exist. */
static void finish_tile(int32_t acc00, int32_t acc01, int32_t acc10, int32_t acc11, const channel_pair_quant *q,
                        const conv_args *a, uint32_t act_min4, uint32_t act_max4, int8_t *out0, int8_t *out1,
                        int32_t pixels, int32_t pair)
{
    const int32_t output_offset = short_offset(a);
    const int32_t y00 =
        __ssat(requantize_short(acc00, q->multiplier[0], q->round_add[0], q->shift[0], a->mla) + output_offset, 8);
    const int32_t y10 =
        __ssat(requantize_short(acc10, q->multiplier[0], q->round_add[0], q->shift[0], a->mla) + output_offset, 8);
    const int32_t y01 =
        __ssat(requantize_short(acc01, q->multiplier[1], q->round_add[1], q->shift[1], a->mla) + output_offset, 8);
    const int32_t y11 =
        __ssat(requantize_short(acc11, q->multiplier[1], q->round_add[1], q->shift[1], a->mla) + output_offset, 8);
    const uint32_t v = pack_clamped(y00, y01, y10, y11, act_min4, act_max4);
    if (pair)
    {
        store_half(out0, v);
        if (pixels == 2)
        {
            store_half(out1, v >> 16);
        }
    }
    else
    {
        out0[0] = (int8_t)v;
        if (pixels == 2)
        {
            out1[0] = (int8_t)(v >> 16);
        }
    }
}

HELIA_DSP_INLINE uint32_t every_byte(int32_t v)
{
    return ((uint32_t)v & 0xFFu) * 0x01010101u;
}

/* One widened pixel pair (x; `pixels` of them real) against `count` channels whose constants are q and
 * filter rows start at filter: output at out (pixel 0) and out + channels (pixel 1). In C: for depths not
 * a multiple of 4 and a last odd channel. */
static void widened_channels(const int32_t *x, const int8_t *filter, const channel_pair_quant *q, int32_t count,
                             int8_t *out, const conv_args *a, int32_t pixels)
{
    const int32_t depth = a->depth;
    const int32_t groups = depth >> 2;
    const int32_t tail = depth & 3;
    const uint32_t act_min4 = every_byte(a->act_min);
    const uint32_t act_max4 = every_byte(a->act_max);
    for (int32_t pairs = count >> 1; pairs > 0; --pairs)
    {
        int32_t acc00 = q->bias[0];
        int32_t acc10 = q->bias[2];
        int32_t acc01 = q->bias[1];
        int32_t acc11 = q->bias[3];
        tile_widened(x, filter, filter + depth, groups, tail, &acc00, &acc01, &acc10, &acc11);
        finish_tile(acc00, acc01, acc10, acc11, q, a, act_min4, act_max4, out, out + a->channels,
                    pixels, 1);
        filter += 2 * depth;
        ++q;
        out += 2;
    }
    if (count & 1)
    {
        int32_t acc00 = q->bias[0];
        int32_t acc10 = q->bias[0];
        int32_t acc01 = q->bias[0];
        int32_t acc11 = q->bias[0];
        tile_widened(x, filter, filter, groups, tail, &acc00, &acc01, &acc10, &acc11);
        finish_tile(acc00, acc01, acc10, acc11, q, a, act_min4, act_max4, out, out + a->channels,
                    pixels, 0);
    }
}

/* A block of `count` channels from `first` over every pixel pair, through the widened buffer: channel
 * pairs in assembly where the depth is a multiple of 4, the rest in C. */
static void widened_block(const conv_args *a, const channel_pair_quant *q, int32_t first, int32_t count)
{
    int32_t widened[EXPANDED_MAX_DEPTH]; /* two pixels of EXPANDED_MAX_DEPTH int16 values */
    const int32_t depth = a->depth;
    const int32_t offset = a->weight_sums != NULL ? 0 : a->input_offset;
    const int32_t offset_pair = (int32_t)(((uint32_t)offset & 0xFFFFu) * 0x10001u);
    const int8_t *filter = a->filter + (size_t)first * depth;
    int8_t *out = a->output + first;
    int32_t done = 0; /* channels the assembly computed */
    if ((depth & 3) == 0 && count >= 2 && a->rows > 0)
    {
        const int32_t pairs = count >> 1;
        block_job job = {a->input, out, every_byte(a->act_min), every_byte(a->act_max), short_offset(a),
                         a->rows >> 1, depth, depth >> 2, filter, q, 2 * a->channels, offset_pair, widened,
                         filter + (size_t)2 * pairs * depth, depth, a->channels,
                         short_offset(a) != 0 || a->act_min != -128 || a->act_max != 127, a->mla};
        if (job.pixel_pairs > 0)
        {
            helia_dsp_conv_1x1_block(&job);
        }
        if (a->rows & 1)
        {
            /* job.input and job.out now point at the last pixel. */
            helia_dsp_conv_1x1_single(&job);
        }
        done = 2 * pairs;
        if (done == count)
        {
            return;
        }
    }
    filter += (size_t)done * depth;
    q += done >> 1;
    out += done;
    const int8_t *pixel = a->input;
    for (int32_t r = a->rows >> 1; r > 0; --r)
    {
        widen_pair(pixel, pixel + depth, depth, offset_pair, widened);
        widened_channels(widened, filter, q, count - done, out, a, 2);
        pixel += 2 * depth;
        out += 2 * a->channels;
    }
    if (a->rows & 1)
    {
        widen_pair(pixel, pixel, depth, offset_pair, widened);
        widened_channels(widened, filter, q, count - done, out, a, 1);
    }
}

/* Sums of pixels x0, x1 with filter rows w0, w1 straight from memory (input widened inside the loop). */
HELIA_DSP_INLINE void tile_direct(const int8_t *x0, const int8_t *x1, const int8_t *w0, const int8_t *w1,
                                  int32_t depth, int32_t offset_pair, int32_t *acc00, int32_t *acc01,
                                  int32_t *acc10, int32_t *acc11)
{
    int32_t x[4];
    for (int32_t g = depth >> 2; g > 0; --g)
    {
        const uint32_t a = load_word(x0);
        const uint32_t b = load_word(x1);
        x[0] = __sxtab16(offset_pair, (int32_t)a);
        x[1] = widen_odd_add(offset_pair, a);
        x[2] = __sxtab16(offset_pair, (int32_t)b);
        x[3] = widen_odd_add(offset_pair, b);
        tile_step(x, load_word(w0), load_word(w1), acc00, acc01, acc10, acc11);
        x0 += 4;
        x1 += 4;
        w0 += 4;
        w1 += 4;
    }
    const int32_t tail = depth & 3;
    if (tail != 0)
    {
        const uint32_t a = load_tail(x0, tail);
        const uint32_t b = load_tail(x1, tail);
        x[0] = __sxtab16(offset_pair, (int32_t)a);
        x[1] = widen_odd_add(offset_pair, a);
        x[2] = __sxtab16(offset_pair, (int32_t)b);
        x[3] = widen_odd_add(offset_pair, b);
        tile_step(x, load_tail(w0, tail), load_tail(w1, tail), acc00, acc01, acc10, acc11);
    }
}

HELIA_DSP_INLINE int8_t clamp_output(int32_t y, const conv_args *a)
{
    /* Wrapping, as the reference's int32 sum wraps when a positive shift leaves y near INT32_MAX. */
    y = (int32_t)((uint32_t)y + (uint32_t)a->output_offset);
    y = y < a->act_min ? a->act_min : y;
    return (int8_t)(y > a->act_max ? a->act_max : y);
}

/* A block of channels over every pixel pair without the buffer: depths over EXPANDED_MAX_DEPTH (short
 * requantization) and calls outside its bound (exact, scalar). */
static void direct_block(const conv_args *a, const channel_pair_quant *q, int32_t first, int32_t count,
                         int32_t exact)
{
    const int32_t depth = a->depth;
    const int32_t channels = a->channels;
    const int32_t offset = a->weight_sums != NULL ? 0 : a->input_offset;
    const int32_t offset_pair = (int32_t)(((uint32_t)offset & 0xFFFFu) * 0x10001u);
    const uint32_t act_min4 = every_byte(a->act_min);
    const uint32_t act_max4 = every_byte(a->act_max);
    for (int32_t r = 0; r < a->rows; r += 2)
    {
        const int32_t pixels = r + 1 < a->rows ? 2 : 1;
        const int8_t *x0 = a->input + (size_t)r * depth;
        const int8_t *x1 = pixels == 2 ? x0 + depth : x0;
        int8_t *out0 = a->output + (size_t)r * channels + first;
        for (int32_t c = 0; c < count; c += 2)
        {
            const int32_t pair = c + 1 < count;
            const channel_pair_quant *p = &q[c >> 1];
            const int8_t *w0 = a->filter + (size_t)(first + c) * depth;
            const int8_t *w1 = pair ? w0 + depth : w0;
            int32_t acc00 = p->bias[0];
            int32_t acc10 = p->bias[2];
            int32_t acc01 = p->bias[1];
            int32_t acc11 = p->bias[3];
            tile_direct(x0, x1, w0, w1, depth, offset_pair, &acc00, &acc01, &acc10, &acc11);
            if (!exact)
            {
                /* |acc| < 2^27 here, so doubling cannot overflow. */
                finish_tile(2 * acc00, 2 * acc01, 2 * acc10, 2 * acc11, p, a, act_min4, act_max4,
                            out0 + c, out0 + c + channels, pixels, pair);
                continue;
            }
            out0[c] = clamp_output(requantize_exact(acc00, p->multiplier[0], p->shift[0]), a);
            if (pair)
            {
                out0[c + 1] = clamp_output(requantize_exact(acc01, p->multiplier[1], p->shift[1]), a);
            }
            if (pixels == 2)
            {
                out0[c + channels] = clamp_output(requantize_exact(acc10, p->multiplier[0], p->shift[0]), a);
                if (pair)
                {
                    out0[c + 1 + channels] = clamp_output(requantize_exact(acc11, p->multiplier[1], p->shift[1]), a);
                }
            }
        }
    }
}

/* The starting value of channel c's accumulator before any doubling: weight sum, bias or 0. */
HELIA_DSP_INLINE int32_t channel_start(const conv_args *a, int32_t c)
{
    if (a->weight_sums != NULL)
    {
        return a->weight_sums[c];
    }
    return a->bias != NULL ? a->bias[c] : 0;
}

/* Bound on |accumulator| of channel c, for depths up to SHORT_MAX_DEPTH (beyond, the bound passes
 * SHORT_ACC_LIMIT whatever the start); 32-bit: this runs once per channel and call. */
HELIA_DSP_INLINE uint32_t accumulator_reach(const conv_args *a, int32_t c)
{
    const int32_t start = channel_start(a, c);
    const uint32_t magnitude = start < 0 ? 0u - (uint32_t)start : (uint32_t)start;
    return magnitude + (uint32_t)MAX_PRODUCT * (uint32_t)a->depth;
}

/* The short requantization's right shift e of channel c (reach < 2^27): -shift, capped where the result is
 * 0 for every value the channel reaches (|x| <= reach + 1/2 < 2^(e - 1) rounds to 0), which keeps 2^e
 * and a folded offset small. */
HELIA_DSP_INLINE int32_t short_right_shift(const conv_args *a, int32_t c, uint32_t reach)
{
    const int32_t cap = 33 - __builtin_clz(reach + 1u); /* 2^(cap - 1) > reach + 1 */
    return -a->shift[c] < cap ? -a->shift[c] : cap;
}

/* Whether offset * 2^(e + 1) can join round_add: |2x - (x < 0) + 2^e + offset * 2^(e + 1)| <=
 * 2 * reach + 3 + 257 * 2^e must stay below 2^31. */
HELIA_DSP_INLINE int32_t offset_folds(uint32_t reach, int32_t e)
{
    return e <= 22 && 2u * reach + 3u + (257u << e) < 0x80000000u;
}

enum
{
    REQUANTIZE_EXACT,  /* a shift > 0 or an accumulator that may reach 2^27 */
    REQUANTIZE_SHORT,  /* |2 * acc| < 2^28: SMMULR and the one-step rounding shift */
    REQUANTIZE_FOLDED, /* the same with the output offset folded into round_add */
};

static int32_t requantization_mode(const conv_args *a)
{
    if (a->depth > SHORT_MAX_DEPTH)
    {
        return REQUANTIZE_EXACT;
    }
    int32_t fold = 1;
    for (int32_t c = 0; c < a->channels; ++c)
    {
        const uint32_t reach = accumulator_reach(a, c);
        if (a->shift[c] > 0 || reach >= (uint32_t)SHORT_ACC_LIMIT)
        {
            return REQUANTIZE_EXACT;
        }
        fold &= offset_folds(reach, short_right_shift(a, c, reach));
    }
    return fold ? REQUANTIZE_FOLDED : REQUANTIZE_SHORT;
}

/* Whether the SMMLAR form fits the call: every multiplier >= 0 (TFLite's are positive) and every short
 * right shift >= 1. */
static int32_t mla_form_fits(const conv_args *a)
{
    for (int32_t c = 0; c < a->channels; ++c)
    {
        if (a->multiplier[c] < 0 || a->shift[c] > -1)
        {
            return 0;
        }
    }
    return 1;
}

/* Constants of channels first .. first + count - 1 in pairs (a last odd channel fills both lanes). */
static void prepare_block(const conv_args *a, channel_pair_quant *q, int32_t first, int32_t count, int32_t exact,
                          int32_t doubled)
{
    for (int32_t i = 0; i < count + (count & 1); ++i)
    {
        const int32_t c = first + (i < count ? i : count - 1);
        channel_pair_quant *p = &q[i >> 1];
        const int32_t lane = i & 1;
        const int32_t start = channel_start(a, c);
        p->multiplier[lane] = a->multiplier[c];
        if (exact)
        {
            p->bias[lane] = start;
            p->bias[lane + 2] = start;
            p->round_add[lane] = 0;
            p->shift[lane] = a->shift[c];
            continue;
        }
        /* 2^e + offset * 2^(e + 1) >> e + 1, or in the SMMLAR form 2^(e - 1) + offset * 2^e >> e (e >= 1) */
        const int32_t e = short_right_shift(a, c, accumulator_reach(a, c)) - (a->mla ? 1 : 0);
        const int32_t offset = a->folded ? a->output_offset * ((int32_t)1 << (e + 1)) : 0; /* e <= 22 then */
        p->bias[lane] = doubled ? 2 * start : start; /* |start| < 2^27 here */
        p->bias[lane + 2] = p->bias[lane];
        p->round_add[lane] = ((int32_t)1 << e) + offset;
        p->shift[lane] = e + 1;
    }
}

static void convolve(conv_args *a)
{
    channel_pair_quant q[CHANNEL_BLOCK / 2];
    const int32_t mode = requantization_mode(a);
    const int32_t exact = mode == REQUANTIZE_EXACT;
    a->folded = mode == REQUANTIZE_FOLDED;
    a->mla = !exact && mla_form_fits(a);
    const int32_t widened = !exact && a->depth <= EXPANDED_MAX_DEPTH;
    for (int32_t first = 0; first < a->channels; first += CHANNEL_BLOCK)
    {
        const int32_t count = a->channels - first < CHANNEL_BLOCK ? a->channels - first : CHANNEL_BLOCK;
        prepare_block(a, q, first, count, exact, widened);
        if (widened)
        {
            widened_block(a, q, first, count);
        }
        else
        {
            direct_block(a, q, first, count, exact);
        }
    }
}

arm_cmsis_nn_status helia_dsp_convolve_1x1_s8(const cmsis_nn_context *ctx,
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
    if (conv_params->padding.w != 0 || conv_params->padding.h != 0 || conv_params->stride.w != 1 ||
        conv_params->stride.h != 1 || filter_dims->h != 1 || filter_dims->w != 1 || filter_dims->c != depth ||
        filter_dims->n != channels || output_dims->n != input_dims->n || output_dims->h != input_dims->h ||
        output_dims->w != input_dims->w || depth < 1 || channels < 1 || conv_params->input_offset < -127 ||
        conv_params->input_offset > 128 || conv_params->output_offset < -128 || conv_params->output_offset > 127 ||
        conv_params->activation.min < -128 || conv_params->activation.max > 127 ||
        conv_params->activation.min > conv_params->activation.max)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    for (int32_t c = 0; c < channels; ++c)
    {
        if (quant_params->shift[c] < -31 || quant_params->shift[c] > 30)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
    }
    const int32_t has_sums = weight_sum_ctx != NULL && weight_sum_ctx->buf != NULL &&
        weight_sum_ctx->size >= channels * (int32_t)sizeof(int32_t);
    conv_args args = {
        .input = input_data,
        .filter = filter_data,
        .output = output_data,
        .bias = bias_data,
        .weight_sums = has_sums ? (const int32_t *)weight_sum_ctx->buf : NULL,
        .multiplier = quant_params->multiplier,
        .shift = quant_params->shift,
        .rows = input_dims->n * input_dims->h * input_dims->w,
        .depth = depth,
        .channels = channels,
        .input_offset = conv_params->input_offset,
        .output_offset = conv_params->output_offset,
        .act_min = conv_params->activation.min,
        .act_max = conv_params->activation.max,
    };
    convolve(&args);
    return ARM_CMSIS_NN_SUCCESS;
}

#else /* !HELIA_DSP_AVAILABLE: no DSP extension (e.g. a host build of a module converted for a DSP core) */

#include "arm_nnfunctions.h"

/* The kernel library's entry with the same arguments: for every call this kernel accepts it computes the
 * same bytes (tests/kernels/test_dsp_parity.py). */
arm_cmsis_nn_status helia_dsp_convolve_1x1_s8(const cmsis_nn_context *ctx,
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

#endif /* HELIA_DSP_AVAILABLE */
