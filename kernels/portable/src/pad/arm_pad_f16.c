/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_pad_f16, PAD of a float16 NHWC tensor with a constant value. */

#include "arm_nnfunctions.h"
#include "pad_elements.h"

#if ARM_NN_ENABLE_F16

/* out has dims pre + in + post per axis; out[pre + i] = in[i], every other element is pad_value. */
arm_cmsis_nn_status arm_pad_f16(const float16_t *input,
                                float16_t *output,
                                float16_t pad_value,
                                const cmsis_nn_dims *input_size,
                                const cmsis_nn_dims *pre_pad,
                                const cmsis_nn_dims *post_pad)
{
    return helia_pad_elements(input, output, &pad_value, sizeof(pad_value), input_size, pre_pad, post_pad);
}

#endif /* ARM_NN_ENABLE_F16 */
