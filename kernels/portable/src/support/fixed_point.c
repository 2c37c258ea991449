/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: fixed-point arithmetic (gemmlowp rounding) shared by every kernel. */

/*
 * All kernels requantize with the same two-step rounding TFLite's integer reference kernels use:
 * a rounding doubling high multiply by a Q31 multiplier, then a rounding right shift. Signed
 * right shifts here are arithmetic, as on every compiler this library targets; left shifts of
 * negative values go through unsigned arithmetic so they are well defined.
 */

#include "fixed_point.h"

int32_t helia_clamp(int32_t v, int32_t lo, int32_t hi)
{
    /* Raise to lo first, then cap at hi (callers pass lo <= hi). */
    const int32_t raised = v < lo ? lo : v;
    return raised > hi ? hi : raised;
}

int32_t helia_shift_left(int32_t x, int32_t shift)
{
    return (int32_t)((uint32_t)x << shift);
}

int32_t helia_add_wrapping(int32_t a, int32_t b)
{
    return helia_wrap_s32((int64_t)((uint32_t)a + (uint32_t)b));
}

int32_t helia_mul_wrapping(int32_t a, int32_t b)
{
    return helia_wrap_s32((int64_t)((uint32_t)a * (uint32_t)b));
}

int16_t helia_wrap_s16(int32_t x)
{
    const int32_t low = (int32_t)((uint32_t)x & 0xFFFFu);
    return (int16_t)(low > INT16_MAX ? low - 65536 : low);
}

int32_t helia_sat_rounding_doubling_high_mul(int32_t a, int32_t b)
{
    if (a == INT32_MIN && b == INT32_MIN)
    {
        return INT32_MAX; /* the only product that does not fit */
    }
    /* Nudge by half a unit towards the sign of the product, then truncate. */
    const int64_t half = (int64_t)1 << 30;
    const int64_t nudge = ((a < 0) != (b < 0)) ? 1 - half : half;
    const int64_t product = (int64_t)a * (int64_t)b + nudge;
    return (int32_t)(product / ((int64_t)1 << 31));
}

int32_t helia_rounding_doubling_high_mul(int32_t a, int32_t b)
{
    const int64_t product = (int64_t)a * (int64_t)b + ((int64_t)1 << 30);
    return (int32_t)(product >> 31);
}

int32_t helia_rounding_divide_by_pot(int32_t x, int32_t exponent)
{
    /* 64-bit so that exponents of 32 and more (reachable in softmax on very long rows) stay exact. */
    const int32_t e = exponent > 62 ? 62 : exponent;
    const int64_t value = x;
    const int64_t mask = ((int64_t)1 << e) - 1;
    const int64_t remainder = value & mask;
    int64_t quotient = value >> e;
    /* Round half away from zero: a negative quotient needs a strictly larger remainder to round. */
    const int64_t threshold = (mask >> 1) + (quotient < 0 ? 1 : 0);
    if (remainder > threshold)
    {
        quotient += 1;
    }
    return (int32_t)quotient;
}

int32_t helia_saturating_mul_by_pot(int32_t x, int32_t exponent)
{
    const int32_t limit = (int32_t)(((uint32_t)1 << (31 - exponent)) - 1u);
    if (x > limit)
    {
        return INT32_MAX;
    }
    if (x < -limit)
    {
        return INT32_MIN;
    }
    return helia_shift_left(x, exponent);
}

int32_t helia_requantize(int32_t x, int32_t multiplier, int32_t shift)
{
    const int32_t left_shift = shift > 0 ? shift : 0;
    const int32_t right_shift = shift > 0 ? 0 : -shift;
    const int32_t scaled = helia_rounding_doubling_high_mul(helia_shift_left(x, left_shift), multiplier);
    return helia_rounding_divide_by_pot(scaled, right_shift);
}

int32_t helia_wrap_s32(int64_t x)
{
    const uint32_t low = (uint32_t)x; /* modulo 2^32, well defined */
    return low <= (uint32_t)INT32_MAX ? (int32_t)low : (int32_t)(low - 0x80000000u) + INT32_MIN;
}

int32_t helia_reduce_multiplier(int32_t multiplier)
{
    return multiplier < 0x7FFF0000 ? (multiplier + (1 << 15)) >> 16 : 0x7FFF;
}

int32_t helia_requantize_s64(int64_t x, int32_t reduced_multiplier, int32_t shift)
{
    /* Product in Q(15 - shift) with one extra bit kept for the rounding step below. */
    const uint64_t product = (uint64_t)x * (uint64_t)(int64_t)reduced_multiplier; /* wraps like the int64 product */
    const int64_t signed_product = (int64_t)product;
    int64_t scaled;
    if (shift <= 14)
    {
        const int32_t right = 14 - shift > 63 ? 63 : 14 - shift;
        scaled = signed_product >> right;
    }
    else
    {
        const int32_t left = shift - 14 > 63 ? 63 : shift - 14;
        scaled = (int64_t)(product << left);
    }
    /* Truncate to 32 bits, add the rounding half and drop the extra bit, all in 32-bit arithmetic. */
    return helia_wrap_s32((int64_t)helia_wrap_s32(scaled) + 1) >> 1;
}

/* exp(-2^k / 4) for k = 0..6 in Q0.31: the factors for each whole quarter step of the input. */
static const int32_t exp_of_minus_quarter_steps[7] = {
    1672461947, /* exp(-1/4) */
    1302514674, /* exp(-1/2) */
    790015084,  /* exp(-1)   */
    290630308,  /* exp(-2)   */
    39332535,   /* exp(-4)   */
    720401,     /* exp(-8)   */
    242,        /* exp(-16)  */
};

