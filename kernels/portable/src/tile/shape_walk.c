/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private element gather of TILE and BROADCAST_TO (any element size). */

#include <string.h>

#include "shape_walk.h"

#define HELIA_WALK_MAX_RANK 8

arm_cmsis_nn_status helia_repeat_walk(const void *input,
                                      void *output,
                                      size_t element_size,
                                      int32_t rank,
                                      const int32_t *input_shape,
                                      const int32_t *output_shape)
{
    if (input == NULL || output == NULL || input_shape == NULL || output_shape == NULL || rank < 1 ||
        rank > HELIA_WALK_MAX_RANK)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    size_t in_stride[HELIA_WALK_MAX_RANK];
    int32_t coord[HELIA_WALK_MAX_RANK];
    size_t total = 1;
    size_t stride = 1;
    for (int32_t d = rank - 1; d >= 0; d--)
    {
        if (input_shape[d] < 1 || output_shape[d] < 0)
        {
            return ARM_CMSIS_NN_ARG_ERROR;
        }
        in_stride[d] = stride;
        stride *= (size_t)input_shape[d];
        total *= (size_t)output_shape[d];
        coord[d] = 0;
    }
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    for (size_t i = 0; i < total; i++)
    {
        size_t from = 0;
        for (int32_t d = 0; d < rank; d++)
        {
            from += (size_t)(coord[d] % input_shape[d]) * in_stride[d];
        }
        memcpy(out + i * element_size, in + from * element_size, element_size);
        /* Next output coordinate, last dimension fastest. */
        for (int32_t d = rank - 1; d >= 0; d--)
        {
            if (++coord[d] < output_shape[d])
            {
                break;
            }
            coord[d] = 0;
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}
