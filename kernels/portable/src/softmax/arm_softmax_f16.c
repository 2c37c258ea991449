/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_softmax_f16, float16 SOFTMAX (beta 1) over rows. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F16

static void helia_softmax_pair_f16(const float16_t *in, float16_t *out)
{
    _Float16 e0 = (_Float16)1.0f;
    _Float16 e1 = (_Float16)1.0f;
    if ((_Float16)in[0] >= (_Float16)in[1])
    {
        e1 = (_Float16)helia_exp_f16((float16_t)((_Float16)in[1] - (_Float16)in[0]));
    }
    else
    {
        e0 = (_Float16)helia_exp_f16((float16_t)((_Float16)in[0] - (_Float16)in[1]));
    }
    const _Float16 sum = e0 + e1;
    out[0] = (float16_t)(e0 / sum);
    out[1] = (float16_t)(e1 / sum);
}

/*
 * As arm_softmax_f32: x - max rounded to float16, exp in float16 (ns-cmsis-nn's approximation, which
 * saturates for x - max below about -9.7; see README), the sum in float32, 1 / sum rounded to float16
 * and each exp times it rounded to float16.
 */
arm_cmsis_nn_status arm_softmax_f16(const float16_t *input, int32_t num_rows, int32_t row_size, float16_t *output)
{
    if (input == NULL || output == NULL || num_rows < 1 || row_size < 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    if (num_rows == 1 && row_size == 2)
    {
        helia_softmax_pair_f16(input, output);
        return ARM_CMSIS_NN_SUCCESS;
    }
    for (int32_t row = 0; row < num_rows; ++row)
    {
        const float16_t *in = input + (size_t)row * row_size;
        float16_t *out = output + (size_t)row * row_size;
        _Float16 largest = (_Float16)in[0];
        for (int32_t i = 1; i < row_size; ++i)
        {
            largest = helia_pick_f16((_Float16)in[i] > largest, (_Float16)in[i], largest);
        }
        float32_t sum = 0.0f;
        for (int32_t i = 0; i < row_size; ++i)
        {
            out[i] = helia_exp_f16((float16_t)((_Float16)in[i] - largest));
            sum += (float32_t)out[i];
        }
        if (sum <= 0.0f)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        const _Float16 inverse = (_Float16)(1.0f / sum);
        for (int32_t i = 0; i < row_size; ++i)
        {
            out[i] = (float16_t)((_Float16)out[i] * inverse);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* ARM_NN_ENABLE_F16 */
