/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private GATHER_ND of tensors of any element size. */

#include "gather_elements.h"

#include <string.h>

arm_cmsis_nn_status helia_gather_nd_elements(const void *params_data,
                                             const cmsis_nn_dims *params_dims,
                                             const int32_t *indices,
                                             const cmsis_nn_dims *indices_dims,
                                             const cmsis_nn_gather_nd_params *params,
                                             void *output,
                                             const cmsis_nn_dims *output_dims,
                                             size_t element_size)
{
    if (params_data == NULL || params_dims == NULL || indices == NULL || indices_dims == NULL || params == NULL ||
        output == NULL || output_dims == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t p_rank = params->params_rank;
    const int32_t i_rank = params->indices_rank;
    const int32_t batch_dims = params->batch_dims;
    if (p_rank < 1 || p_rank > HELIA_GATHER_MAX_RANK || i_rank < 1 || i_rank > HELIA_GATHER_MAX_RANK ||
        batch_dims < 0 || batch_dims > p_rank || batch_dims > i_rank - 1)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    int32_t p_shape[HELIA_GATHER_MAX_RANK];
    int32_t i_shape[HELIA_GATHER_MAX_RANK];
    for (int32_t i = 0; i < p_rank; ++i)
    {
        p_shape[i] = helia_dims_axis(params_dims, i);
        if (p_shape[i] < 0)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
    }
    for (int32_t i = 0; i < i_rank; ++i)
    {
        i_shape[i] = helia_dims_axis(indices_dims, i);
        if (i_shape[i] < 0)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
    }
    const int32_t depth = i_shape[i_rank - 1];
    if (depth <= 0 || depth > p_rank - batch_dims)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    /* Output axes: every indices axis but the last, then the params axes the index does not address. */
    if (i_rank - 1 + p_rank - batch_dims - depth > HELIA_GATHER_MAX_RANK)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    int32_t k = 0;
    for (int32_t i = 0; i < i_rank - 1; ++i)
    {
        if (i < batch_dims && p_shape[i] != i_shape[i])
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        if (helia_dims_axis(output_dims, k++) != i_shape[i])
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
    }
    for (int32_t i = batch_dims + depth; i < p_rank; ++i)
    {
        if (helia_dims_axis(output_dims, k++) != p_shape[i])
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
    }
    size_t strides[HELIA_GATHER_MAX_RANK];
    size_t step = 1;
    for (int32_t i = p_rank - 1; i >= 0; --i)
    {
        strides[i] = step;
        step *= (size_t)p_shape[i];
    }
    size_t batches = 1, per_batch = 1;
    for (int32_t i = 0; i < batch_dims; ++i)
    {
        batches *= (size_t)p_shape[i];
    }
    for (int32_t i = batch_dims; i < i_rank - 1; ++i)
    {
        per_batch *= (size_t)i_shape[i];
    }
    /* Row-major batch axes lead params, so batch b starts at b times the stride of the last one. */
    const size_t batch_stride = batch_dims > 0 ? strides[batch_dims - 1] : 0;
    /* A slice is every params axis after the addressed ones: the stride of the last addressed axis. */
    const size_t slice_bytes = strides[batch_dims + depth - 1] * element_size;
    const uint8_t *in = (const uint8_t *)params_data;
    uint8_t *out = (uint8_t *)output;
    for (size_t b = 0; b < batches; ++b)
    {
        for (size_t s = 0; s < per_batch; ++s)
        {
            const size_t slice = b * per_batch + s;
            const int32_t *index = indices + slice * (size_t)depth;
            size_t from = b * batch_stride;
            for (int32_t j = 0; j < depth; ++j)
            {
                if (index[j] < 0 || index[j] >= p_shape[batch_dims + j])
                {
                    return ARM_CMSIS_NN_ARG_ERROR;
                }
                from += (size_t)index[j] * strides[batch_dims + j];
            }
            memcpy(out + slice * slice_bytes, in + from * element_size, slice_bytes);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
