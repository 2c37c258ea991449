/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_broadcast_to_s16, BROADCAST_TO of an int16_t tensor. */

#include "arm_nnfunctions.h"
#include "shape_walk.h"

/* output[c] = input[c with 0 on every dimension where the input has size 1]; input and output shapes have
 * the same rank (1..8), each input dimension 1 or equal to the output's. */
arm_cmsis_nn_status
arm_broadcast_to_s16(const int16_t *input, const cmsis_nn_broadcast_to_params *params, int16_t *output)
{
    if (params == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    return helia_repeat_walk(input, output, sizeof(int16_t), params->rank, params->input_shape, params->output_shape);
}
