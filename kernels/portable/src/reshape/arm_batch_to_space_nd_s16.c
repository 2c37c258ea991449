/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_batch_to_space_nd_s16, BATCH_TO_SPACE_ND of an NHWC int16 tensor. */

#include "arm_nnfunctions.h"
#include "space_batch_elements.h"

/* crop holds {top, left, bottom, right} in {n, h, w, c}; a 3-D (N, H, C) tensor is W = 1, block w 1. */
arm_cmsis_nn_status arm_batch_to_space_nd_s16(const int16_t *input_data,
                                              const cmsis_nn_dims *input_dims,
                                              const cmsis_nn_tile *block_shape,
                                              const cmsis_nn_dims *crop,
                                              int16_t *output_data,
                                              const cmsis_nn_dims *output_dims)
{
    return helia_batch_to_space_nd_elements(input_data, input_dims, block_shape, crop, output_data, output_dims,
                                            sizeof(int16_t));
}
