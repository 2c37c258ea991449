/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_nn_activation_f32, the float32 LOGISTIC / TANH / RELU / RELU6 / HARD_SWISH / LEAKY_RELU. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

/* 1 / (1 + exp(-x)), written so the exp argument is never positive. */
static float32_t helia_sigmoid_f32(float32_t x)
{
    if (x >= 0.0f)
    {
        const float32_t e = helia_exp_f32(-x);
        return 1.0f / (1.0f + e);
    }
    const float32_t e = helia_exp_f32(x);
    return e / (1.0f + e);
}

/* x * min(max(x / 6 + 1/2, 0), 1), with x / 6 computed as x times the float nearest 1/6. */
static float32_t helia_hard_swish_f32(float32_t x)
{
    const float32_t gate = helia_clamp_nan_high_f32(x * (1.0f / 6.0f) + 0.5f, 0.0f, 1.0f);
    return x * gate;
}

static float32_t helia_activation_f32(float32_t x, arm_nn_activation_type_flt type, float32_t alpha)
{
    switch (type)
    {
    case ARM_NN_FLT_ACT_SIGMOID:
        return helia_sigmoid_f32(x);
    case ARM_NN_FLT_ACT_TANH:
        return helia_tanh_f32(x);
    case ARM_NN_FLT_ACT_RELU:
        return (x < 0.0f) ? 0.0f : x;
    case ARM_NN_FLT_ACT_RELU6: {
        const float32_t relu = (x < 0.0f) ? 0.0f : x;
        return (relu > 6.0f) ? 6.0f : relu;
    }
    case ARM_NN_FLT_ACT_HARDSWISH:
        return helia_hard_swish_f32(x);
    case ARM_NN_FLT_ACT_LEAKY_RELU:
        return (x >= 0.0f) ? x : (alpha * x);
    case ARM_NN_FLT_ACT_NONE:
    default:
        return x; /* an unknown type copies, as in ns-cmsis-nn */
    }
}

arm_cmsis_nn_status arm_nn_activation_f32(const float32_t *input,
                                          float32_t *output,
                                          int32_t size,
                                          arm_nn_activation_type_flt type,
                                          float32_t act_param)
{
    if (input == NULL || output == NULL || size < 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    for (int32_t i = 0; i < size; ++i)
    {
        output[i] = helia_activation_f32(input[i], type, act_param);
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* ARM_NN_ENABLE_F32 */
