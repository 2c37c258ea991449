/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of arm_nn_activation_f16 and arm_nn_activation_f32
 * (arm_nn_activation_f16.c, arm_nn_activation_f32.c): which float activation each
 * arm_nn_activation_type_flt runs, element by element.
 *
 * The file including this one defines `flt_t`, the element type, one function per activation, each
 * from flt_t to flt_t: flt_sigmoid(x), flt_tanh(x), flt_relu(x), flt_relu6(x), flt_hard_swish(x) and
 * flt_leaky_relu(x, alpha), and ARM_NN_ACTIVATION_FLT, the function's name.
 */

#ifndef HELIA_PORTABLE_ARM_NN_ACTIVATION_FLT_BODY_H
#define HELIA_PORTABLE_ARM_NN_ACTIVATION_FLT_BODY_H

static flt_t helia_activation(flt_t x, arm_nn_activation_type_flt type, flt_t alpha)
{
    switch (type)
    {
    case ARM_NN_FLT_ACT_SIGMOID:
        return flt_sigmoid(x);
    case ARM_NN_FLT_ACT_TANH:
        return flt_tanh(x);
    case ARM_NN_FLT_ACT_RELU:
        return flt_relu(x);
    case ARM_NN_FLT_ACT_RELU6:
        return flt_relu6(x);
    case ARM_NN_FLT_ACT_HARDSWISH:
        return flt_hard_swish(x);
    case ARM_NN_FLT_ACT_LEAKY_RELU:
        return flt_leaky_relu(x, alpha);
    case ARM_NN_FLT_ACT_NONE:
    default:
        return x; /* an unknown type copies, as in ns-cmsis-nn */
    }
}

arm_cmsis_nn_status ARM_NN_ACTIVATION_FLT(const flt_t *input,
                                          flt_t *output,
                                          int32_t size,
                                          arm_nn_activation_type_flt type,
                                          flt_t act_param)
{
    if (input == NULL || output == NULL || size < 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    for (int32_t i = 0; i < size; ++i)
    {
        output[i] = helia_activation(input[i], type, act_param);
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#endif /* HELIA_PORTABLE_ARM_NN_ACTIVATION_FLT_BODY_H */
