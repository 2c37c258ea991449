/* SPDX-License-Identifier: Apache-2.0 */
/* float32 to int8, symmetric, over the values' own range: LiteRT's SymmetricQuantizeFloats, as the
 * hybrid (dynamic-range) layers quantize their input at run time.
 *
 *   range  = max(|min|, |max|) over the values (min and max found in order, a NaN first value
 *            poisoning both, any later NaN skipped, as the comparisons `x < min`, `x > max` do)
 *   range 0: every output 0, scale 1
 *   else:    scale = range / 127, output[i] = round_half_away(clamp(input[i] * (127 / range), -127, 127)),
 *            a NaN product giving 0
 *
 * helia_quantize_symmetric_f32_s8 is that in plain C (the statements of the modules' inline loop,
 * ops/templates/hybrid_quantize.c.j2); helia_mve_quantize_symmetric_f32_s8 gives the same bytes and
 * scale on Helium, four floats per step: the same IEEE multiplications, the comparisons as lane
 * selects, and VCVTA (round to nearest, ties away from zero) for the rounding; rows whose range is
 * below 2^-100 run the plain C (see SMALLEST_VECTOR_RANGE). */

#include "helia_helium.h"

#include <stddef.h>
#include <string.h>

arm_cmsis_nn_status helia_quantize_symmetric_f32_s8(const float *input, int32_t count, int8_t *output, float *scale)
{
    if (input == NULL || output == NULL || scale == NULL || count < 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    float lo = input[0];
    float hi = input[0];
    for (int32_t i = 1; i < count; i++)
    {
        lo = (input[i] < lo) ? input[i] : lo;
        hi = (input[i] > hi) ? input[i] : hi;
    }
    const float abs_lo = (lo < 0.0f) ? -lo : lo;
    const float abs_hi = (hi < 0.0f) ? -hi : hi;
    const float range = (abs_lo < abs_hi) ? abs_hi : abs_lo;
    if (range == 0.0f)
    {
        memset(output, 0, (size_t)count);
        *scale = 1.0f;
        return ARM_CMSIS_NN_SUCCESS;
    }
    const float inverse = 127.0f / range;
    *scale = range / 127.0f;
    for (int32_t i = 0; i < count; i++)
    {
        float v = input[i] * inverse;
        v = (v != v) ? 0.0f : ((v < -127.0f) ? -127.0f : ((v > 127.0f) ? 127.0f : v));
        const float fraction = v - (float)(int32_t)v;
        output[i] = (int8_t)((int32_t)v + (fraction >= 0.5f) - (fraction <= -0.5f));
    }
    return ARM_CMSIS_NN_SUCCESS;
}

/* The MVE floating-point instructions need MVE with floating point (-mcpu=cortex-m55 with an FPU). */
#if HELIA_HELIUM_AVAILABLE && defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)

#include <arm_mve.h>

/* MVE floating point runs with the standard FPSCR value: subnormal operands and results are flushed to
 * zero, where the scalar FPU (FPSCR.FZ 0) keeps them. That cannot change a byte or the scale when the
 * range is at least 2^-100: the value of largest magnitude is then normal, and comparisons that flush a
 * subnormal to zero order it as they would unflushed against every normal value, so min, max and the
 * range are the plain C's; a subnormal input times 127 / range is below 127 * 2^-26 and rounds to 0
 * either way, as does any product that is subnormal. Smaller ranges (and 0 and NaN) take the plain C. */
#define SMALLEST_VECTOR_RANGE 0x1p-100f

arm_cmsis_nn_status helia_mve_quantize_symmetric_f32_s8(const float *input, int32_t count, int8_t *output,
                                                         float *scale)
{
    if (input == NULL || output == NULL || scale == NULL || count < 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    /* Every lane starts at the first value and keeps the scalar rule; a NaN first value stays in every
     * lane (no comparison with it holds), later NaNs never replace a lane. Whole vectors first, then
     * the last count % 4 values and the lanes, by the same rule: the order does not change the result
     * (either every lane is NaN or none is, and a zero's sign does not reach the range). */
    /* Only GT compares as C's `<` and `>` do: a vector LT (like LE) holds for unordered operands. */
    float32x4_t lo = vdupq_n_f32(input[0]);
    float32x4_t hi = lo;
    const int32_t whole = count & ~3;
    for (int32_t i = 0; i < whole; i += 4)
    {
        const float32x4_t x = vldrwq_f32(input + i);
        lo = vpselq_f32(x, lo, vcmpgtq_f32(lo, x));
        hi = vpselq_f32(x, hi, vcmpgtq_f32(x, hi));
    }
    float min = vgetq_lane_f32(lo, 0);
    float max = vgetq_lane_f32(hi, 0);
    const float lanes_lo[3] = {vgetq_lane_f32(lo, 1), vgetq_lane_f32(lo, 2), vgetq_lane_f32(lo, 3)};
    const float lanes_hi[3] = {vgetq_lane_f32(hi, 1), vgetq_lane_f32(hi, 2), vgetq_lane_f32(hi, 3)};
    for (int32_t lane = 0; lane < 3; lane++)
    {
        min = (lanes_lo[lane] < min) ? lanes_lo[lane] : min;
        max = (lanes_hi[lane] > max) ? lanes_hi[lane] : max;
    }
    for (int32_t i = whole; i < count; i++)
    {
        min = (input[i] < min) ? input[i] : min;
        max = (input[i] > max) ? input[i] : max;
    }
    const float abs_lo = (min < 0.0f) ? -min : min;
    const float abs_hi = (max < 0.0f) ? -max : max;
    const float range = (abs_lo < abs_hi) ? abs_hi : abs_lo;
    if (!(range >= SMALLEST_VECTOR_RANGE))
    {
        /* A zero, NaN or tiny range: the plain C, whose FPU keeps subnormals. */
        return helia_quantize_symmetric_f32_s8(input, count, output, scale);
    }
    const float inverse = 127.0f / range;
    *scale = range / 127.0f;
    const float32x4_t zero = vdupq_n_f32(0.0f);
    const float32x4_t low = vdupq_n_f32(-127.0f);
    const float32x4_t high = vdupq_n_f32(127.0f);
    for (int32_t i = 0; i < count; i += 4)
    {
        const mve_pred16_t tail = vctp32q((uint32_t)(count - i));
        float32x4_t v = vmulq_n_f32(vldrwq_z_f32(input + i, tail), inverse);
        v = vpselq_f32(zero, v, vcmpneq_f32(v, v)); /* NaN */
        v = vpselq_f32(low, v, vcmpgtq_f32(low, v));
        v = vpselq_f32(high, v, vcmpgtq_f32(v, high));
        vstrbq_p_s32(output + i, vcvtaq_s32_f32(v), tail);
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#else /* no MVE floating point (e.g. a host build of a module converted for a Helium core) */

/* The plain C above: the same bytes and scale. */
arm_cmsis_nn_status helia_mve_quantize_symmetric_f32_s8(const float *input, int32_t count, int8_t *output,
                                                         float *scale)
{
    return helia_quantize_symmetric_f32_s8(input, count, output, scale);
}

#endif
