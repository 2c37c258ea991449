/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_split_s8, SPLIT / SPLIT_V of an int8_t tensor (any layout). */

#include "arm_nnfunctions.h"
#include "split_elements.h"

/* Piece s of the input along axis (split_dims[s] positions of it) goes to output_data[s]. */
arm_cmsis_nn_status arm_split_s8(const int8_t *input_data,
                                 const int32_t input_dims,
                                 const int32_t *input_shape,
                                 const int32_t axis,
                                 const int32_t num_splits,
                                 const int32_t *split_dims,
                                 int8_t *const *output_data)
{
    size_t outer, inner, row;
    const arm_cmsis_nn_status status =
        helia_split_geometry(input_data, input_dims, input_shape, axis, num_splits, split_dims, &outer, &inner, &row);
    if (status != ARM_CMSIS_NN_SUCCESS || output_data == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    size_t offset = 0;
    for (int32_t s = 0; s < num_splits; s++)
    {
        const size_t piece = (size_t)split_dims[s] * inner;
        helia_split_piece(input_data, output_data[s], outer, row * sizeof(int8_t), offset * sizeof(int8_t),
                          piece * sizeof(int8_t));
        offset += piece;
    }
    return ARM_CMSIS_NN_SUCCESS;
}
