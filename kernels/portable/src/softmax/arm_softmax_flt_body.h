/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of arm_softmax_f16 and arm_softmax_f32 (arm_softmax_f16.c,
 * arm_softmax_f32.c), float SOFTMAX (beta 1) over rows.
 *
 * The file including this one defines `flt_t`, the element type, `flt_arith_t`, the type the
 * differences, the pair's sum and the scaling are written in, flt_exp(x), ns-cmsis-nn's exp of a
 * flt_t, flt_larger(x, largest), the running maximum's update, and ARM_SOFTMAX_FLT, the function's
 * name.
 */

#ifndef HELIA_PORTABLE_ARM_SOFTMAX_FLT_BODY_H
#define HELIA_PORTABLE_ARM_SOFTMAX_FLT_BODY_H

/* One row of two: the larger input gets exp(0) = 1 exactly, and both are divided by the sum. */
static void helia_softmax_pair(const flt_t *in, flt_t *out)
{
    flt_arith_t e0 = (flt_arith_t)1.0f;
    flt_arith_t e1 = (flt_arith_t)1.0f;
    if ((flt_arith_t)in[0] >= (flt_arith_t)in[1])
    {
        e1 = (flt_arith_t)flt_exp((flt_t)((flt_arith_t)in[1] - (flt_arith_t)in[0]));
    }
    else
    {
        e0 = (flt_arith_t)flt_exp((flt_t)((flt_arith_t)in[0] - (flt_arith_t)in[1]));
    }
    const flt_arith_t sum = e0 + e1;
    out[0] = (flt_t)(e0 / sum);
    out[1] = (flt_t)(e1 / sum);
}

/*
 * output = exp(x - max) / sum(exp(x - max)) per row, exp as ns-cmsis-nn approximates it (see
 * flt_exp.c), the sum in column order and in float32, then every exp multiplied by 1 / sum. A row
 * whose sum is not positive (a NaN input) stops the call with ARM_CMSIS_NN_ARG_ERROR, its exps
 * already written.
 */
arm_cmsis_nn_status ARM_SOFTMAX_FLT(const flt_t *input, int32_t num_rows, int32_t row_size, flt_t *output)
{
    if (input == NULL || output == NULL || num_rows < 1 || row_size < 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    if (num_rows == 1 && row_size == 2)
    {
        helia_softmax_pair(input, output);
        return ARM_CMSIS_NN_SUCCESS;
    }
    for (int32_t row = 0; row < num_rows; ++row)
    {
        const flt_t *in = input + (size_t)row * row_size;
        flt_t *out = output + (size_t)row * row_size;
        flt_arith_t largest = (flt_arith_t)in[0];
        for (int32_t i = 1; i < row_size; ++i)
        {
            largest = flt_larger((flt_arith_t)in[i], largest);
        }
        float32_t sum = 0.0f;
        for (int32_t i = 0; i < row_size; ++i)
        {
            out[i] = flt_exp((flt_t)((flt_arith_t)in[i] - largest));
            sum += (float32_t)out[i];
        }
        if (sum <= 0.0f)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        const flt_arith_t inverse = (flt_arith_t)(1.0f / sum);
        for (int32_t i = 0; i < row_size; ++i)
        {
            out[i] = (flt_t)((flt_arith_t)out[i] * inverse);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* HELIA_PORTABLE_ARM_SOFTMAX_FLT_BODY_H */
