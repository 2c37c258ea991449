/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_mul_s16, int16 MUL with NumPy-style broadcasting of size-1 dimensions. */

#include "arm_nnfunctions.h"
#include "elementwise_ops.h"

/* Offsets are ignored (int16 tensors are symmetric), as in ns-cmsis-nn. */
arm_cmsis_nn_status arm_mul_s16(const int16_t *input1_data,
                                const cmsis_nn_dims *input1_dims,
                                const int16_t *input2_data,
                                const cmsis_nn_dims *input2_dims,
                                const int32_t input1_offset,
                                const int32_t input2_offset,
                                int16_t *output_data,
                                const cmsis_nn_dims *output_dims,
                                const int32_t out_offset,
                                const int32_t out_mult,
                                const int32_t out_shift,
                                const int32_t out_activation_min,
                                const int32_t out_activation_max)
{
    const helia_mul_quant q = {
        input1_offset, input2_offset, out_offset, out_mult, out_shift, out_activation_min, out_activation_max};
    helia_broadcast_s16(input1_data, input1_dims, input2_data, input2_dims, output_data, output_dims, HELIA_S16_MUL, &q);
    return ARM_CMSIS_NN_SUCCESS;
}
