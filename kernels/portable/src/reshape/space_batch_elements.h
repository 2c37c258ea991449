/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND / DEPTH_TO_SPACE / SPACE_TO_DEPTH
 * moves of NHWC tensors of any element size, and RESIZE_NEAREST_NEIGHBOR's index rule. */

#ifndef HELIA_PORTABLE_SPACE_BATCH_ELEMENTS_H
#define HELIA_PORTABLE_SPACE_BATCH_ELEMENTS_H

#include "arm_nnfunctions.h"

/*
 * Input batch b fills the output batch b % out_n, at the offset (k / block.w, k % block.w) with
 * k = b / out_n inside each block; rows and columns that fall into the crops are dropped.
 * crop holds {top, left, bottom, right} in {n, h, w, c}. Checks as ns-cmsis-nn's s8 entry.
 */
arm_cmsis_nn_status helia_batch_to_space_nd_elements(const void *input,
                                                     const cmsis_nn_dims *input_dims,
                                                     const cmsis_nn_tile *block_shape,
                                                     const cmsis_nn_dims *crop,
                                                     void *output,
                                                     const cmsis_nn_dims *output_dims,
                                                     size_t element_size);

/*
 * The inverse: the input, padded with pad_value ({top, left, bottom, right} in {n, h, w, c}), is cut
 * into block.h x block.w blocks; position (i, j) of every block goes to output batch
 * (i * block.w + j) * in_n + b. output_dims may be NULL (not checked then).
 */
arm_cmsis_nn_status helia_space_to_batch_nd_elements(const void *input,
                                                     const cmsis_nn_dims *input_dims,
                                                     const cmsis_nn_tile *block_shape,
                                                     const cmsis_nn_dims *pad,
                                                     void *output,
                                                     const cmsis_nn_dims *output_dims,
                                                     const void *pad_value,
                                                     size_t element_size);

/* Output pixel (h * b + i, w * b + j) takes channels [(i * b + j) * out_c, +out_c) of input pixel (h, w). */
arm_cmsis_nn_status helia_depth_to_space_elements(const void *input,
                                                  const cmsis_nn_dims *input_dims,
                                                  int32_t block_size,
                                                  void *output,
                                                  const cmsis_nn_dims *output_dims,
                                                  size_t element_size);

/* The inverse of helia_depth_to_space_elements. */
arm_cmsis_nn_status helia_space_to_depth_elements(const void *input,
                                                  const cmsis_nn_dims *input_dims,
                                                  int32_t block_size,
                                                  void *output,
                                                  const cmsis_nn_dims *output_dims,
                                                  size_t element_size);

/*
 * RESIZE_NEAREST_NEIGHBOR of an NHWC tensor to output_size_data[0] x output_size_data[1] (the
 * output_size tensor must hold exactly two values); input and output batch and depth must match.
 */
arm_cmsis_nn_status helia_resize_nearest_neighbor_elements(const cmsis_nn_resize_params *resize_params,
                                                           const cmsis_nn_dims *input_shape,
                                                           const void *input_data,
                                                           const cmsis_nn_dims *output_size_shape,
                                                           const int32_t *output_size_data,
                                                           const cmsis_nn_dims *output_shape,
                                                           void *output_data,
                                                           size_t element_size);

#endif /* HELIA_PORTABLE_SPACE_BATCH_ELEMENTS_H */
