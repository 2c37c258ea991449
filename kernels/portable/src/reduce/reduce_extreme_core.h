/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private REDUCE_MAX / REDUCE_MIN shared by the s8 and s16 entries. */

#ifndef HELIA_PORTABLE_REDUCE_EXTREME_CORE_H
#define HELIA_PORTABLE_REDUCE_EXTREME_CORE_H

#include "arm_nnfunctions.h"

/*
 * The largest (want_max) or smallest element of int8 (bits 8) or int16 (bits 16) data over the axes
 * whose axis_dims entry is non-zero; output_dims has those axes as 1 and the others as the input.
 * No requantization: the output shares the input's scale and zero point.
 */
arm_cmsis_nn_status helia_reduce_extreme(const void *input_data,
                                         int32_t bits,
                                         bool want_max,
                                         const cmsis_nn_dims *input_dims,
                                         const cmsis_nn_dims *axis_dims,
                                         void *output_data,
                                         const cmsis_nn_dims *output_dims);

#endif /* HELIA_PORTABLE_REDUCE_EXTREME_CORE_H */
