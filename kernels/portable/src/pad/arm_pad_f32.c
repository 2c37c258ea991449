/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_pad_f32, PAD of a float32 NHWC tensor with a constant value. */

#include "arm_nnfunctions.h"
#include "pad_elements.h"

#if ARM_NN_ENABLE_F32

/* out has dims pre + in + post per axis; out[pre + i] = in[i], every other element is pad_value. */
arm_cmsis_nn_status arm_pad_f32(const float32_t *input,
                                float32_t *output,
                                float32_t pad_value,
                                const cmsis_nn_dims *input_size,
                                const cmsis_nn_dims *pre_pad,
                                const cmsis_nn_dims *post_pad)
{
    return helia_pad_elements(input, output, &pad_value, sizeof(pad_value), input_size, pre_pad, post_pad);
}

#endif /* ARM_NN_ENABLE_F32 */
