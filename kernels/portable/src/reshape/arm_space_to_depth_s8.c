/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_space_to_depth_s8, SPACE_TO_DEPTH of an NHWC int8 tensor. */

#include "arm_nnfunctions.h"
#include "space_batch_elements.h"

/* Input pixel (h, w) lands in output pixel (h / b, w / b) at channels [((h % b) * b + w % b) * C, +C). */
arm_cmsis_nn_status arm_space_to_depth_s8(const int8_t *input_data,
                                          const cmsis_nn_dims *input_dims,
                                          const int32_t block_size,
                                          int8_t *output_data,
                                          const cmsis_nn_dims *output_dims)
{
    return helia_space_to_depth_elements(input_data, input_dims, block_size, output_data, output_dims,
                                         sizeof(int8_t));
}
