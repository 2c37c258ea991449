/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private comparison walk shared by arm_comparison_s8 and arm_comparison_s16. */

#ifndef HELIA_PORTABLE_COMPARISON_CORE_H
#define HELIA_PORTABLE_COMPARISON_CORE_H

#include "arm_nnfunctions.h"

/* The rescaling of one comparison input: ((x + offset) << left_shift) requantized by mult, shift. */
typedef struct
{
    int32_t offset;
    int32_t mult;
    int32_t shift;
} helia_compare_scaling;

/*
 * Compares int8 (bits 8) or int16 (bits 16) inputs after rescaling both (TFLite's quantized
 * comparison), output[o] = rescaled(in1) <op> rescaled(in2) as 0 / 1. The (n, h, w, c) shapes broadcast
 * by NumPy's rules (an axis of size 1 repeats); output_dims is the broadcast shape.
 */
arm_cmsis_nn_status helia_comparison(const void *input_1_data,
                                     const cmsis_nn_dims *input_1_dims,
                                     const helia_compare_scaling *scaling_1,
                                     const void *input_2_data,
                                     const cmsis_nn_dims *input_2_dims,
                                     const helia_compare_scaling *scaling_2,
                                     int32_t bits,
                                     int32_t left_shift,
                                     arm_nn_compare_operation operation,
                                     bool *output_data,
                                     const cmsis_nn_dims *output_dims);

#endif /* HELIA_PORTABLE_COMPARISON_CORE_H */
