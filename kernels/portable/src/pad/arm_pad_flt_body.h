/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helia-aot portable kernels: the body of arm_pad_f16 and arm_pad_f32 (arm_pad_f16.c, arm_pad_f32.c),
 * PAD of a float NHWC tensor with a constant value.
 *
 * The file including this one defines `flt_t`, the element type, and ARM_PAD_FLT, the function's name.
 */

#ifndef HELIA_PORTABLE_ARM_PAD_FLT_BODY_H
#define HELIA_PORTABLE_ARM_PAD_FLT_BODY_H

#include "pad_elements.h"

/* out has dims pre + in + post per axis; out[pre + i] = in[i], every other element is pad_value. */
arm_cmsis_nn_status ARM_PAD_FLT(const flt_t *input,
                                flt_t *output,
                                flt_t pad_value,
                                const cmsis_nn_dims *input_size,
                                const cmsis_nn_dims *pre_pad,
                                const cmsis_nn_dims *post_pad)
{
    return helia_pad_elements(input, output, &pad_value, sizeof(pad_value), input_size, pre_pad, post_pad);
}

#endif /* HELIA_PORTABLE_ARM_PAD_FLT_BODY_H */
