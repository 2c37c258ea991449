/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private REVERSE_SEQUENCE of tensors of any element size. */

#include "reverse_sequence_elements.h"

#include <string.h>

arm_cmsis_nn_status helia_reverse_sequence_elements(const void *input,
                                                    const int32_t *seq_lengths,
                                                    const cmsis_nn_reverse_sequence_params *params,
                                                    void *output,
                                                    size_t element_size)
{
    if (input == NULL || seq_lengths == NULL || params == NULL || output == NULL || params->shape == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t rank = params->rank;
    const int32_t seq_dim = params->seq_dim;
    const int32_t batch_dim = params->batch_dim;
    if (rank < 1 || rank > HELIA_REVERSE_SEQUENCE_MAX_RANK || seq_dim < 0 || seq_dim >= rank || batch_dim < 0 ||
        batch_dim >= rank)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t *shape = params->shape;
    for (int32_t b = 0; b < shape[batch_dim]; ++b)
    {
        if (seq_lengths[b] > shape[seq_dim])
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
    }
    size_t strides[HELIA_REVERSE_SEQUENCE_MAX_RANK];
    size_t total = 1;
    for (int32_t d = rank - 1; d >= 0; --d)
    {
        strides[d] = total;
        total *= (size_t)shape[d];
    }
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    int32_t coord[HELIA_REVERSE_SEQUENCE_MAX_RANK] = {0};
    for (size_t i = 0; i < total; ++i)
    {
        const int32_t length = seq_lengths[coord[batch_dim]];
        const int32_t s = coord[seq_dim];
        size_t from = i;
        if (s < length)
        {
            /* Move along seq_dim from s to length - 1 - s. */
            from = i - (size_t)s * strides[seq_dim] + (size_t)(length - 1 - s) * strides[seq_dim];
        }
        memcpy(out + i * element_size, in + from * element_size, element_size);
        for (int32_t d = rank - 1; d >= 0; --d)
        {
            if (++coord[d] < shape[d])
            {
                break;
            }
            coord[d] = 0;
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
