/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private float32 / float16 helpers (clamps, exp, tanh) shared by the float kernels. */

#ifndef HELIA_PORTABLE_FLT_SUPPORT_H
#define HELIA_PORTABLE_FLT_SUPPORT_H

#include "arm_nnfunctions.h"

/*
 * Bit-identical results need the same floating-point operations in the same order as ns-cmsis-nn,
 * including where a value is rounded. Two clamps exist there and differ only for NaN:
 *  - "NaN to high": min(x, hi) then max(., lo), so a NaN becomes hi (its CLAMP macro);
 *  - "keep NaN": x < lo ? lo : x > hi ? hi : x, TFLite's behaviour.
 * Each kernel uses the one ns-cmsis-nn uses at that place.
 */

#if ARM_NN_FLOAT_API_ENABLED

/* float32 clamps; the float16 kernels use them for their float32 intermediates too. */
static inline float32_t helia_clamp_nan_high_f32(float32_t x, float32_t lo, float32_t hi)
{
    const float32_t below_hi = (x < hi) ? x : hi;
    return (below_hi > lo) ? below_hi : lo;
}

static inline float32_t helia_clamp_keep_nan_f32(float32_t x, float32_t lo, float32_t hi)
{
    return (x < lo) ? lo : ((x > hi) ? hi : x);
}

#endif /* ARM_NN_FLOAT_API_ENABLED */

#if ARM_NN_ENABLE_F32

/* exp(x) as ns-cmsis-nn approximates it (x is clamped to [-80, 80]); see flt_exp.c. */
float32_t helia_exp_f32(float32_t x);

/* tanh(x) from ns-cmsis-nn's 257-point table on [0, 4]; exactly +-1 beyond. */
float32_t helia_tanh_f32(float32_t x);

#endif /* ARM_NN_ENABLE_F32 */

#if ARM_NN_ENABLE_F16

/*
 * float16 arithmetic is written with _Float16 operands exactly where ns-cmsis-nn has them: the
 * compiler then rounds at the same places (on x86-64 GCC evaluates a _Float16 expression in float
 * and rounds once, at the assignment or cast; Helium rounds every operation). Selections between
 * two float16 values go through their bit patterns, never a float16 conditional move, which some
 * Arm GCC versions miscompile (GCC PR target/118460).
 */

static inline _Float16 helia_pick_f16(int take_first, _Float16 first, _Float16 second)
{
    uint16_t a;
    uint16_t b;
    memcpy(&a, &first, sizeof(a));
    memcpy(&b, &second, sizeof(b));
    const uint16_t mask = (uint16_t)(0U - (uint32_t)(take_first != 0));
    const uint16_t bits = (uint16_t)((a & mask) | (b & (uint16_t)~mask));
    _Float16 r;
    memcpy(&r, &bits, sizeof(r));
    return r;
}

/* a < b ? a : b and a > b ? a : b: a NaN in a gives b, a NaN in b gives the NaN. */
static inline _Float16 helia_min_f16(_Float16 a, _Float16 b)
{
    return helia_pick_f16(a < b, a, b);
}

static inline _Float16 helia_max_f16(_Float16 a, _Float16 b)
{
    return helia_pick_f16(a > b, a, b);
}

/* x when x is NaN, else y. */
static inline _Float16 helia_nan_or_f16(_Float16 x, _Float16 y)
{
    return helia_pick_f16(x != x, x, y);
}

static inline _Float16 helia_clamp_nan_high_f16(_Float16 x, _Float16 lo, _Float16 hi)
{
    return helia_max_f16(helia_min_f16(x, hi), lo);
}

static inline _Float16 helia_clamp_keep_nan_f16(_Float16 x, _Float16 lo, _Float16 hi)
{
    return helia_nan_or_f16(x, helia_min_f16(helia_max_f16(x, lo), hi));
}

static inline float16_t helia_f16_from_bits(uint16_t bits)
{
    float16_t r;
    memcpy(&r, &bits, sizeof(r));
    return r;
}

/* exp(x) as ns-cmsis-nn approximates it for float16 (float32 arithmetic, one rounding at the end). */
float16_t helia_exp_f16(float16_t x);

#endif /* ARM_NN_ENABLE_F16 */

#endif /* HELIA_PORTABLE_FLT_SUPPORT_H */
