/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_strided_slice_s32, STRIDED_SLICE of an int32 NHWC tensor. */

#include "arm_nnfunctions.h"
#include "strided_slice_elements.h"

/* out[n, h, w, c] = in[begin + index * stride] per axis (see strided_slice_elements.h). */
arm_cmsis_nn_status arm_strided_slice_s32(const int32_t *input_data,
                                          int32_t *output_data,
                                          const cmsis_nn_dims *const input_dims,
                                          const cmsis_nn_dims *const begin_dims,
                                          const cmsis_nn_dims *const stride_dims,
                                          const cmsis_nn_dims *const output_dims)
{
    return helia_strided_slice_elements(input_data, output_data, sizeof(int32_t), input_dims, begin_dims,
                                        stride_dims, output_dims);
}
