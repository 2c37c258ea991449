/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_scatter_nd_s16, SCATTER_ND of int16 update slices into a zeroed output. */

#include "arm_nnfunctions.h"

#include <string.h>

/*
 * output = 0, then for each update u: output[sum_d indices[u][d] * output_strides[d] + j] += updates[u][j]
 * for j < slice_size; updates to one place add up (wrapping to int16, as LiteRT's reference kernel).
 * ARM_CMSIS_NN_ARG_ERROR for a NULL pointer or a slice that does not lie inside the output (updates before
 * it are applied). The flat position is formed in 64 bits, so no index value overflows it.
 */
arm_cmsis_nn_status arm_scatter_nd_s16(const int32_t *indices,
                                       const int16_t *updates,
                                       const cmsis_nn_scatter_nd_params *params,
                                       int16_t *output)
{
    if (indices == NULL || updates == NULL || params == NULL || output == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t depth = params->index_depth;
    const int32_t slice = params->slice_size;
    memset(output, 0, (size_t)params->output_size * sizeof(int16_t));
    for (int32_t u = 0; u < params->num_updates; ++u)
    {
        int64_t at = 0;
        for (int32_t d = 0; d < depth; ++d)
        {
            at += (int64_t)indices[u * depth + d] * params->output_strides[d];
        }
        if (at < 0 || at + slice > params->output_size)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        int16_t *to = output + at;
        const int16_t *from = updates + (size_t)u * (size_t)slice;
        for (int32_t j = 0; j < slice; ++j)
        {
            to[j] = (int16_t)(to[j] + from[j]);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
