/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_elementwise_mul_s16_s8, the LSTM's hidden state h = o * tanh(c) in int8. */

#include "arm_nnfunctions.h"
#include "../support/fixed_point.h"

/* batch_size blocks of block_size products; the output blocks lie batch_offset blocks apart (the
 * batch-major layout of a sequence), the inputs are contiguous. */
arm_cmsis_nn_status arm_elementwise_mul_s16_s8(const int16_t *input_1_vect,
                                               const int16_t *input_2_vect,
                                               int8_t *output,
                                               const int32_t out_offset,
                                               const int32_t out_mult,
                                               const int32_t out_shift,
                                               const int32_t block_size,
                                               const int32_t batch_size,
                                               const int32_t batch_offset)
{
    for (int32_t b = 0; b < batch_size; ++b)
    {
        const int16_t *in_1 = input_1_vect + b * block_size;
        const int16_t *in_2 = input_2_vect + b * block_size;
        int8_t *out = output + b * batch_offset * block_size;
        for (int32_t i = 0; i < block_size; ++i)
        {
            const int32_t product = (int32_t)in_1[i] * (int32_t)in_2[i];
            const int32_t value = helia_requantize(product, out_mult, out_shift) + out_offset;
            out[i] = (int8_t)helia_clamp(value, INT8_MIN, INT8_MAX);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
