/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_tile_s8, TILE of an int8_t tensor. */

#include "arm_nnfunctions.h"
#include "shape_walk.h"

#define HELIA_TILE_MAX_RANK 8

/* output[c] = input[c % input_shape] per dimension, output_shape = input_shape * multiples. A zero
 * dimension or multiple writes nothing, as in ns-cmsis-nn. */
arm_cmsis_nn_status arm_tile_s8(const int8_t *input, const cmsis_nn_tile_params *params, int8_t *output)
{
    if (input == NULL || params == NULL || output == NULL || params->input_shape == NULL || params->multiples == NULL ||
        params->rank < 1 || params->rank > HELIA_TILE_MAX_RANK)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    int32_t output_shape[HELIA_TILE_MAX_RANK];
    for (int32_t d = 0; d < params->rank; d++)
    {
        if (params->input_shape[d] == 0 || params->multiples[d] == 0)
        {
            return ARM_CMSIS_NN_SUCCESS;
        }
        output_shape[d] = params->input_shape[d] * params->multiples[d];
    }
    return helia_repeat_walk(input, output, sizeof(int8_t), params->rank, params->input_shape, output_shape);
}
