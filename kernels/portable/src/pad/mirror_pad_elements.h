/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private MIRROR_PAD of tensors of any element size. */

#ifndef HELIA_PORTABLE_MIRROR_PAD_ELEMENTS_H
#define HELIA_PORTABLE_MIRROR_PAD_ELEMENTS_H

#include "arm_nnfunctions.h"

/* Up to 8 axes, as ns-cmsis-nn's mirror pad, reverse sequence and dynamic update slice entries. */
#define HELIA_MIRROR_MAX_RANK (8)

/*
 * Output element at coordinate o reads input coordinate o - pad_before on every axis, mirrored back inside
 * the axis: REFLECT (mode 0) leaves the edge element out of the mirror (-1 reads 1), SYMMETRIC (any other
 * mode) repeats it (-1 reads 0). ARM_CMSIS_NN_ARG_ERROR for a NULL pointer, a rank outside [1, 8], a
 * negative pad or a pad wider than the mirror allows (REFLECT: axis - 1, SYMMETRIC: axis), which would
 * read outside the input.
 */
arm_cmsis_nn_status helia_mirror_pad_elements(const void *input,
                                              const cmsis_nn_mirror_pad_params *params,
                                              void *output,
                                              size_t element_size);

#endif /* HELIA_PORTABLE_MIRROR_PAD_ELEMENTS_H */
