/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private index layout of TRANSPOSE, shared by the int8 and int16 kernels. */

#ifndef HELIA_PORTABLE_TRANSPOSE_LAYOUT_H
#define HELIA_PORTABLE_TRANSPOSE_LAYOUT_H

#include "arm_nnfunctions.h"

/*
 * Turns a transpose call into a walk over the input: shape[] is the input seen as four row-major
 * axes, out_strides[] the output stride of each of those axes. The dims structs hold the shape
 * left-aligned in n, h, w, c order for 1-3 dimensions (a 1-D tensor of n elements, 2-D n x h,
 * 3-D n x h x w). As in ns-cmsis-nn, a 2-D transpose always swaps the two axes and a 1-D one is a
 * copy, whatever the permutation. Returns ARM_CMSIS_NN_ARG_ERROR for an out-of-range permutation.
 */
arm_cmsis_nn_status helia_transpose_layout(const cmsis_nn_dims *input_dims,
                                           const cmsis_nn_dims *output_dims,
                                           const cmsis_nn_transpose_params *transpose_params,
                                           int32_t shape[4],
                                           int32_t out_strides[4]);

#endif /* HELIA_PORTABLE_TRANSPOSE_LAYOUT_H */
