/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: the SELECT_V2 walk (see select_core.h). */

#include "select_core.h"

arm_cmsis_nn_status helia_select_v2(const bool *condition,
                                    const void *x,
                                    const void *y,
                                    const cmsis_nn_select_v2_params *params,
                                    void *output,
                                    int32_t element_bytes)
{
    int32_t coord[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int32_t size = 1;
    if (condition == NULL || x == NULL || y == NULL || params == NULL || output == NULL || params->rank < 1 ||
        params->rank > 8)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t rank = params->rank;
    for (int32_t d = 0; d < rank; ++d)
    {
        size *= params->output_shape[d];
    }
    /* Walk the output in row-major order with an odometer over its coordinates. */
    for (int32_t i = 0; i < size; ++i)
    {
        int32_t at_c = 0, at_x = 0, at_y = 0;
        for (int32_t d = 0; d < rank; ++d)
        {
            at_c += coord[d] * params->cond_strides[d];
            at_x += coord[d] * params->x_strides[d];
            at_y += coord[d] * params->y_strides[d];
        }
        if (element_bytes == 1)
        {
            ((int8_t *)output)[i] = condition[at_c] ? ((const int8_t *)x)[at_x] : ((const int8_t *)y)[at_y];
        }
        else
        {
            ((int16_t *)output)[i] = condition[at_c] ? ((const int16_t *)x)[at_x] : ((const int16_t *)y)[at_y];
        }
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
