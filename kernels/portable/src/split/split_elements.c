/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private SPLIT of a row-major tensor of any element size. */

#include <string.h>

#include "split_elements.h"

arm_cmsis_nn_status helia_split_geometry(const void *input,
                                         int32_t rank,
                                         const int32_t *shape,
                                         int32_t axis,
                                         int32_t num_splits,
                                         const int32_t *split_dims,
                                         size_t *outer,
                                         size_t *inner,
                                         size_t *row)
{
    if (input == NULL || shape == NULL || split_dims == NULL || rank < 1 || rank > 8 || axis < 0 || axis >= rank ||
        num_splits < 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    *outer = 1;
    *inner = 1;
    *row = 0;
    for (int32_t d = 0; d < axis; d++)
    {
        *outer *= (size_t)shape[d];
    }
    for (int32_t d = axis + 1; d < rank; d++)
    {
        *inner *= (size_t)shape[d];
    }
    for (int32_t s = 0; s < num_splits; s++)
    {
        if (split_dims[s] < 0)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        *row += (size_t)split_dims[s] * *inner;
    }
    return ARM_CMSIS_NN_SUCCESS;
}

void helia_split_piece(const void *input, void *output, size_t outer, size_t row_bytes, size_t offset_bytes,
                       size_t piece_bytes)
{
    if (piece_bytes == 0)
    {
        return;
    }
    for (size_t k = 0; k < outer; k++)
    {
        memcpy((uint8_t *)output + k * piece_bytes, (const uint8_t *)input + k * row_bytes + offset_bytes,
               piece_bytes);
    }
}
