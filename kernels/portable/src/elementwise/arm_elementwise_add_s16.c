/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_elementwise_add_s16, ADD of two int16 vectors of the same length. */

#include "arm_nnfunctions.h"
#include "elementwise_ops.h"

/* int16 tensors are symmetric: input_1_offset, input_2_offset and out_offset are ignored, as in ns-cmsis-nn. */
arm_cmsis_nn_status arm_elementwise_add_s16(const int16_t *input_1_vect,
                                            const int16_t *input_2_vect,
                                            const int32_t input_1_offset,
                                            const int32_t input_1_mult,
                                            const int32_t input_1_shift,
                                            const int32_t input_2_offset,
                                            const int32_t input_2_mult,
                                            const int32_t input_2_shift,
                                            const int32_t left_shift,
                                            int16_t *output,
                                            const int32_t out_offset,
                                            const int32_t out_mult,
                                            const int32_t out_shift,
                                            const int32_t out_activation_min,
                                            const int32_t out_activation_max,
                                            const int32_t block_size)
{
    const helia_add_sub_quant q = {input_1_offset, input_1_mult, input_1_shift, input_2_offset, input_2_mult,
                                   input_2_shift,  left_shift,   out_offset,    out_mult,       out_shift,
                                   out_activation_min, out_activation_max};
    for (int32_t i = 0; i < block_size; ++i)
    {
        output[i] = helia_add_sub_s16(input_1_vect[i], input_2_vect[i], &q, 0);
    }
    return ARM_CMSIS_NN_SUCCESS;
}
