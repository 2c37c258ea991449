/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_transpose_s8, TRANSPOSE of tensors with 1 to 4 dimensions. */

/*
 * Output axis i is input axis perm[i]. The dims structs hold the shape left-aligned in n, h, w, c
 * order for 1-3 dimensions (a 1-D tensor of n elements, a 2-D tensor of n x h, a 3-D one of n x h x w).
 * As in ns-cmsis-nn, a 2-D transpose always swaps the two axes and a 1-D one is a copy.
 */

#include "arm_nnfunctions.h"

/* Move every element of an input of shape `shape` (row-major) to its place in the output, given
 * for each input axis the output stride of that axis. */
static void permute(const int8_t *input, int8_t *output, const int32_t shape[4], const int32_t out_strides[4])
{
    size_t from = 0;
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
                    output[to] = input[from++];
                }
            }
        }
    }
}

arm_cmsis_nn_status arm_transpose_s8(const int8_t *input_data,
                                     int8_t *const output_data,
                                     const cmsis_nn_dims *const input_dims,
                                     const cmsis_nn_dims *const output_dims,
                                     const cmsis_nn_transpose_params *const transpose_params)
{
    const uint32_t *perm = transpose_params->permutations;
    const int32_t rank = transpose_params->num_dims;

    if (rank == 1)
    {
        memcpy(output_data, input_data, (size_t)input_dims->n);
        return ARM_CMSIS_NN_SUCCESS;
    }
    if (rank == 2)
    {
        /* n x h matrix -> h x n matrix: input axis 0 moves with stride 1, axis 1 with stride n. */
        const int32_t shape[4] = {1, 1, input_dims->n, input_dims->h};
        const int32_t out_strides[4] = {0, 0, 1, input_dims->n};
        permute(input_data, output_data, shape, out_strides);
        return ARM_CMSIS_NN_SUCCESS;
    }
    if (rank == 3)
    {
        if (perm[0] > 2 || perm[1] > 2 || perm[2] > 2)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        const int32_t shape[4] = {1, input_dims->n, input_dims->h, input_dims->w};
        int32_t out_strides[4] = {0, 0, 0, 0};
        out_strides[perm[0] + 1] = output_dims->h * output_dims->w;
        out_strides[perm[1] + 1] = output_dims->w;
        out_strides[perm[2] + 1] = 1;
        permute(input_data, output_data, shape, out_strides);
        return ARM_CMSIS_NN_SUCCESS;
    }
    if (perm[0] > 3 || perm[1] > 3 || perm[2] > 3 || perm[3] > 3)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t shape[4] = {input_dims->n, input_dims->h, input_dims->w, input_dims->c};
    int32_t out_strides[4] = {0, 0, 0, 0};
    out_strides[perm[0]] = output_dims->h * output_dims->w * output_dims->c;
    out_strides[perm[1]] = output_dims->w * output_dims->c;
    out_strides[perm[2]] = output_dims->c;
    out_strides[perm[3]] = 1;
    permute(input_data, output_data, shape, out_strides);
    return ARM_CMSIS_NN_SUCCESS;
}
