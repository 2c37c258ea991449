/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_nn_activation_f32, the float32 LOGISTIC / TANH / RELU / RELU6 / HARD_SWISH / LEAKY_RELU. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

typedef float32_t flt_t;

/* 1 / (1 + exp(-x)), written so the exp argument is never positive. */
static float32_t flt_sigmoid(float32_t x)
{
    if (x >= 0.0f)
    {
        const float32_t e = helia_exp_f32(-x);
        return 1.0f / (1.0f + e);
    }
    const float32_t e = helia_exp_f32(x);
    return e / (1.0f + e);
}

#define flt_tanh helia_tanh_f32

static float32_t flt_relu(float32_t x)
{
    return (x < 0.0f) ? 0.0f : x;
}

static float32_t flt_relu6(float32_t x)
{
    const float32_t relu = (x < 0.0f) ? 0.0f : x;
    return (relu > 6.0f) ? 6.0f : relu;
}

/* x * min(max(x / 6 + 1/2, 0), 1), with x / 6 computed as x times the float nearest 1/6. */
static float32_t flt_hard_swish(float32_t x)
{
    const float32_t gate = helia_clamp_nan_high_f32(x * (1.0f / 6.0f) + 0.5f, 0.0f, 1.0f);
    return x * gate;
}

static float32_t flt_leaky_relu(float32_t x, float32_t alpha)
{
    return (x >= 0.0f) ? x : (alpha * x);
}

#define ARM_NN_ACTIVATION_FLT arm_nn_activation_f32
#include "arm_nn_activation_flt_body.h"

#endif /* ARM_NN_ENABLE_F32 */
