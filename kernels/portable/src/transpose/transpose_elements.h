/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private TRANSPOSE of tensors of any element size (the float kernels). */

#ifndef HELIA_PORTABLE_TRANSPOSE_ELEMENTS_H
#define HELIA_PORTABLE_TRANSPOSE_ELEMENTS_H

#include "arm_nnfunctions.h"

/*
 * The float entry points' TRANSPOSE: the tensor's axes are the first num_dims (1 to 4) of n, h, w, c
 * in input_dims / output_dims, and output axis i is input axis perm[i] (NumPy's transpose). Elements
 * are element_size bytes. ARM_CMSIS_NN_ARG_ERROR for a NULL pointer, num_dims outside 1..4, a
 * layout other than NHWC (0) or a perm entry outside 0..num_dims-1.
 */
arm_cmsis_nn_status helia_transpose_elements(const void *input,
                                             void *output,
                                             size_t element_size,
                                             int32_t num_dims,
                                             const int32_t perm[4],
                                             int32_t layout,
                                             const cmsis_nn_dims *input_dims,
                                             const cmsis_nn_dims *output_dims);

#endif /* HELIA_PORTABLE_TRANSPOSE_ELEMENTS_H */
