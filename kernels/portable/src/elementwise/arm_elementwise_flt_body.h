/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of arm_elementwise_{add,sub,mul}_{f16,f32}
 * (arm_elementwise_*_f16.c, arm_elementwise_*_f32.c), float ADD / SUB / MUL of two equally shaped tensors.
 *
 * The file including this one defines `flt_t`, the element type, `flt_arith_t`, the type the
 * operation is written in, flt_clamp_keep_nan(x, lo, hi), the clamp letting a NaN through, of a
 * flt_arith_t, ELEMENTWISE_FLT_OP(a, b), the operation, and ARM_ELEMENTWISE_FLT, the function's name.
 */

#ifndef HELIA_PORTABLE_ARM_ELEMENTWISE_FLT_BODY_H
#define HELIA_PORTABLE_ARM_ELEMENTWISE_FLT_BODY_H

/* output[i] = clamp(a op b), the result rounded to flt_t once; a NaN result passes the clamp
 * (TFLite's behaviour). No broadcasting. */
arm_cmsis_nn_status ARM_ELEMENTWISE_FLT(const flt_t *input_1_vect,
                                        const flt_t *input_2_vect,
                                        flt_t *output,
                                        flt_t out_activation_min,
                                        flt_t out_activation_max,
                                        int32_t block_size)
{
    if (input_1_vect == NULL || input_2_vect == NULL || output == NULL || block_size < 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    for (int32_t i = 0; i < block_size; ++i)
    {
        const flt_arith_t value = ELEMENTWISE_FLT_OP((flt_arith_t)input_1_vect[i], (flt_arith_t)input_2_vect[i]);
        output[i] = (flt_t)flt_clamp_keep_nan(value, (flt_arith_t)out_activation_min,
                                              (flt_arith_t)out_activation_max);
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* HELIA_PORTABLE_ARM_ELEMENTWISE_FLT_BODY_H */
