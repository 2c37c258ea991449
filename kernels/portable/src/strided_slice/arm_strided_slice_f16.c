/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_strided_slice_f16, STRIDED_SLICE of a float16 NHWC tensor. */

#include "arm_nnfunctions.h"
#include "strided_slice_elements.h"

#if ARM_NN_ENABLE_F16

/* out[n, h, w, c] = in[begin + index * stride] per axis (see strided_slice_elements.h). */
arm_cmsis_nn_status arm_strided_slice_f16(const float16_t *input_data,
                                          float16_t *output_data,
                                          const cmsis_nn_dims *const input_dims,
                                          const cmsis_nn_dims *const begin_dims,
                                          const cmsis_nn_dims *const stride_dims,
                                          const cmsis_nn_dims *const output_dims)
{
    return helia_strided_slice_elements(input_data, output_data, sizeof(float16_t), input_dims, begin_dims,
                                        stride_dims, output_dims);
}

#endif /* ARM_NN_ENABLE_F16 */
