/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: index layout of TRANSPOSE for tensors with 1 to 4 dimensions. */

#include "transpose_layout.h"

static void set4(int32_t v[4], int32_t a, int32_t b, int32_t c, int32_t d)
{
    v[0] = a;
    v[1] = b;
    v[2] = c;
    v[3] = d;
}

arm_cmsis_nn_status helia_transpose_layout(const cmsis_nn_dims *input_dims,
                                           const cmsis_nn_dims *output_dims,
                                           const cmsis_nn_transpose_params *transpose_params,
                                           int32_t shape[4],
                                           int32_t out_strides[4])
{
    const uint32_t *perm = transpose_params->permutations;
    const int32_t rank = transpose_params->num_dims;

    if (rank == 1)
    {
        set4(shape, 1, 1, 1, input_dims->n);
        set4(out_strides, 0, 0, 0, 1);
        return ARM_CMSIS_NN_SUCCESS;
    }
    if (rank == 2)
    {
        /* n x h matrix -> h x n matrix: input axis 0 moves with stride 1, axis 1 with stride n. */
        set4(shape, 1, 1, input_dims->n, input_dims->h);
        set4(out_strides, 0, 0, 1, input_dims->n);
        return ARM_CMSIS_NN_SUCCESS;
    }
    if (rank == 3)
    {
        if (perm[0] > 2 || perm[1] > 2 || perm[2] > 2)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        set4(shape, 1, input_dims->n, input_dims->h, input_dims->w);
        set4(out_strides, 0, 0, 0, 0);
        out_strides[perm[0] + 1] = output_dims->h * output_dims->w;
        out_strides[perm[1] + 1] = output_dims->w;
        out_strides[perm[2] + 1] = 1;
        return ARM_CMSIS_NN_SUCCESS;
    }
    if (perm[0] > 3 || perm[1] > 3 || perm[2] > 3 || perm[3] > 3)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    set4(shape, input_dims->n, input_dims->h, input_dims->w, input_dims->c);
    set4(out_strides, 0, 0, 0, 0);
    out_strides[perm[0]] = output_dims->h * output_dims->w * output_dims->c;
    out_strides[perm[1]] = output_dims->w * output_dims->c;
    out_strides[perm[2]] = output_dims->c;
    out_strides[perm[3]] = 1;
    return ARM_CMSIS_NN_SUCCESS;
}
