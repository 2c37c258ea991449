/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_transpose_s16, TRANSPOSE of int16 tensors with 1 to 4 dimensions. */

/* Output axis i is input axis perm[i]; see transpose_layout.h for how the dims are read. */

#include "arm_nnfunctions.h"
#include "transpose_layout.h"

arm_cmsis_nn_status arm_transpose_s16(const int16_t *input_data,
                                      int16_t *const output_data,
                                      const cmsis_nn_dims *const input_dims,
                                      const cmsis_nn_dims *const output_dims,
                                      const cmsis_nn_transpose_params *const transpose_params)
{
    int32_t shape[4];
    int32_t out_strides[4];
    const arm_cmsis_nn_status status = helia_transpose_layout(input_dims, output_dims, transpose_params, shape, out_strides);
    if (status != ARM_CMSIS_NN_SUCCESS)
    {
        return status;
    }
    const int16_t *in = input_data;
    for (int32_t i0 = 0; i0 < shape[0]; ++i0)
    {
        for (int32_t i1 = 0; i1 < shape[1]; ++i1)
        {
            for (int32_t i2 = 0; i2 < shape[2]; ++i2)
            {
                for (int32_t i3 = 0; i3 < shape[3]; ++i3)
                {
                    const size_t to = (size_t)i0 * out_strides[0] + (size_t)i1 * out_strides[1] +
                        (size_t)i2 * out_strides[2] + (size_t)i3 * out_strides[3];
                    output_data[to] = *in++;
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
