/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_quantize_f32_s16, float32 -> int16 QUANTIZE. */

#include "arm_nnfunctions.h"

/*
 * out = clamp(round(in / scale) + zero_point, -32768, 32767), where in / scale is a float division
 * and round() rounds halfway cases away from zero (C's round(), TFLite's TfLiteRound). No libm:
 * the rounding is done here. A quotient beyond the int32 range saturates to it and NaN counts as 0
 * (what Arm's float-to-int conversion does; C leaves both undefined).
 */
static int64_t round_half_away(float x)
{
    if (x != x)
    {
        return 0;
    }
    if (x >= 2147483648.0f)
    {
        return INT32_MAX;
    }
    if (x <= -2147483648.0f)
    {
        return INT32_MIN;
    }
    if (x >= 8388608.0f || x <= -8388608.0f)
    {
        return (int64_t)x; /* from 2^23 on every float is a whole number */
    }
    /* Single precision only (no double maths on FPUs without it); both steps are exact below 2^23. */
    const int32_t whole = (int32_t)x; /* truncated towards zero */
    const float fraction = x - (float)whole;
    if (fraction >= 0.5f)
    {
        return (int64_t)whole + 1;
    }
    if (fraction <= -0.5f)
    {
        return (int64_t)whole - 1;
    }
    return whole;
}

arm_cmsis_nn_status
arm_quantize_f32_s16(const float *input, int16_t *output, int32_t size, int32_t zero_point, float scale)
{
    for (int32_t i = 0; i < size; ++i)
    {
        const float quotient = input[i] / scale;
        const int64_t value = round_half_away(quotient) + zero_point;
        output[i] = (int16_t)(value < INT16_MIN ? INT16_MIN : value > INT16_MAX ? INT16_MAX : value);
    }
    return ARM_CMSIS_NN_SUCCESS;
}
