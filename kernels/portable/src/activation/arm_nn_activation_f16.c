/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_nn_activation_f16, the float16 LOGISTIC / TANH / RELU / RELU6 / HARD_SWISH / LEAKY_RELU. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F16

typedef float16_t flt_t;

/* Beyond |x| = 3 the rational tanh below is replaced by +-1. */
#define HELIA_TANH_F16_LIMIT (3.0f)

/* exp in float16, the division in float32, one rounding to float16. */
static float16_t flt_sigmoid(float16_t x)
{
    if ((_Float16)x >= (_Float16)0.0f)
    {
        const float32_t e = (float32_t)helia_exp_f16((float16_t)(-(_Float16)x));
        return (float16_t)(1.0f / (1.0f + e));
    }
    const float32_t e = (float32_t)helia_exp_f16((float16_t)(_Float16)x);
    return (float16_t)(e / (1.0f + e));
}

/* tanh(x) ~ x (27 + x^2) / (27 + 9 x^2), ns-cmsis-nn's float16 approximation (see README). */
static float16_t flt_tanh(float16_t x)
{
    const _Float16 xh = (_Float16)x;
    const _Float16 ax = helia_pick_f16(xh < (_Float16)0.0f, -xh, xh);
    if (ax > (_Float16)HELIA_TANH_F16_LIMIT)
    {
        /* the sign is chosen in float32, away from float16 conditional moves */
        const float32_t sign = ((float32_t)xh < 0.0f) ? -1.0f : 1.0f;
        return (float16_t)(_Float16)sign;
    }
    const _Float16 x2 = xh * xh;
    const _Float16 num = xh * ((_Float16)27.0f + x2);
    const _Float16 den = (_Float16)27.0f + (_Float16)9.0f * x2;
    return (float16_t)(num / den);
}

/* x * min(max(x * h + 1/2, 0), 1), h the float16 nearest 1/6. */
static float16_t flt_hard_swish(float16_t x)
{
    _Float16 gate = (_Float16)x * (_Float16)(1.0f / 6.0f) + (_Float16)0.5f;
    gate = helia_clamp_nan_high_f16(gate, (_Float16)0.0f, (_Float16)1.0f);
    return (float16_t)((_Float16)x * gate);
}

static float16_t flt_relu(float16_t x)
{
    const _Float16 xh = (_Float16)x;
    return (float16_t)helia_nan_or_f16(xh, helia_max_f16(xh, (_Float16)0.0f));
}

static float16_t flt_relu6(float16_t x)
{
    return (float16_t)helia_clamp_keep_nan_f16((_Float16)x, (_Float16)0.0f, (_Float16)6.0f);
}

/* max(x, 0) + alpha * min(x, 0), rounded once; a NaN input stays NaN */
static float16_t flt_leaky_relu(float16_t x, float16_t alpha)
{
    const _Float16 xh = (_Float16)x;
    const _Float16 positive = helia_max_f16(xh, (_Float16)0.0f);
    const _Float16 negative = helia_min_f16(xh, (_Float16)0.0f);
    return (float16_t)helia_nan_or_f16(xh, positive + (_Float16)alpha * negative);
}

#define ARM_NN_ACTIVATION_FLT arm_nn_activation_f16
#include "arm_nn_activation_flt_body.h"

#endif /* ARM_NN_ENABLE_F16 */
