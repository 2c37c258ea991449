/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private GATHER of tensors of any element size. */

#include "gather_elements.h"

#include <string.h>

int32_t helia_dims_axis(const cmsis_nn_dims *dims, int32_t i)
{
    switch (i)
    {
    case 0:
        return dims->n;
    case 1:
        return dims->h;
    case 2:
        return dims->w;
    case 3:
        return dims->c;
    default:
        return 1;
    }
}

/* Reads the first rank axes of dims into shape; false if one is negative. */
static bool read_shape(const cmsis_nn_dims *dims, int32_t rank, int32_t *shape)
{
    for (int32_t i = 0; i < rank; ++i)
    {
        shape[i] = helia_dims_axis(dims, i);
        if (shape[i] < 0)
        {
            return false;
        }
    }
    return true;
}

arm_cmsis_nn_status helia_gather_elements(const void *input,
                                          const cmsis_nn_dims *input_dims,
                                          const int32_t *indices,
                                          const cmsis_nn_dims *indices_dims,
                                          const cmsis_nn_gather_params *params,
                                          void *output,
                                          const cmsis_nn_dims *output_dims,
                                          size_t element_size)
{
    if (input == NULL || input_dims == NULL || indices == NULL || indices_dims == NULL || params == NULL ||
        output == NULL || output_dims == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t in_rank = params->input_rank;
    const int32_t idx_rank = params->coords_rank;
    if (in_rank < 1 || in_rank > HELIA_GATHER_MAX_RANK || idx_rank < 1 || idx_rank > HELIA_GATHER_MAX_RANK)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t axis = params->axis < 0 ? params->axis + in_rank : params->axis;
    const int32_t batch_dims = params->batch_dims < 0 ? params->batch_dims + idx_rank : params->batch_dims;
    if (axis < 0 || axis >= in_rank || batch_dims < 0 || batch_dims > idx_rank || batch_dims > axis)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    int32_t in_shape[HELIA_GATHER_MAX_RANK];
    int32_t idx_shape[HELIA_GATHER_MAX_RANK];
    if (!read_shape(input_dims, in_rank, in_shape) || !read_shape(indices_dims, idx_rank, idx_shape))
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    /* Output axes: input before the axis, indices after the batch axes, input after the axis. */
    const int32_t out_rank = in_rank - 1 + idx_rank - batch_dims;
    if (out_rank > HELIA_GATHER_MAX_RANK)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    size_t batches = 1, outer = 1, inner = 1, coords = 1;
    for (int32_t i = 0; i < batch_dims; ++i)
    {
        if (in_shape[i] != idx_shape[i])
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        batches *= (size_t)in_shape[i];
    }
    for (int32_t i = batch_dims; i < axis; ++i)
    {
        outer *= (size_t)in_shape[i];
    }
    for (int32_t i = axis + 1; i < in_rank; ++i)
    {
        inner *= (size_t)in_shape[i];
    }
    for (int32_t i = batch_dims; i < idx_rank; ++i)
    {
        coords *= (size_t)idx_shape[i];
    }
    int32_t k = 0;
    for (int32_t i = 0; i < in_rank; ++i)
    {
        if (i == axis)
        {
            for (int32_t j = batch_dims; j < idx_rank; ++j, ++k)
            {
                if (helia_dims_axis(output_dims, k) != idx_shape[j])
                {
                    return ARM_CMSIS_NN_ARG_ERROR;
                }
            }
        }
        else if (helia_dims_axis(output_dims, k++) != in_shape[i])
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
    }
    const int32_t axis_size = in_shape[axis];
    const size_t row_bytes = inner * element_size;
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    for (size_t b = 0; b < batches; ++b)
    {
        for (size_t o = 0; o < outer; ++o)
        {
            const size_t block = b * outer + o;
            for (size_t c = 0; c < coords; ++c)
            {
                const int32_t index = indices[b * coords + c];
                if (index < 0 || index >= axis_size)
                {
                    return ARM_CMSIS_NN_ARG_ERROR;
                }
                memcpy(out + (block * coords + c) * row_bytes,
                       in + (block * (size_t)axis_size + (size_t)index) * row_bytes,
                       row_bytes);
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