int32_t helia_exp_on_negative_values(int32_t x_q5_26)
{
    if (x_q5_26 == 0)
    {
        return INT32_MAX; /* exp(0) = 1, the largest Q0.31 value */
    }
    const int32_t quarter = 1 << 24; /* 0.25 in Q5.26 */
    const int32_t one_third_q31 = 715827883;
    const int32_t exp_minus_one_eighth_q31 = 1895147668;

    /* Split x = -(whole quarters) + r with r in [-1/4, 0). */
    const int32_t r_q5_26 = (x_q5_26 & (quarter - 1)) - quarter;
    const int32_t whole_quarters = r_q5_26 - x_q5_26;

    /* exp(r) = exp(-1/8) * exp(r + 1/8), the latter by a 4th order Taylor polynomial around 0. */
    const int32_t t = r_q5_26 * 32 + (1 << 28); /* r + 1/8 in Q0.31 */
    const int32_t t2 = helia_sat_rounding_doubling_high_mul(t, t);
    const int32_t t3 = helia_sat_rounding_doubling_high_mul(t2, t);
    const int32_t t4 = helia_sat_rounding_doubling_high_mul(t2, t2);
    const int32_t t4_over_4 = helia_rounding_divide_by_pot(t4, 2);
    const int32_t cubic_and_quartic_over_6 = helia_sat_rounding_doubling_high_mul(t4_over_4 + t3, one_third_q31);
    const int32_t polynomial = t + helia_rounding_divide_by_pot(cubic_and_quartic_over_6 + t2, 1);
    int32_t result = exp_minus_one_eighth_q31 + helia_sat_rounding_doubling_high_mul(exp_minus_one_eighth_q31, polynomial);

    /* Multiply in exp(-1/4 * 2^k) for every set bit k of the whole-quarter count. */
    for (int32_t k = 0; k < 7; ++k)
    {
        if (whole_quarters & (1 << (24 + k)))
        {
            result = helia_sat_rounding_doubling_high_mul(result, exp_of_minus_quarter_steps[k]);
        }
    }
    return result;
}

int32_t helia_one_over_one_plus_x(int32_t x_q0_31)
{
    /* d = (1 + x) / 2 in Q0.31, rounded half away from zero. */
    const int64_t sum = (int64_t)x_q0_31 + INT32_MAX;
    const int32_t half_denominator = (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);

    /* Newton-Raphson for 1/d in Q2.29, starting from 48/17 - 32/17 * d. */
    const int32_t forty_eight_over_seventeen_q29 = 1515870810;
    const int32_t minus_thirty_two_over_seventeen_q29 = -1010580540;
    const int32_t one_q29 = 1 << 29;
    int32_t estimate = forty_eight_over_seventeen_q29 +
        helia_sat_rounding_doubling_high_mul(half_denominator, minus_thirty_two_over_seventeen_q29);
    for (int32_t iteration = 0; iteration < 3; ++iteration)
    {
        const int32_t error = one_q29 - helia_sat_rounding_doubling_high_mul(half_denominator, estimate);
        estimate += helia_saturating_mul_by_pot(helia_sat_rounding_doubling_high_mul(estimate, error), 2);
    }
    /* 1/d = 2/(1+x) in Q2.29 read as Q0.31 after doubling is 1/(1+x). */
    return helia_saturating_mul_by_pot(estimate, 1);
}

int32_t helia_count_leading_zeros(uint32_t x)
{
    int32_t zeros = 0;
    if (x == 0u)
    {
        return 32;
    }
    while ((x & 0x80000000u) == 0u)
    {
        x <<= 1;
        ++zeros;
    }
    return zeros;
}

int16_t helia_saturating_shift_left_s16(int16_t x, int32_t shift)
{
    if (shift <= 0)
    {
        return x;
    }
    const int32_t capped = shift > 30 ? 30 : shift; /* beyond 15 every non-zero value saturates anyway */
    const int64_t shifted = (int64_t)x * ((int64_t)1 << capped);
    if (shifted > INT16_MAX)
    {
        return INT16_MAX;
    }
    if (shifted < INT16_MIN)
    {
        return INT16_MIN;
    }
    return (int16_t)shifted;
}

int16_t helia_sat_rounding_doubling_high_mul_s16(int16_t a, int16_t b)
{
    if (a == INT16_MIN && b == INT16_MIN)
    {
        return INT16_MAX;
    }
    const int32_t product = (int32_t)a * (int32_t)b;
    const int32_t rounded = (product * 2 + (1 << 15)) >> 16;
    return (int16_t)helia_clamp(rounded, INT16_MIN, INT16_MAX);
}

int16_t helia_sat_truncating_doubling_high_mul_s16(int16_t a, int16_t b)
{
    if (a == INT16_MIN && b == INT16_MIN)
    {
        return INT16_MAX;
    }
    const int32_t product = (int32_t)a * (int32_t)b;
    /* Division, not a shift: the result is truncated towards zero. */
    return (int16_t)helia_clamp(product / (1 << 15), INT16_MIN, INT16_MAX);
}

int16_t helia_rounding_divide_by_pot_s16(int16_t x, int32_t exponent)
{
    return (int16_t)helia_clamp(helia_rounding_divide_by_pot(x, exponent), INT16_MIN, INT16_MAX);
}
