/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private NumPy broadcasting of MAXIMUM / MINIMUM (the float kernels). */

#ifndef HELIA_PORTABLE_MINMAX_BROADCAST_H
#define HELIA_PORTABLE_MINMAX_BROADCAST_H

#include "arm_nnfunctions.h"

/*
 * How output element (n, h, w, c) finds its two operands: offset in input k is the dot product of
 * the index with strides_k (stride 0 along an axis where input k has size 1 and is broadcast).
 * second_first says ns-cmsis-nn compares the operands the other way round (input 2 against input
 * 1): it does so when input 2 is the one repeated at the level its loop picks, which decides the
 * result for NaN and for +0 against -0.
 */
typedef struct
{
    int32_t shape[4];
    size_t strides_1[4];
    size_t strides_2[4];
    int second_first;
} helia_minmax_plan;

/* ARM_CMSIS_NN_ARG_ERROR for a NULL pointer or shapes that do not broadcast to output_dims. */
arm_cmsis_nn_status helia_minmax_make_plan(const cmsis_nn_dims *input_1_dims,
                                           const cmsis_nn_dims *input_2_dims,
                                           const cmsis_nn_dims *output_dims,
                                           helia_minmax_plan *plan);

#endif /* HELIA_PORTABLE_MINMAX_BROADCAST_H */
