/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private MEAN shared by arm_mean_s8 and arm_mean_s16. */

#ifndef HELIA_PORTABLE_MEAN_CORE_H
#define HELIA_PORTABLE_MEAN_CORE_H

#include "arm_nnfunctions.h"

/*
 * MEAN of int8 (bits 8) or int16 (bits 16) data; input and output have that element type.
 * out[o] = clamp(out_offset + requantize(count * input_offset + sum of in over the reduced axes,
 *                out_mult, out_shift)) to the element type's range,
 * where count is the number of elements summed; the caller folds 1/count into out_mult/out_shift.
 * Reduced axes (non-zero fields of axis_dims) have size 1 in output_dims; the others match the input.
 */
arm_cmsis_nn_status helia_mean(const void *input_data,
                               int32_t bits,
                               const cmsis_nn_dims *input_dims,
                               int32_t input_offset,
                               const cmsis_nn_dims *axis_dims,
                               void *output_data,
                               const cmsis_nn_dims *output_dims,
                               int32_t out_offset,
                               int32_t out_mult,
                               int32_t out_shift);

#endif /* HELIA_PORTABLE_MEAN_CORE_H */
