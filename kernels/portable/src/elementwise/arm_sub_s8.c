/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_sub_s8, SUB with NumPy-style broadcasting of size-1 dimensions. */

#include "arm_nnfunctions.h"
#include "elementwise_ops.h"

arm_cmsis_nn_status arm_sub_s8(const int8_t *input1_data,
                               const cmsis_nn_dims *input1_dims,
                               const int8_t *input2_data,
                               const cmsis_nn_dims *input2_dims,
                               const int32_t input1_offset,
                               const int32_t input1_mult,
                               const int32_t input1_shift,
                               const int32_t input2_offset,
                               const int32_t input2_mult,
                               const int32_t input2_shift,
                               const int32_t left_shift,
                               int8_t *output_data,
                               const cmsis_nn_dims *output_dims,
                               const int32_t out_offset,
                               const int32_t out_mult,
                               const int32_t out_shift,
                               const int32_t out_activation_min,
                               const int32_t out_activation_max)
{
    const helia_add_sub_quant q = {input1_offset, input1_mult, input1_shift, input2_offset, input2_mult,
                                   input2_shift,  left_shift,  out_offset,   out_mult,      out_shift,
                                   out_activation_min, out_activation_max};
    int8_t *out = output_data;
    for (int32_t n = 0; n < output_dims->n; ++n)
    {
        for (int32_t h = 0; h < output_dims->h; ++h)
        {
            for (int32_t w = 0; w < output_dims->w; ++w)
            {
                for (int32_t c = 0; c < output_dims->c; ++c)
                {
                    const int8_t a = input1_data[helia_broadcast_offset(input1_dims, n, h, w, c)];
                    const int8_t b = input2_data[helia_broadcast_offset(input2_dims, n, h, w, c)];
                    *out++ = helia_add_sub_s8(a, b, &q, 1);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
