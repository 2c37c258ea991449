/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private PRELU helpers (TFLite's quantized rule, the broadcast walk). */

#ifndef HELIA_PORTABLE_PRELU_CORE_H
#define HELIA_PORTABLE_PRELU_CORE_H

#include "arm_nnfunctions.h"

typedef struct
{
    int32_t input_offset;
    int32_t alpha_offset;
    int32_t output_offset;
    int32_t mult_identity;
    int32_t shift_identity;
    int32_t mult_alpha;
    int32_t shift_alpha;
    int32_t act_min;
    int32_t act_max;
} helia_prelu_params;

/* x + input_offset, requantized by the identity multiplier when >= 0, else times (alpha + alpha_offset) and
 * requantized by the alpha multiplier; plus output_offset, clamped to [act_min, act_max]. */
int32_t helia_prelu_value(int32_t x, int32_t alpha, const helia_prelu_params *p);

/* ARM_CMSIS_NN_ARG_ERROR when the input and output dims differ or alpha does not broadcast onto the input. */
arm_cmsis_nn_status helia_prelu_check_dims(const cmsis_nn_dims *input_dims,
                                           const cmsis_nn_dims *alpha_dims,
                                           const cmsis_nn_dims *output_dims);

/* The alpha element read for input element (n, h, w, c): broadcast axes of alpha (size 1) read index 0. */
int32_t helia_prelu_alpha_offset(const cmsis_nn_dims *alpha_dims, int32_t n, int32_t h, int32_t w, int32_t c);

#endif /* HELIA_PORTABLE_PRELU_CORE_H */
