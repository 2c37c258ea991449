/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private SPLIT of a row-major tensor of any element size. */

#ifndef HELIA_PORTABLE_SPLIT_ELEMENTS_H
#define HELIA_PORTABLE_SPLIT_ELEMENTS_H

#include "arm_nnfunctions.h"

/*
 * The geometry of a split of `input` (rank dims of sizes shape[]) along `axis`: the axis cuts every run
 * of `inner` elements, repeated `outer` times, and a row (one outer index) holds the sum of split_dims
 * times inner elements. ARM_CMSIS_NN_ARG_ERROR for NULL pointers, a rank outside 1..8, an axis outside
 * the rank or a negative count; the sizes are not checked against shape[axis] (as in ns-cmsis-nn).
 */
arm_cmsis_nn_status helia_split_geometry(const void *input,
                                         int32_t rank,
                                         const int32_t *shape,
                                         int32_t axis,
                                         int32_t num_splits,
                                         const int32_t *split_dims,
                                         size_t *outer,
                                         size_t *inner,
                                         size_t *row);

/* Copies piece bytes from input + k * row_bytes + offset_bytes to output + k * piece_bytes, k < outer. */
void helia_split_piece(const void *input, void *output, size_t outer, size_t row_bytes, size_t offset_bytes,
                       size_t piece_bytes);

#endif /* HELIA_PORTABLE_SPLIT_ELEMENTS_H */
