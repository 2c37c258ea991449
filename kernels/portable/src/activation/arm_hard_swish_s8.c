/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_hard_swish_precise_s8 and arm_hard_swish_compat_s8, HARD_SWISH x * relu6(x + 3) / 6. */

#include "arm_nnfunctions.h"

#include "../support/fixed_point.h"

/*
 * Precise variant, in input units x = in - input_offset:
 *   r   = clamp(x + relu_q3, 0, relu_q6) / 2^prescale   (relu6(x + 3), rounded; prescale avoids overflow)
 *   out = clamp(output_offset + requantize(x * r, output_multiplier, output_shift), -128, 127)
 * where the requantization also carries the division by 6.
 */
arm_cmsis_nn_status arm_hard_swish_precise_s8(const int8_t *input,
                                              const int32_t input_offset,
                                              const int32_t output_offset,
                                              const int32_t output_multiplier,
                                              const int32_t output_shift,
                                              const int32_t relu_q3,
                                              const int32_t relu_q6,
                                              const int32_t prescale,
                                              int8_t *output,
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
        const int32_t relu6_scaled = prescale > 0 ? (relu6 + (1 << (prescale - 1))) >> prescale : relu6;
        const int32_t product = helia_requantize(x * relu6_scaled, output_multiplier, output_shift);
        output[i] = (int8_t)helia_clamp(product + output_offset, INT8_MIN, INT8_MAX);
    }
    return ARM_CMSIS_NN_SUCCESS;
}

/*
 * Compatibility variant: TFLite's reference int8 HARD_SWISH arithmetic on 16-bit values.
 *   hires      = x * 2^7 (saturated), x = in - input_offset
 *   scaled     = hires * output multiplier (Q15, rounded)
 *   relu_part  = hires rescaled by the relu multiplier to [-1, 1] in Q15, then mapped to [0, 1]
 *   out        = (relu_part * scaled, truncated) / 2^-output_multiplier_exp + output_offset
 */
arm_cmsis_nn_status arm_hard_swish_compat_s8(const int8_t *input,
                                             const int32_t input_offset,
                                             const int32_t output_offset,
                                             const int32_t output_multiplier_fp,
                                             const int32_t output_multiplier_exp,
                                             const int32_t relu_multiplier_fp,
                                             const int32_t relu_multiplier_exp,
                                             int8_t *output,
                                             const int32_t output_size)
{
    if (output_multiplier_exp > 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int16_t output_mult_q15 = (int16_t)output_multiplier_fp;
    const int16_t relu_mult_q15 = (int16_t)relu_multiplier_fp;
    for (int32_t i = 0; i < output_size; ++i)
    {
        const int16_t x = (int16_t)((int32_t)input[i] - input_offset);
        const int16_t hires = helia_saturating_shift_left_s16(x, 7);
        const int16_t scaled = helia_sat_rounding_doubling_high_mul_s16(hires, output_mult_q15);

        int16_t relu_part = hires;
        if (relu_multiplier_exp > 0)
        {
            relu_part = helia_saturating_shift_left_s16(relu_part, relu_multiplier_exp - 1);
            relu_part = helia_sat_rounding_doubling_high_mul_s16(relu_part, relu_mult_q15);
            relu_part = helia_saturating_shift_left_s16(relu_part, 1);
        }
        else
        {
            relu_part = helia_sat_rounding_doubling_high_mul_s16(relu_part, relu_mult_q15);
            if (relu_multiplier_exp < 0)
            {
                relu_part = helia_rounding_divide_by_pot_s16(relu_part, -relu_multiplier_exp);
            }
        }
        /* [-1, 1] -> [0, 1]: (v + 1) / 2, rounded down */
        relu_part = (int16_t)(((int32_t)relu_part + 32768) >> 1);

        int16_t y = helia_sat_truncating_doubling_high_mul_s16(relu_part, scaled);
        if (output_multiplier_exp < 0)
        {
            y = helia_rounding_divide_by_pot_s16(y, -output_multiplier_exp);
        }
        output[i] = (int8_t)helia_clamp((int32_t)y + output_offset, INT8_MIN, INT8_MAX);
    }
    return ARM_CMSIS_NN_SUCCESS;
}
