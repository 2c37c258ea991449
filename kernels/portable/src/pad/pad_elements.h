/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private PAD of NHWC tensors of any element size (the float kernels). */

#ifndef HELIA_PORTABLE_PAD_ELEMENTS_H
#define HELIA_PORTABLE_PAD_ELEMENTS_H

#include "arm_nnfunctions.h"

/*
 * The output has pre + input + post elements along each axis; input element (n, h, w, c) goes to
 * (n + pre.n, h + pre.h, w + pre.w, c + pre.c) and every other element is a copy of *pad_value.
 * Elements are element_size bytes. ARM_CMSIS_NN_ARG_ERROR for a NULL pointer or an empty output.
 */
arm_cmsis_nn_status helia_pad_elements(const void *input,
                                       void *output,
                                       const void *pad_value,
                                       size_t element_size,
                                       const cmsis_nn_dims *input_size,
                                       const cmsis_nn_dims *pre_pad,
                                       const cmsis_nn_dims *post_pad);

#endif /* HELIA_PORTABLE_PAD_ELEMENTS_H */
