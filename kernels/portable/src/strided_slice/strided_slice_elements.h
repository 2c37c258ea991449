/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private STRIDED_SLICE of NHWC tensors of any element size (the float kernels). */

#ifndef HELIA_PORTABLE_STRIDED_SLICE_ELEMENTS_H
#define HELIA_PORTABLE_STRIDED_SLICE_ELEMENTS_H

#include "arm_nnfunctions.h"

/*
 * out[n, h, w, c] = in[begin.n + n*stride.n, begin.h + h*stride.h, begin.w + w*stride.w, begin.c + c*stride.c]
 * for every output index; elements are element_size bytes. Strides may be negative but not zero;
 * every input and output dimension must be at least 1 (ARM_CMSIS_NN_ARG_ERROR otherwise, as for a
 * NULL pointer). The indices are not checked against the input.
 */
arm_cmsis_nn_status helia_strided_slice_elements(const void *input,
                                                 void *output,
                                                 size_t element_size,
                                                 const cmsis_nn_dims *input_dims,
                                                 const cmsis_nn_dims *begin_dims,
                                                 const cmsis_nn_dims *stride_dims,
                                                 const cmsis_nn_dims *output_dims);

#endif /* HELIA_PORTABLE_STRIDED_SLICE_ELEMENTS_H */
