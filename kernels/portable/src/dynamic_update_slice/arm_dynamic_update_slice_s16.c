/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: arm_dynamic_update_slice_s16, DYNAMIC_UPDATE_SLICE of int16 tensors. */

#include "arm_nnfunctions.h"
#include "dynamic_update_slice_elements.h"

/* See dynamic_update_slice_elements.h for the clamping rule and the errors. */
arm_cmsis_nn_status arm_dynamic_update_slice_s16(const int16_t *operand,
                                                 const int16_t *update,
                                                 const int32_t *start_indices,
                                                 const cmsis_nn_dynamic_update_slice_params *params,
                                                 int16_t *output)
{
    return helia_dynamic_update_slice_elements(operand, update, start_indices, params, output, sizeof(int16_t));
}
