/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private MIRROR_PAD of tensors of any element size. */

#include "mirror_pad_elements.h"

#include <string.h>

arm_cmsis_nn_status helia_mirror_pad_elements(const void *input,
                                              const cmsis_nn_mirror_pad_params *params,
                                              void *output,
                                              size_t element_size)
{
    if (input == NULL || params == NULL || output == NULL || params->input_shape == NULL ||
        params->output_shape == NULL || params->pad_before == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t rank = params->rank;
    if (rank < 1 || rank > HELIA_MIRROR_MAX_RANK)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t reflect = params->mode == 0 ? 1 : 0; /* REFLECT skips the edge element */
    size_t in_strides[HELIA_MIRROR_MAX_RANK];
    size_t total = 1, step = 1;
    for (int32_t d = rank - 1; d >= 0; --d)
    {
        const int32_t dim = params->input_shape[d];
        const int32_t before = params->pad_before[d];
        const int32_t after = params->output_shape[d] - dim - before;
        if (dim < 1 || before < 0 || after < 0 || before > dim - reflect || after > dim - reflect)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        in_strides[d] = step;
        step *= (size_t)dim;
        total *= (size_t)params->output_shape[d];
    }
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    int32_t coord[HELIA_MIRROR_MAX_RANK] = {0};
    for (size_t i = 0; i < total; ++i)
    {
        size_t from = 0;
        for (int32_t d = 0; d < rank; ++d)
        {
            const int32_t dim = params->input_shape[d];
            int32_t c = coord[d] - params->pad_before[d];
            if (c < 0)
            {
                c = -c - 1 + reflect;
            }
            else if (c >= dim)
            {
                c = 2 * dim - 1 - reflect - c;
            }
            from += (size_t)c * in_strides[d];
        }
        memcpy(out + i * element_size, in + from * element_size, element_size);
        /* Next output coordinate, last axis fastest. */
        for (int32_t d = rank - 1; d >= 0; --d)
        {
            if (++coord[d] < params->output_shape[d])
            {
                break;
            }
            coord[d] = 0;
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
