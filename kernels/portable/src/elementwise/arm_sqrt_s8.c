/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_sqrt_s8, int8 SQRT as a 256-entry table lookup. */

#include "arm_nnfunctions.h"

/* The caller's table holds the result for every input code, at index (uint8_t)code (codes 0..127,
 * then -128..-1): the compiler fills it with LiteRT's float arithmetic, so any int8 -> int8 function
 * of one element fits. */
arm_cmsis_nn_status arm_sqrt_s8(const int8_t *input, const cmsis_nn_dims *input_dims, int8_t *output, int8_t *sqrt_lut)
{
    const int32_t size = input_dims->n * input_dims->h * input_dims->w * input_dims->c;
    for (int32_t i = 0; i < size; ++i)
    {
        output[i] = sqrt_lut[(uint8_t)input[i]];
    }
    return ARM_CMSIS_NN_SUCCESS;
}
