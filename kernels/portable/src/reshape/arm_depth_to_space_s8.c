/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_depth_to_space_s8, DEPTH_TO_SPACE of an NHWC int8 tensor. */

#include "arm_nnfunctions.h"
#include "space_batch_elements.h"

/* TFLite's (DCR) order: output pixel (h * b + i, w * b + j) takes input channels [(i * b + j) * C, +C). */
arm_cmsis_nn_status arm_depth_to_space_s8(const int8_t *input_data,
                                          const cmsis_nn_dims *input_dims,
                                          const int32_t block_size,
                                          int8_t *output_data,
                                          const cmsis_nn_dims *output_dims)
{
    return helia_depth_to_space_elements(input_data, input_dims, block_size, output_data, output_dims,
                                         sizeof(int8_t));
}
