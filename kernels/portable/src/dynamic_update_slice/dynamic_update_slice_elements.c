/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private DYNAMIC_UPDATE_SLICE of tensors of any element size. */

#include "dynamic_update_slice_elements.h"

#include <string.h>

arm_cmsis_nn_status helia_dynamic_update_slice_elements(const void *operand,
                                                        const void *update,
                                                        const int32_t *start_indices,
                                                        const cmsis_nn_dynamic_update_slice_params *params,
                                                        void *output,
                                                        size_t element_size)
{
    if (operand == NULL || update == NULL || start_indices == NULL || params == NULL || output == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t rank = params->rank;
    if (rank < 1 || rank > HELIA_DYNAMIC_UPDATE_SLICE_MAX_RANK)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    memcpy(output, operand, (size_t)params->operand_size * element_size);
    if (params->update_size == 0)
    {
        return ARM_CMSIS_NN_SUCCESS;
    }
    int32_t start[HELIA_DYNAMIC_UPDATE_SLICE_MAX_RANK];
    for (int32_t d = 0; d < rank; ++d)
    {
        const int32_t last = params->operand_shape[d] - params->update_shape[d];
        if (last < 0)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        start[d] = start_indices[d] < 0 ? 0 : (start_indices[d] > last ? last : start_indices[d]);
    }
    /* Copy the update one row (its last axis) at a time, walking the other update axes as an odometer. */
    const int32_t row = params->update_shape[rank - 1];
    const size_t row_bytes = (size_t)row * element_size;
    const int32_t rows = params->update_size / row;
    const uint8_t *from = (const uint8_t *)update;
    uint8_t *out = (uint8_t *)output;
    int32_t coord[HELIA_DYNAMIC_UPDATE_SLICE_MAX_RANK] = {0};
    for (int32_t r = 0; r < rows; ++r)
    {
        size_t to = (size_t)start[rank - 1];
        for (int32_t d = 0; d < rank - 1; ++d)
        {
            to += (size_t)(start[d] + coord[d]) * (size_t)params->operand_strides[d];
        }
        memcpy(out + to * element_size, from + (size_t)r * row_bytes, row_bytes);
        for (int32_t d = rank - 2; d >= 0; --d)
        {
            if (++coord[d] < params->update_shape[d])
            {
                break;
            }
            coord[d] = 0;
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
