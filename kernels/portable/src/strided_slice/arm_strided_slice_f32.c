/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_strided_slice_f32, STRIDED_SLICE of a float32 NHWC tensor. */

#include "arm_nnfunctions.h"
#include "strided_slice_elements.h"

#if ARM_NN_ENABLE_F32

/* out[n, h, w, c] = in[begin + index * stride] per axis (see strided_slice_elements.h). */
arm_cmsis_nn_status arm_strided_slice_f32(const float32_t *input_data,
                                          float32_t *output_data,
                                          const cmsis_nn_dims *const input_dims,
                                          const cmsis_nn_dims *const begin_dims,
                                          const cmsis_nn_dims *const stride_dims,
                                          const cmsis_nn_dims *const output_dims)
{
    return helia_strided_slice_elements(input_data, output_data, sizeof(float32_t), input_dims, begin_dims,
                                        stride_dims, output_dims);
}

#endif /* ARM_NN_ENABLE_F32 */
