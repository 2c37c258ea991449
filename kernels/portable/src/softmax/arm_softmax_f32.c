/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_softmax_f32, float32 SOFTMAX (beta 1) over rows. */

#include "../support/flt_support.h"

#if ARM_NN_ENABLE_F32

/* One row of two: the larger input gets exp(0) = 1 exactly, and both are divided by the sum. */
static void helia_softmax_pair_f32(const float32_t *in, float32_t *out)
{
    float32_t e0 = 1.0f;
    float32_t e1 = 1.0f;
    if (in[0] >= in[1])
    {
        e1 = helia_exp_f32(in[1] - in[0]);
    }
    else
    {
        e0 = helia_exp_f32(in[0] - in[1]);
    }
    const float32_t sum = e0 + e1;
    out[0] = e0 / sum;
    out[1] = e1 / sum;
}

/*
 * output = exp(x - max) / sum(exp(x - max)) per row, exp as ns-cmsis-nn approximates it (see
 * flt_exp.c), the sum in column order, then every exp multiplied by 1 / sum. A row whose sum is not
 * positive (a NaN input) stops the call with ARM_CMSIS_NN_ARG_ERROR, its exps already written.
 */
arm_cmsis_nn_status arm_softmax_f32(const float32_t *input, int32_t num_rows, int32_t row_size, float32_t *output)
{
    if (input == NULL || output == NULL || num_rows < 1 || row_size < 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    if (num_rows == 1 && row_size == 2)
    {
        helia_softmax_pair_f32(input, output);
        return ARM_CMSIS_NN_SUCCESS;
    }
    for (int32_t row = 0; row < num_rows; ++row)
    {
        const float32_t *in = input + (size_t)row * row_size;
        float32_t *out = output + (size_t)row * row_size;
        float32_t largest = in[0];
        for (int32_t i = 1; i < row_size; ++i)
        {
            if (in[i] > largest)
            {
                largest = in[i];
            }
        }
        float32_t sum = 0.0f;
        for (int32_t i = 0; i < row_size; ++i)
        {
            out[i] = helia_exp_f32(in[i] - largest);
            sum += out[i];
        }
        if (sum <= 0.0f)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        const float32_t inverse = 1.0f / sum;
        for (int32_t i = 0; i < row_size; ++i)
        {
            out[i] *= inverse;
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* ARM_NN_ENABLE_F32 */
