/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_elementwise_mul_acc_s16, the LSTM's cell update c += i * g. */

#include "arm_nnfunctions.h"
#include "../support/fixed_point.h"

/*
 * The product is requantized alone and then added to what output holds; the sum is clamped to the
 * activation range, which a non-positive maximum replaces by the whole int16 range (a cell clip of 0
 * means "no clip"). int16 data is symmetric: the offsets are not used.
 */
arm_cmsis_nn_status arm_elementwise_mul_acc_s16(const int16_t *input_1_vect,
                                                const int16_t *input_2_vect,
                                                const int32_t input_1_offset,
                                                const int32_t input_2_offset,
                                                int16_t *output,
                                                const int32_t out_offset,
                                                const int32_t out_mult,
                                                const int32_t out_shift,
                                                const int32_t out_activation_min,
                                                const int32_t out_activation_max,
                                                const int32_t block_size)
{
    (void)input_1_offset;
    (void)input_2_offset;
    (void)out_offset;
    const int32_t clipped = out_activation_max > 0;
    const int32_t lo = clipped ? out_activation_min : INT16_MIN;
    const int32_t hi = clipped ? out_activation_max : INT16_MAX;
    for (int32_t i = 0; i < block_size; ++i)
    {
        const int32_t product = (int32_t)input_1_vect[i] * (int32_t)input_2_vect[i];
        const int32_t sum = helia_requantize(product, out_mult, out_shift) + output[i];
        output[i] = (int16_t)helia_clamp(sum, lo, hi);
    }
    return ARM_CMSIS_NN_SUCCESS;
}
