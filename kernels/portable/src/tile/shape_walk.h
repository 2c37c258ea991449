/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private element gather of TILE and BROADCAST_TO (any element size). */

#ifndef HELIA_PORTABLE_SHAPE_WALK_H
#define HELIA_PORTABLE_SHAPE_WALK_H

#include "arm_nnfunctions.h"

/*
 * For every output index (rank dims of sizes output_shape[], row-major) copies the input element at
 * coordinate (c[d] % input_shape[d]) per dimension: TILE (output = input x multiples) and BROADCAST_TO
 * (input dimensions of 1 repeat) are both this walk. Elements are element_size bytes. Rank 1..8 and
 * positive input dimensions, else ARM_CMSIS_NN_ARG_ERROR; an empty output writes nothing.
 */
arm_cmsis_nn_status helia_repeat_walk(const void *input,
                                      void *output,
                                      size_t element_size,
                                      int32_t rank,
                                      const int32_t *input_shape,
                                      const int32_t *output_shape);

#endif /* HELIA_PORTABLE_SHAPE_WALK_H */
