/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private fixed-point helpers shared by the kernels (gemmlowp arithmetic). */

#ifndef HELIA_PORTABLE_FIXED_POINT_H
#define HELIA_PORTABLE_FIXED_POINT_H

#include <stdint.h>

/* Clamp v into [lo, hi]; expects lo <= hi. */
int32_t helia_clamp(int32_t v, int32_t lo, int32_t hi);

/* round(a * b / 2^31), saturating the one overflowing case INT32_MIN * INT32_MIN. */
int32_t helia_sat_rounding_doubling_high_mul(int32_t a, int32_t b);

/* round(a * b / 2^31) without the saturation case; used where b is a positive multiplier. */
int32_t helia_rounding_doubling_high_mul(int32_t a, int32_t b);

/* round(x / 2^exponent), ties away from zero. Exponents above 31 are handled exactly as well. */
int32_t helia_rounding_divide_by_pot(int32_t x, int32_t exponent);

/* x * 2^exponent for exponent in [1, 30], saturated to the int32 range. */
int32_t helia_saturating_mul_by_pot(int32_t x, int32_t exponent);

/*
 * Requantize an int32 accumulator by multiplier * 2^shift, multiplier a Q31 value:
 * a positive shift scales x up before the doubling high multiply; a negative shift is a
 * rounding right shift after it ("double rounding", as TFLite's reference kernels do).
 */
int32_t helia_requantize(int32_t x, int32_t multiplier, int32_t shift);

/* ---- int64 accumulators (the int16-activation kernels) ---- */

/* x modulo 2^32 as a signed value: what a 32-bit accumulator holds after wrapping. */
int32_t helia_wrap_s32(int64_t x);

/*
 * The Q15 multiplier ns-cmsis-nn's int64-accumulator kernels use in place of the Q31 one:
 * rounded to its top 16 bits, capped at 0x7FFF.
 */
int32_t helia_reduce_multiplier(int32_t multiplier);

/*
 * Requantize an int64 accumulator by a reduced (Q15) multiplier and shift:
 * round(x * m / 2^(15 - shift)), ties towards +infinity, kept to 32 bits as ns-cmsis-nn does
 * (the value is truncated to 32 bits before the final rounding halving). Meant for shift <= 14,
 * the range ns-cmsis-nn defines; larger shifts scale up instead of being undefined.
 */
int32_t helia_requantize_s64(int64_t x, int32_t reduced_multiplier, int32_t shift);

/* Plain (wrapping) left shift of a signed value, without the undefined behaviour of << on negatives. */
int32_t helia_shift_left(int32_t x, int32_t shift);

/* exp(x) for x <= 0 given in Q5.26; result in Q0.31. */
int32_t helia_exp_on_negative_values(int32_t x_q5_26);

/* 1 / (1 + x) for x in [0, 1) given in Q0.31; result in Q0.31. */
int32_t helia_one_over_one_plus_x(int32_t x_q0_31);

/* Count of leading zero bits of a 32-bit value; 32 for zero. */
int32_t helia_count_leading_zeros(uint32_t x);

/* a + b modulo 2^32 (ns-cmsis-nn lets these sums wrap), without signed-overflow undefined behaviour. */
int32_t helia_add_wrapping(int32_t a, int32_t b);

/* a * b modulo 2^32, likewise. */
int32_t helia_mul_wrapping(int32_t a, int32_t b);

/* The low 16 bits of x as a signed value: what storing an int32 into an int16_t does on every
 * compiler this library targets, spelled out so it does not depend on implementation-defined conversion. */
int16_t helia_wrap_s16(int32_t x);

/* 16-bit helpers used by the hard-swish kernel. */
int16_t helia_saturating_shift_left_s16(int16_t x, int32_t shift);
int16_t helia_sat_rounding_doubling_high_mul_s16(int16_t a, int16_t b);
int16_t helia_sat_truncating_doubling_high_mul_s16(int16_t a, int16_t b);
int16_t helia_rounding_divide_by_pot_s16(int16_t x, int32_t exponent);

#endif /* HELIA_PORTABLE_FIXED_POINT_H */
