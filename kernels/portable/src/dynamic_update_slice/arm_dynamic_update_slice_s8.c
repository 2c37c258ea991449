/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_dynamic_update_slice_s8, DYNAMIC_UPDATE_SLICE of int8 tensors. */

#include "arm_nnfunctions.h"
#include "dynamic_update_slice_elements.h"

/* See dynamic_update_slice_elements.h for the clamping rule and the errors. */
arm_cmsis_nn_status arm_dynamic_update_slice_s8(const int8_t *operand,
                                                const int8_t *update,
                                                const int32_t *start_indices,
                                                const cmsis_nn_dynamic_update_slice_params *params,
                                                int8_t *output)
{
    return helia_dynamic_update_slice_elements(operand, update, start_indices, params, output, sizeof(int8_t));
}
