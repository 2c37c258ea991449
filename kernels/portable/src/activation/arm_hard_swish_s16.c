/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_hard_swish_precise_s16, int16 HARD_SWISH x * relu6(x + 3) / 6. */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

/*
 * The int8 precise variant's arithmetic on int16 data, in input units x = in - input_offset:
 *   r   = clamp(x + relu_q3, 0, relu_q6) / 2^prescale   (relu6(x + 3), rounded half up)
 *   out = clamp(output_offset + requantize(x * r, output_multiplier, output_shift), -32768, 32767)
 * prescale must keep |x| * r within int32 (x * r wraps like ns-cmsis-nn's otherwise).
 */
arm_cmsis_nn_status arm_hard_swish_precise_s16(const int16_t *input,
                                               const int32_t input_offset,
                                               const int32_t output_offset,
                                               const int32_t output_multiplier,
                                               const int32_t output_shift,
                                               const int32_t relu_q3,
                                               const int32_t relu_q6,
                                               const int32_t prescale,
                                               int16_t *output,
                                               const int32_t output_size)
{
    if (input == NULL || output == NULL || output_size < 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    for (int32_t i = 0; i < output_size; ++i)
    {
        const int32_t x = (int32_t)input[i] - input_offset;
        const int32_t relu6 = helia_clamp(x + relu_q3, 0, relu_q6);
        /* round half up; relu6 is never negative */
        const int32_t relu6_scaled =
            prescale > 0 ? (int32_t)(((uint32_t)relu6 + (1u << (prescale - 1))) >> prescale) : relu6;
        const int32_t product = helia_requantize(helia_mul_wrapping(x, relu6_scaled), output_multiplier, output_shift);
        output[i] = (int16_t)helia_clamp(product + output_offset, INT16_MIN, INT16_MAX);
    }
    return ARM_CMSIS_NN_SUCCESS;
}
