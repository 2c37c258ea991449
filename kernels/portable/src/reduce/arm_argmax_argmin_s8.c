/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_argmax_s8 / arm_argmin_s8, the index of the largest / smallest value along one
 * NHWC axis (the first one on ties, as TFLite's ARG_MAX / ARG_MIN). */

#include "arm_nnfunctions.h"

static arm_cmsis_nn_status arg_extreme(const int8_t *input_data,
                                       const cmsis_nn_dims *input_dims,
                                       int32_t axis,
                                       int32_t *output_data,
                                       bool want_max)
{
    if (axis < 0 || axis > 3)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t dims[4] = {input_dims->n, input_dims->h, input_dims->w, input_dims->c};
    const int32_t length = dims[axis];
    if (length <= 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    int32_t outer = 1, inner = 1;
    for (int32_t d = 0; d < 4; ++d)
    {
        if (d < axis)
        {
            outer *= dims[d];
        }
        else if (d > axis)
        {
            inner *= dims[d];
        }
    }
    for (int32_t o = 0; o < outer; ++o)
    {
        for (int32_t i = 0; i < inner; ++i)
        {
            const int8_t *row = input_data + o * length * inner + i;
            int32_t best = 0;
            for (int32_t k = 1; k < length; ++k)
            {
                /* strict comparison: a tie keeps the earlier index */
                if (want_max ? row[k * inner] > row[best * inner] : row[k * inner] < row[best * inner])
                {
                    best = k;
                }
            }
            output_data[o * inner + i] = best;
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status
arm_argmax_s8(const int8_t *input_data, const cmsis_nn_dims *input_dims, const int32_t axis, int32_t *output_data)
{
    return arg_extreme(input_data, input_dims, axis, output_data, true);
}

arm_cmsis_nn_status
arm_argmin_s8(const int8_t *input_data, const cmsis_nn_dims *input_dims, const int32_t axis, int32_t *output_data)
{
    return arg_extreme(input_data, input_dims, axis, output_data, false);
}
