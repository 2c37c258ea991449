/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: ns-cmsis-nn's float exp() and tanh() approximations (softmax, sigmoid, tanh). */

/*
 * exp(x) = 2^t with t = x * log2(e), split into an integer n and a fraction f = t - n; 2^f comes
 * from the 257-entry table, linearly interpolated, and 2^n is built from its exponent bits (n kept
 * in the normal range of the type). With ARM_NN_USE_EXP_TAYLOR the build uses ns-cmsis-nn's other
 * approximation instead: n = round(t), r = x - n ln 2, and a degree-6 Taylor polynomial of exp(r).
 * x is first limited to [-80, 80] (a NaN becomes 80, as there). Every float operation below is the
 * one ns-cmsis-nn performs, in the same order, so the results are bit-identical.
 */

#include "flt_support.h"
#include "flt_tables.h"

#define HELIA_EXP_LIMIT (80.0f)
#define HELIA_LOG2E (1.44269504088896341f)
#define HELIA_LN2 (0.69314718055994531f)
#define HELIA_TABLE_SEGMENTS (256)

/* floor(x) for |x| well inside the int32 range. */
static inline int32_t helia_floor_to_int(float x)
{
    const int32_t truncated = (int32_t)x;
    return (x < (float)truncated) ? (truncated - 1) : truncated;
}

/* round(t), halves away from zero. */
static inline int32_t helia_round_to_int(float t)
{
    return (t >= 0.0f) ? (int32_t)(t + 0.5f) : (int32_t)(t - 0.5f);
}

static inline int32_t helia_clamp_s32(int32_t v, int32_t lo, int32_t hi)
{
    return (v < lo) ? lo : ((v > hi) ? hi : v);
}

#if ARM_NN_ENABLE_F32

/* 2^n, n limited to the normal float32 exponents [-126, 127]. */
static float32_t helia_exp2i_f32(int32_t n)
{
    const uint32_t bits = (uint32_t)(helia_clamp_s32(n, -126, 127) + 127) << 23;
    float32_t r;
    memcpy(&r, &bits, sizeof(r));
    return r;
}

float32_t helia_exp_f32(float32_t x)
{
    x = helia_clamp_nan_high_f32(x, -HELIA_EXP_LIMIT, HELIA_EXP_LIMIT);
    const float32_t t = x * HELIA_LOG2E;
    #if defined(ARM_NN_USE_EXP_TAYLOR)
    const int32_t n = helia_round_to_int(t);
    const float32_t r = x - (float32_t)n * HELIA_LN2;
    const float32_t r2 = r * r;
    const float32_t r4 = r2 * r2;
    const float32_t r6 = r4 * r2;
    const float32_t c01 = 1.0f + r;
    const float32_t c23 = 0.5f + (1.0f / 6.0f) * r;
    const float32_t c45 = (1.0f / 24.0f) + (1.0f / 120.0f) * r;
    const float32_t c6 = (1.0f / 720.0f);
    return (c01 + c23 * r2 + c45 * r4 + c6 * r6) * helia_exp2i_f32(n);
    #else
    const int32_t n = helia_floor_to_int(t);
    const float32_t position = (t - (float32_t)n) * (float32_t)HELIA_TABLE_SEGMENTS;
    const int32_t i = helia_clamp_s32((int32_t)position, 0, HELIA_TABLE_SEGMENTS - 1);
    const float32_t frac = position - (float32_t)i;
    const float32_t lo = helia_exp2_table_f32[i];
    const float32_t hi = helia_exp2_table_f32[i + 1];
    return (lo + (hi - lo) * frac) * helia_exp2i_f32(n);
    #endif
}

float32_t helia_tanh_f32(float32_t x)
{
    if (x != x)
    {
        return x; /* ns-cmsis-nn converts the NaN to an index (undefined in C); its x86 build returns the NaN */
    }
    const float32_t ax = (x < 0.0f) ? -x : x;
    if (ax > 4.0f)
    {
        return (x < 0.0f) ? -1.0f : 1.0f;
    }
    /* 64 table segments per unit of x */
    const float32_t position = ax * (float32_t)(HELIA_TABLE_SEGMENTS / 4);
    const int32_t i = helia_clamp_s32((int32_t)position, 0, HELIA_TABLE_SEGMENTS - 1);
    const float32_t frac = position - (float32_t)i;
    const float32_t lo = helia_tanh_table_f32[i];
    const float32_t hi = helia_tanh_table_f32[i + 1];
    const float32_t y = lo + (hi - lo) * frac;
    return (x < 0.0f) ? -y : y;
}

#endif /* ARM_NN_ENABLE_F32 */

#if ARM_NN_ENABLE_F16

/* 2^n as float16, n limited to the normal float16 exponents [-14, 15]. Below 2^-14 this saturates:
 * exp(x) for x < about -9.7 is not smaller than about 2^-14 * 2^f (see README). */
static float16_t helia_exp2i_f16(int32_t n)
{
    return helia_f16_from_bits((uint16_t)((helia_clamp_s32(n, -14, 15) + 15) << 10));
}

float16_t helia_exp_f16(float16_t x)
{
    const float32_t x32 = helia_clamp_nan_high_f32((float32_t)x, -HELIA_EXP_LIMIT, HELIA_EXP_LIMIT);
    const float32_t t = x32 * HELIA_LOG2E;
    #if defined(ARM_NN_USE_EXP_TAYLOR)
    const int32_t n = helia_round_to_int(t);
    const float32_t r = x32 - (float32_t)n * HELIA_LN2;
    const float32_t r2 = r * r;
    const float32_t r4 = r2 * r2;
    const float32_t r6 = r4 * r2;
    const float32_t c01 = 1.0f + r;
    const float32_t c23 = 0.5f + (1.0f / 6.0f) * r;
    const float32_t c45 = (1.0f / 24.0f) + (1.0f / 120.0f) * r;
    const float32_t c6 = (1.0f / 720.0f);
    const float32_t poly = c01 + c23 * r2 + c45 * r4 + c6 * r6;
    return (float16_t)(poly * (float32_t)helia_exp2i_f16(n));
    #else
    /* n is the floor of t rounded to float16 first, as there; f can then be slightly negative. */
    const int32_t n = helia_floor_to_int((float32_t)(float16_t)t);
    const float32_t position = (t - (float32_t)n) * (float32_t)HELIA_TABLE_SEGMENTS;
    const int32_t i = helia_clamp_s32((int32_t)position, 0, HELIA_TABLE_SEGMENTS - 1);
    const float32_t frac = position - (float32_t)i;
    const float32_t lo = (float32_t)helia_f16_from_bits(helia_exp2_table_f16[i]);
    const float32_t hi = (float32_t)helia_f16_from_bits(helia_exp2_table_f16[i + 1]);
    return (float16_t)((lo + (hi - lo) * frac) * (float32_t)helia_exp2i_f16(n));
    #endif
}

#endif /* ARM_NN_ENABLE_F16 */
